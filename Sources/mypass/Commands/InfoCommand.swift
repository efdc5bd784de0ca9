import MyPassKDBX

/// `mypass info VAULT`: format version, cipher, KDF and parameters, compression, counts.
enum InfoCommand {
    static func run(_ parsed: ParsedArguments) throws {
        let (context, _) = try VaultContext.open(parsed)
        let vault = context.vault
        let format = vault.format
        let entries = vault.allEntries
        let attachmentCount = entries.reduce(0) { $0 + $1.attachments.count }
        var rows: [[String]] = [
            ["File:", context.path],
            ["Name:", vault.meta.databaseName],
            ["Format:", "KDBX \(format.version)"],
            ["Cipher:", cipherName(format.cipher)],
            ["KDF:", kdfDescription(format.kdf)],
            ["Compression:", format.compression == .gzip ? "gzip" : "none"],
            ["Groups:", String(vault.root.groupCount)],
            ["Entries:", String(entries.count)],
            ["Attachments:", String(attachmentCount)],
        ]
        rows.append(["Recycle bin:", recycleBinDescription(vault)])
        Console.out(Text.columns(rows))
    }

    static func cipherName(_ cipher: PayloadCipher) -> String {
        switch cipher {
        case .aes256: return "AES-256"
        case .chacha20: return "ChaCha20"
        case .twofish: return "Twofish"
        }
    }

    static func kdfDescription(_ kdf: KDFSettings) -> String {
        switch kdf {
        case .aes(let rounds):
            return "AES-KDF (\(rounds) \(rounds == 1 ? "round" : "rounds"))"
        case .argon2(let settings):
            let name = settings.variant == .argon2d ? "Argon2d" : "Argon2id"
            return "\(name) (memory \(Text.byteSize(Int(clamping: settings.memoryBytes))), \(settings.iterations) \(settings.iterations == 1 ? "iteration" : "iterations"), parallelism \(settings.parallelism), version \(settings.version == 0x13 ? "1.3" : "1.0"))"
        }
    }

    static func recycleBinDescription(_ vault: Vault) -> String {
        guard vault.meta.recycleBinEnabled else { return "disabled" }
        guard let bin = vault.recycleBin else { return "enabled (not created yet)" }
        let entries = bin.entryCount, groups = bin.groupCount - 1
        return "enabled, '\(Text.oneLine(bin.name))' holds \(entries) \(entries == 1 ? "entry" : "entries") and \(groups) \(groups == 1 ? "group" : "groups")"
    }
}
