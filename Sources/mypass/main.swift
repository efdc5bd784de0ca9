#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

ProcessHardening.apply()
exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst())))
