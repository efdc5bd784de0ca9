import Foundation
import MyPassCore
import MyPassCryptoHardware

/// mypass-bench: KDF and vault-opening timing, side by side with the reference tools.
let topUsage = """
USAGE: mypass-bench <command> [options]

COMMANDS:
  kdf argon2d|argon2id|aes   Time a KDF (and print the derived key with --show-key).
  calibrate                  Iterations or rounds that take a target time (KeePass's "1 second delay").
  open VAULT                 Opening broken into stages, a full save, and peak memory.
  primitives                 Throughput of every primitive.
  signatures                 ES256 and Ed25519 signing and verification per second.
  autofill VAULT             The AutoFill open: peak memory, time to suggestions, budget fit.
  browse VAULT               mypass browse: a search keystroke's redraw, peak memory beside show.
  xml FILE.xml               The XML tokenizer alone on a plain file, in 4 KiB chunks (MB/s).
  analyze VAULT --hibp FILE  HIBP lookups per second and the health report, beside keepassxc-cli analyze.

Every command takes --json, and --compare to run the reference tools found on this machine
(argon2 CLI, openssl speed, Python's zlib, xmllint --stream, keepassxc-cli) in the same run.
--clock cpu|wall picks what is timed, for mypass and the reference tools alike: process CPU time
(user + system, all threads; the default, robust on a busy machine) or wall-clock time.
See 'mypass-bench <command> --help'.
"""

func main() -> Int32 {
    // The x86_64 AES-NI and SHA-NI kernels and the operating system's view of the CPU (with huge
    // pages and Dispatch for Argon2), before anything hashes or encrypts.
    CryptoHardware.install()
    SystemPlatform.install()
    var args: BenchArguments
    do {
        args = try BenchArguments(CommandLine.arguments.dropFirst())
    } catch {
        FileHandle.standardError.write(Data("mypass-bench: \(error)\n".utf8))
        return 2
    }
    let command = args.positionals.first
    let help = args.flag("help")
    if let clock = args.value("clock") {
        guard let chosen = Timing.Clock(rawValue: clock) else {
            FileHandle.standardError.write(Data("mypass-bench: --clock is cpu or wall\n".utf8))
            return 2
        }
        Timing.clock = chosen
    }
    // `help kdf` shows kdf's help, as `kdf --help` does.
    let topic = command == "help" ? args.positionals.dropFirst().first : command
    let usage: String
    switch topic {
    case "kdf": usage = KDFCommand.usage
    case "calibrate": usage = CalibrateCommand.usage
    case "open": usage = OpenCommand.usage
    case "primitives": usage = PrimitivesCommand.usage
    case "signatures": usage = SignaturesCommand.usage
    case "autofill": usage = AutofillCommand.usage
    case "browse": usage = BrowseCommand.usage
    case "xml": usage = XMLCommand.usage
    case "analyze": usage = AnalyzeBenchCommand.usage
    default: usage = topUsage
    }
    if help || command == nil || command == "help" {
        if command == "help", let topic, usage == topUsage {
            FileHandle.standardError.write(Data("mypass-bench: unknown command '\(topic)'\n\n".utf8))
            print(usage)
            return 2
        }
        print(usage)
        return command == nil && !help ? 2 : 0
    }
    do {
        switch command {
        case "kdf": try KDFCommand.run(&args)
        case "calibrate": try CalibrateCommand.run(&args)
        case "open": try OpenCommand.run(&args)
        case "primitives": try PrimitivesCommand.run(&args)
        case "signatures": try SignaturesCommand.run(&args)
        case "autofill": try AutofillCommand.run(&args)
        case "browse": try BrowseCommand.run(&args)
        case "xml": try XMLCommand.run(&args)
        case "analyze": try AnalyzeBenchCommand.run(&args)
        default: throw BenchError.usage("unknown command '\(command ?? "")'")
        }
        return 0
    } catch BenchError.usage(let message) {
        FileHandle.standardError.write(Data("mypass-bench: \(message)\n\n\(usage)\n".utf8))
        return 2
    } catch BenchError.failure(let message) {
        FileHandle.standardError.write(Data("mypass-bench: \(message)\n".utf8))
        return 1
    } catch {
        FileHandle.standardError.write(Data("mypass-bench: \(error)\n".utf8))
        return 1
    }
}

exit(main())
