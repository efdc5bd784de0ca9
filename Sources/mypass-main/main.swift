// The `mypass` executable: everything but this entry point is the MyPassCLI module, so that the tests can link
// that module with the shared Swift runtime while this binary carries the runtime and Foundation inside it
// (Package.swift, `staticRuntimeOnLinux`). Foundation is imported here so that this module's static link pulls
// in what the static Foundation needs (ICU, CoreFoundation) through its autolink entries.
import Foundation
import MyPassCLI
import MyPassCore
import MyPassCryptoHardware

// The x86_64 AES-NI and SHA-NI kernels and what the operating system says about the CPU, before
// anything hashes or encrypts (the first use fixes the choice).
CryptoHardware.install()
SystemPlatform.install()
for failure in ProcessHardening.apply() {
    FileHandle.standardError.write(Data("Warning: unable to disable core dumps: cannot set \(failure).\n".utf8))
}
exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst())))
