import MyPassCore
import MyPassKDBX

/// `mypass settings VAULT [options]`: shows the file and database settings; with options, changes
/// them (Core's ``VaultSettingsChange``) and saves through the safe save.
enum SettingsCommand {
    /// The options that change something.
    static let changingOptions = ["kdf", "memory", "iterations", "parallelism", "rounds", "unlock-time", "cipher", "format",
                                  "compression", "name", "description", "recycle-bin", "history-max-items", "history-max-size"]

    static func run(_ parsed: ParsedArguments) throws {
        let changes = changingOptions.contains { parsed.value($0) != nil }
        // Usage errors in option values come before any prompt.
        let compression = try self.compression(parsed)
        let recycleBin = try self.recycleBin(parsed)
        let maxItems = try parsed.integer("history-max-items", in: -1...Int(Int32.max))
        let maxSize = try parsed.value("history-max-size").map { text throws(CLIError) -> Int64 in
            text == "-1" ? -1 : Int64(clamping: try FileSettingsOptions.size(text, option: "history-max-size", parsed))
        }
        let cipher = try FileSettingsOptions.cipher(parsed)
        let version = try FileSettingsOptions.version(parsed)
        let unlockTime = try FileSettingsOptions.unlockTime(parsed)
        if let name = parsed.value("name"), name.isEmpty { throw parsed.usageError("--name cannot be empty") }

        var (context, _) = try VaultContext.open(parsed, forWriting: changes)
        guard changes else {
            show(context)
            return
        }
        var change = VaultSettingsChange()
        var (kdf, costGiven, kdfChanged) = try FileSettingsOptions.kdf(parsed, current: context.vault.format.kdf)
        let familyChanged: Bool = {
            switch (kdf, context.vault.format.kdf) {
            case (.aes, .aes), (.argon2, .argon2): return false
            default: return true
            }
        }()
        var calibratedSeconds: Double?
        if let unlockTime {
            kdf = try calibrate(kdf, unlockTime, context.path)
            kdfChanged = true
            calibratedSeconds = unlockTime
        } else if familyChanged && !costGiven {
            kdf = try calibrate(kdf, 1, context.path)
            calibratedSeconds = 1
        }
        if kdfChanged || kdf != context.vault.format.kdf { change.kdf = kdf }
        change.cipher = cipher
        change.version = version
        change.compression = compression
        change.name = parsed.value("name")
        change.description = parsed.value("description")
        change.recycleBinEnabled = recycleBin
        change.historyMaxItems = maxItems
        change.historyMaxSize = maxSize
        let before = context.vault
        do {
            try context.vault.applySettings(change, now: currentTime())
        } catch {
            throw CLIError.failure("cannot change the settings of '\(context.path)': \(error.reason.isEmpty ? error.description : error.reason)")
        }
        guard context.vault != before else {
            Console.resultLine("Nothing to change in '\(context.path)'.")
            return
        }
        try context.save()
        Console.resultLine("Changed the settings of '\(context.path)':")
        show(context)
        if let calibratedSeconds, let line = FileSettingsOptions.calibrationLine(kdf, seconds: calibratedSeconds) {
            Console.resultLine(line)
        }
    }

    static func calibrate(_ kdf: KDFSettings, _ seconds: Double, _ path: String) throws -> KDFSettings {
        do {
            return try Progress.run("Calibrating the KDF…") { () throws(CoreError) -> KDFSettings in
                try KDFCalibration.calibrate(kdf, targetSeconds: seconds)
            }
        } catch let error as CoreError {
            throw CLIError.failure("cannot calibrate the KDF for '\(path)': \(error.reason.isEmpty ? error.description : error.reason)")
        }
    }

    static func compression(_ parsed: ParsedArguments) throws(CLIError) -> PayloadCompression? {
        guard let text = parsed.value("compression") else { return nil }
        switch text {
        case "gzip": return .gzip
        case "none": return PayloadCompression.none
        default: throw parsed.usageError("The value '\(text)' is invalid for '--compression': expected gzip or none")
        }
    }

    static func recycleBin(_ parsed: ParsedArguments) throws(CLIError) -> Bool? {
        guard let text = parsed.value("recycle-bin") else { return nil }
        switch text {
        case "on": return true
        case "off": return false
        default: throw parsed.usageError("The value '\(text)' is invalid for '--recycle-bin': expected on or off")
        }
    }

    /// The settings, one per line.
    static func show(_ context: VaultContext) {
        let vault = context.vault, format = vault.format, meta = vault.meta
        let rows: [[String]] = [
            ["Format:", "KDBX \(format.version)"],
            ["Cipher:", InfoCommand.cipherName(format.cipher)],
            ["KDF:", InfoCommand.kdfDescription(format.kdf)],
            ["Compression:", format.compression == .gzip ? "gzip" : "none"],
            ["Name:", meta.databaseName],
            ["Description:", meta.databaseDescription],
            ["Recycle bin:", InfoCommand.recycleBinDescription(vault)],
            ["History max items:", meta.historyMaxItems < 0 ? "no limit" : String(meta.historyMaxItems)],
            ["History max size:", meta.historyMaxSize < 0 ? "no limit" : Text.byteSize(Int(clamping: meta.historyMaxSize))],
            ["Master key changed:", Text.time(meta.masterKeyChanged)],
        ]
        Console.out(Text.columns(rows))
    }
}
