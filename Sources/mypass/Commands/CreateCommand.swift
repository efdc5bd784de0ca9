import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX

/// `mypass create VAULT`: a new vault with KeePass 2's defaults (Core's ``NewVaultSettings``),
/// written through ``VaultDocument/create(_:vault:key:options:progress:)``; never over a file.
enum CreateCommand {
    static func run(_ parsed: ParsedArguments) throws {
        let path = parsed.required("vault")
        let request = try prepare(parsed, path: path)
        let vault: Vault
        do {
            vault = try Progress.run("Calibrating the KDF…") { () throws(CoreError) -> Vault in
                try request.settings.makeVault(now: currentTime())
            }
        } catch let error as CoreError {
            throw CLIError.failure("cannot create '\(path)': \(error.reason.isEmpty ? error.description : error.reason)")
        }
        try write(vault, request, path: path)
    }

    /// What a new vault needs, from the command line and the prompts.
    struct Request {
        var settings: NewVaultSettings
        var key: CompositeKey
        /// `--generate-keyfile`: where to write the key file and its contents.
        var generatedKeyFile: (path: String, contents: SecureBytes)?
    }

    /// Checks the path, parses the settings (usage errors first), then reads the password (twice
    /// on a terminal) and the key file. Used by `create` and `import --create`.
    static func prepare(_ parsed: ParsedArguments, path: String) throws -> Request {
        let noPassword = parsed.flag("no-password")
        let keyFile = parsed.value("keyfile"), generated = parsed.value("generate-keyfile")
        if keyFile != nil && generated != nil { throw parsed.usageError("Give --keyfile or --generate-keyfile, not both") }
        if noPassword && keyFile == nil && generated == nil && !ChallengeResponseOptions.isGiven(parsed) {
            throw parsed.usageError("--no-password needs --keyfile, --generate-keyfile or a hardware key (--yubikey and the like)")
        }
        let challengeResponse = try ChallengeResponseOptions.key(parsed)
        if FileManager.default.fileExists(atPath: path) || (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil {
            throw CLIError.failure("cannot create '\(path)': a file is already there; nothing was written")
        }
        if let generated, FileManager.default.fileExists(atPath: generated) {
            throw CLIError.failure("cannot write key file '\(generated)': a file is already there")
        }
        // A directory that cannot take the file fails now, not after the prompts and the KDF calibration.
        try checkDirectory(of: path, what: "create '\(path)'")
        if let generated { try checkDirectory(of: generated, what: "write key file '\(generated)'") }

        var settings = NewVaultSettings(name: parsed.value("name") ?? NewVaultSettings.name(forPath: path))
        if let version = try FileSettingsOptions.version(parsed) {
            settings.version = version
            if version < .v4_0 && parsed.value("kdf") == nil { settings.kdf = .aes(rounds: NewVaultSettings.defaultAESRounds) }
        }
        let (kdf, costGiven, _) = try FileSettingsOptions.kdf(parsed, current: settings.kdf)
        settings.kdf = kdf
        settings.unlockSeconds = costGiven ? nil : (try FileSettingsOptions.unlockTime(parsed) ?? 1)
        if let cipher = try FileSettingsOptions.cipher(parsed) { settings.cipher = cipher }
        do {
            try VaultSettingsChange.validate(settings.kdf)
        } catch {
            throw parsed.usageError("cannot use these KDF settings: \(error.reason)")
        }

        let password = noPassword ? nil : try SecretReader.readNewSecret(
            prompt: "Password for the new vault \(VaultContext.displayName(path)): ", missingHint: "or --no-password with --keyfile")
        var keyFileContents: [UInt8]?
        defer { if keyFileContents != nil { wipe(&keyFileContents!) } }
        var generatedKeyFile: (path: String, contents: SecureBytes)?
        if let keyFile {
            keyFileContents = try VaultContext.readFile(keyFile, what: "key file", maxBytes: KeyFileLimits.maxBytes)
        } else if let generated {
            var raw = SecureRandom.bytes(count: 32)
            defer { wipe(&raw) }
            keyFileContents = KeyFile.xmlVersion2(key: SecureBytes(raw))
            // Its own wiping copy: sharing keyFileContents' buffer would make the wipe above copy
            // it first and zero only the copy.
            generatedKeyFile = (generated, SecureBytes(keyFileContents!))
        }
        do {
            let key = try CompositeKey(password: password, keyFileContents: keyFileContents, challengeResponse: challengeResponse)
            return Request(settings: settings, key: key, generatedKeyFile: generatedKeyFile)
        } catch {
            throw CommandLineTool.map(error)
        }
    }

    /// Checks that the directory a new file goes into exists, is a directory and may be written.
    /// - Throws: `CLIError` (exit 1) `cannot WHAT: the directory 'DIR' does not exist` (or is not
    ///   a directory, or is not writable); nothing was asked or written.
    static func checkDirectory(of path: String, what: String) throws(CLIError) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let shown = path.contains("/") ? directory : "."
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw .failure("cannot \(what): the directory '\(shown)' does not exist; nothing was asked or written")
        }
        guard isDirectory.boolValue else {
            throw .failure("cannot \(what): '\(shown)' is not a directory; nothing was asked or written")
        }
        guard access(directory, W_OK | X_OK) == 0 else {
            throw .failure("cannot \(what): the directory '\(shown)' is not writable (\(String(cString: strerror(errno)))); nothing was asked or written")
        }
    }

    /// Writes the generated key file (if any), then the vault through ``VaultDocument/create``;
    /// on failure the key file is removed again.
    static func write(_ vault: Vault, _ request: Request, path: String) throws {
        if let generated = request.generatedKeyFile {
            try generated.contents.withUnsafeBytes { bytes throws(CLIError) in
                try writeNewFile(generated.path, bytes, what: "key file")
            }
        }
        let created: VaultDocument.Created
        do {
            created = try Progress.run("Creating \(VaultContext.displayName(path))…") { () throws(CoreError) -> VaultDocument.Created in
                let (document, report) = try VaultDocument.create(path, vault: vault, key: request.key)
                return VaultDocument.Created(document: document, report: report)
            }
        } catch let error as CoreError {
            var left = ""
            if let generated = request.generatedKeyFile, unlink(generated.path) != 0, errno != ENOENT {
                left = "; the new key file '\(generated.path)' could not be removed (\(String(cString: strerror(errno)))): delete it"
            }
            throw CLIError.failure("cannot create '\(path)': \(error.code == .alreadyExists ? "a file is already there; nothing was written" : error.description)" + left)
        }
        Console.resultLine("Created '\(path)': \(FileSettingsOptions.describe(vault.format)).")
        if let seconds = request.settings.unlockSeconds, let line = FileSettingsOptions.calibrationLine(vault.format.kdf, seconds: seconds) {
            Console.resultLine(line)
        }
        for warning in created.report.warnings { Console.errLine("Warning: \(warning).") }
        for stale in created.document.removedStaleFiles {
            Console.errLine("Note: removed '\(stale)', a file left by an interrupted create or save.")
        }
        if let generated = request.generatedKeyFile {
            Console.resultLine("Key file written to '\(generated.path)' (KeePass XML 2.0); keep a copy: without it the vault cannot be opened.")
        }
    }

    /// Writes a new file exclusively (mode 0600), refusing one that exists.
    static func writeNewFile(_ path: String, _ bytes: UnsafeRawBufferPointer, what: String) throws(CLIError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .failure("cannot write \(what) '\(path)': \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        /// The failure, naming the partial file when it cannot be removed.
        func failure(_ reason: String) -> CLIError {
            let left = unlink(path) != 0 && errno != ENOENT
                ? "; the partial file could not be removed (\(String(cString: strerror(errno)))): delete it" : ""
            return .failure("cannot write \(what) '\(path)': \(reason)" + left)
        }
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            // 0 bytes written with no error would loop for ever: a failure too.
            guard written > 0 else { throw failure(written == 0 ? "the file system accepted no bytes" : String(cString: strerror(errno))) }
            offset += written
        }
        guard fsync(descriptor) == 0 else { throw failure(String(cString: strerror(errno))) }
    }
}

extension VaultDocument {
    /// A new document and its save's report, in one value (a tuple through `Progress.run`'s
    /// generic closure crashes the Swift 6.3.1 compiler's SIL generation).
    struct Created {
        let document: VaultDocument
        let report: SaveReport
    }
}
