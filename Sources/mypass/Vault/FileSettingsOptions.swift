import MyPassBytes
import MyPassCore
import MyPassCrypto
import MyPassKDBX

/// The file-settings options of `create` and `settings`: KDF and cost, unlock time, cipher,
/// format. The rules (defaults, calibration, what a version holds) are MyPassCore's; this parses.
enum FileSettingsOptions {
    /// `--kdf`, `--memory`, `--iterations`, `--parallelism`, `--rounds`, `--unlock-time`,
    /// `--cipher`, `--format`.
    static let specs: [OptionSpec] = [
        .option("kdf", "argon2d|argon2id|aes", "The key derivation function (default argon2d)."),
        .option("memory", "size", "Argon2 memory: bytes, or with KiB, MiB or GiB (default 64MiB)."),
        .option("iterations", "n", "Argon2 iterations (default: calibrated to --unlock-time)."),
        .option("parallelism", "n", "Argon2 lanes (default 2)."),
        .option("rounds", "n", "AES-KDF rounds (default: calibrated to --unlock-time)."),
        .option("unlock-time", "seconds", "Calibrate the iterations or rounds so that unlocking takes this long on this machine (default 1)."),
        .option("cipher", "aes256|chacha20|twofish", "The payload cipher (default aes256)."),
        .option("format", "4.1|4.0|3.1", "The KDBX version (default 4.0; 3.1 holds AES-KDF only)."),
    ]

    /// A size: bytes, or a number with `KiB`/`MiB`/`GiB` (also `K`, `M`, `G`).
    static func size(_ text: String, option: String, _ parsed: ParsedArguments) throws(CLIError) -> UInt64 {
        let units: [(String, UInt64)] = [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10), ("G", 1 << 30), ("M", 1 << 20),
                                         ("K", 1 << 10), ("B", 1)]
        for (suffix, factor) in units where text.hasSuffix(suffix) {
            if let number = UInt64(text.dropLast(suffix.count)) {
                let (product, overflow) = number.multipliedReportingOverflow(by: factor)
                if !overflow { return product }
            }
            break
        }
        if let bytes = UInt64(text) { return bytes }
        throw parsed.usageError("The value '\(text)' is invalid for '--\(option)': expected bytes, or a number with KiB, MiB or GiB")
    }

    /// An unsigned integer option at least 1, or nil when absent.
    static func count(_ option: String, _ parsed: ParsedArguments, max: UInt64 = UInt64(Int64.max)) throws(CLIError) -> UInt64? {
        guard let text = parsed.value(option) else { return nil }
        guard let number = UInt64(text), number >= 1, number <= max else {
            throw parsed.usageError("The value '\(text)' is invalid for '--\(option)': expected an integer from 1 to \(max)")
        }
        return number
    }

    /// `--unlock-time` in seconds, or nil when absent.
    static func unlockTime(_ parsed: ParsedArguments) throws(CLIError) -> Double? {
        guard let text = parsed.value("unlock-time") else { return nil }
        guard let seconds = Double(text), seconds > 0, seconds <= 600 else {
            throw parsed.usageError("The value '\(text)' is invalid for '--unlock-time': expected seconds, more than 0 and at most 600")
        }
        return seconds
    }

    static func cipher(_ parsed: ParsedArguments) throws(CLIError) -> PayloadCipher? {
        guard let text = parsed.value("cipher") else { return nil }
        guard let cipher = PayloadCipher(rawValue: text) else {
            throw parsed.usageError("The value '\(text)' is invalid for '--cipher': expected aes256, chacha20 or twofish")
        }
        return cipher
    }

    static func version(_ parsed: ParsedArguments) throws(CLIError) -> KDBXVersion? {
        guard let text = parsed.value("format") else { return nil }
        guard let version = VaultSettingsChange.writableVersions.first(where: { $0.description == text }) else {
            throw parsed.usageError("The value '\(text)' is invalid for '--format': expected 4.1, 4.0 or 3.1")
        }
        return version
    }

    /// The KDF the options ask for, starting from `current` (the vault's, or the default of a new
    /// one): `--kdf` switches the function (Argon2d and Argon2id keep each other's cost; another
    /// family starts from its defaults), the cost options override. Returns the KDF, whether
    /// `--iterations` or `--rounds` was given (then nothing is calibrated; giving `--unlock-time`
    /// too is a usage error), and whether anything differs from `current`.
    static func kdf(_ parsed: ParsedArguments, current: KDFSettings) throws(CLIError) -> (kdf: KDFSettings, costGiven: Bool, changed: Bool) {
        var kdf = current
        var changed = false
        if let name = parsed.value("kdf") {
            switch name {
            case "argon2d", "argon2id":
                let variant: Argon2Settings.Variant = name == "argon2d" ? .argon2d : .argon2id
                if case .argon2(var argon2) = kdf {
                    argon2.variant = variant
                    kdf = .argon2(argon2)
                } else {
                    var argon2 = Argon2Settings.keePassDefault
                    argon2.variant = variant
                    kdf = .argon2(argon2)
                }
            case "aes":
                if case .argon2 = kdf { kdf = .aes(rounds: NewVaultSettings.defaultAESRounds) }
            default:
                throw parsed.usageError("The value '\(name)' is invalid for '--kdf': expected argon2d, argon2id or aes")
            }
            changed = kdf != current
        }
        var costGiven = false
        switch kdf {
        case .aes(var rounds):
            for option in ["memory", "iterations", "parallelism"] where parsed.value(option) != nil {
                throw parsed.usageError("--\(option) is an Argon2 parameter; this KDF is AES-KDF (use --rounds)")
            }
            if let given = try count("rounds", parsed, max: 2_000_000_000) { rounds = given; costGiven = true }
            kdf = .aes(rounds: rounds)
        case .argon2(var argon2):
            if parsed.value("rounds") != nil { throw parsed.usageError("--rounds is an AES-KDF parameter; this KDF is Argon2 (use --iterations)") }
            if let text = parsed.value("memory") { argon2.memoryBytes = try size(text, option: "memory", parsed); changed = true }
            if let given = try count("parallelism", parsed, max: 256) { argon2.parallelism = UInt32(given); changed = true }
            if let given = try count("iterations", parsed, max: 100_000) { argon2.iterations = given; costGiven = true }
            kdf = .argon2(argon2)
        }
        if costGiven && parsed.value("unlock-time") != nil {
            throw parsed.usageError("--unlock-time calibrates the cost: give it or --iterations/--rounds, not both")
        }
        if kdf != current { changed = true }
        return (kdf, costGiven, changed)
    }

    /// After a calibration of AES-KDF: which AES implementation the rounds were timed on (the one
    /// that opens the vault here: AES-NI or ARMv8 where the CPU has it, else the portable code).
    /// `nil` for Argon2, which has no hardware path.
    static func calibrationLine(_ kdf: KDFSettings, seconds: Double) -> String? {
        guard case .aes = kdf else { return nil }
        let time = seconds == seconds.rounded() && seconds < 1e6 ? String(Int(seconds)) : String(seconds)
        return "AES-KDF calibrated to \(time) s on this machine's AES backend (\(CryptoBackend.aes))."
    }

    /// A line for the KDF: `Argon2d (memory 64.0 MiB, 12 iterations, parallelism 2, version 1.3)`.
    static func describe(_ format: VaultFormat) -> String {
        "KDBX \(format.version), \(InfoCommand.cipherName(format.cipher)), \(InfoCommand.kdfDescription(format.kdf)), "
            + (format.compression == .gzip ? "gzip" : "no compression")
    }
}
