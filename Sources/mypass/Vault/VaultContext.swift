import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX

/// An open vault for one command: a ``VaultDocument`` (the core's one open-and-save path) and
/// the path as given on the command line, for messages.
struct VaultContext {
    /// The vault's path as given on the command line (used in messages).
    let path: String
    /// The open document: key, model, file identity.
    var document: VaultDocument
    /// Whether the keys came from the agent (then a save tells it the new transformed key).
    var fromAgent = false

    /// The decrypted model; changing commands edit it, then ``save()``.
    var vault: Vault {
        get { document.vault }
        set { document.vault = newValue }
    }

    /// Opens the `<vault>` of `parsed` with the master password (unless `--no-password`),
    /// `--keyfile` and a hardware key (``ChallengeResponseOptions``); when `readsEntryPassword`
    /// also reads the entry password after the master one (or alone, when the agent's keys open
    /// the vault), asked twice on a terminal either way.
    /// A command that changes the vault passes `forWriting`: a read-only file or directory is then
    /// refused before any password is asked. Unless `usesAgent` is false, `--no-agent` is given
    /// or `MYPASS_NO_AGENT=1`, keys the agent holds for the vault open it without a prompt.
    ///
    /// - Returns: the context and the entry password when one was read.
    /// - Throws: `CLIError` with exit 1 (missing file, unreadable key file, read-only vault, a
    ///   hardware key the agent's key has but the command line does not give, for a command that
    ///   saves), 3 (wrong key, a hardware key that did not answer) or 4 (corrupted or unsupported).
    static func open(_ parsed: ParsedArguments, readsEntryPassword: Bool = false,
                     forWriting: Bool = false, usesAgent: Bool = true,
                     notesConflictCopies: Bool = true) throws -> (VaultContext, ProtectedString?) {
        let path = parsed.required("vault")
        let noPassword = parsed.flag("no-password")
        if noPassword && parsed.value("keyfile") == nil && !ChallengeResponseOptions.isGiven(parsed) {
            throw parsed.usageError("--no-password needs --keyfile or a hardware key (--yubikey and the like)")
        }
        let challengeResponse = try ChallengeResponseOptions.key(parsed)
        _ = try readableFile(path, what: "vault")
        if forWriting {
            do {
                try VaultDocument.checkWritable(path)
            } catch {
                throw CLIError.failure("cannot change '\(path)': \(error.reason.isEmpty ? error.description : error.reason)")
            }
        }
        var keyFileContents: [UInt8]?
        if let keyFile = parsed.value("keyfile") {
            keyFileContents = try readFile(keyFile, what: "key file", maxBytes: KeyFileLimits.maxBytes)
        }
        defer { if keyFileContents != nil { wipe(&keyFileContents!) } }
        let options = try documentOptions(parsed)
        if usesAgent && AgentClient.isEnabled(parsed),
           let context = try openWithAgent(path, options: options, challengeResponse: challengeResponse,
                                             notesConflictCopies: notesConflictCopies) {
            if forWriting && context.document.key.hasChallengeResponse && challengeResponse == nil {
                throw CLIError.failure("cannot change '\(path)': its key has a hardware key, which every save asks again (a save draws a new challenge); give --yubikey SLOT[:SERIAL], --challenge-response-secret-file FILE or --challenge-response-command COMMAND as to unlock it")
            }
            // Asked twice on a terminal, as on the prompt path below: a typo is never saved silently.
            let entryPassword = readsEntryPassword ? try SecretReader.readNewSecret(prompt: "Entry password: ", what: "entry password") : nil
            return (context, entryPassword)
        }
        let password = noPassword ? nil : try SecretReader.readSecret(prompt: "Password for \(displayName(path)): ")
        let entryPassword = readsEntryPassword ? try SecretReader.readNewSecret(prompt: "Entry password: ", what: "entry password") : nil
        let key: CompositeKey
        do {
            key = try CompositeKey(password: password, keyFileContents: keyFileContents, challengeResponse: challengeResponse)
        } catch {
            throw CommandLineTool.map(error, file: path)
        }
        let document: VaultDocument
        do {
            document = try Progress.runKDF("Unlocking \(displayName(path))…") { progress throws(CoreError) -> VaultDocument in
                try VaultDocument.open(path, key: key, options: options, progress: progress)
            }
        } catch let error as CoreError {
            throw hintingHardwareKey(CommandLineTool.map(error, file: path), given: challengeResponse != nil)
        }
        reportStaleFiles(removed: document.removedStaleFiles, left: document.staleFilesLeft)
        if notesConflictCopies { reportConflictCopies(document.conflictCopies, of: path) }
        return (VaultContext(path: path, document: document), entryPassword)
    }

    /// Opens `path` with the keys the agent holds for it, if any: no prompt, and no KDF while the
    /// file keeps the seed they were derived for. After another client re-saved the file (a new
    /// seed) the composite key derives again (one KDF) and the agent learns the new transformed
    /// key; when it no longer opens the file the agent forgets it and `nil` sends the caller back
    /// to the prompt.
    /// - Throws: `CLIError` for failures that asking again would not cure (a corrupted file).
    /// A key with a hardware key opens without it while the file keeps the seed the kept key was
    /// derived for; after another client's save it needs `challengeResponse` (the command line's).
    static func openWithAgent(_ path: String, options: VaultDocument.Options = VaultDocument.Options(),
                              challengeResponse: ChallengeResponseKey? = nil,
                              notesConflictCopies: Bool = true) throws -> VaultContext? {
        guard let held = AgentClient.keys(forVault: path, challengeResponse: challengeResponse) else { return nil }
        let document: VaultDocument
        do {
            document = try Progress.runKDF("Unlocking \(displayName(path))…") { progress throws(CoreError) -> VaultDocument in
                try VaultDocument.open(path, key: held.compositeKey, cachedKey: held.cachedKey, options: options, progress: progress)
            }
        } catch let error as CoreError {
            guard error.code == .wrongKey else { throw CommandLineTool.map(error, file: path) }
            _ = try? AgentClient.lock(vault: path)
            Console.errLine("Note: the key the agent kept no longer opens '\(path)'; asking again.")
            return nil
        }
        if !document.cachedKey.isValid(for: held.cachedKey.kdf) {
            AgentClient.update(vault: path, cachedKey: document.cachedKey)
        }
        if notesConflictCopies { reportConflictCopies(document.conflictCopies, of: path) }
        return VaultContext(path: path, document: document, fromAgent: true)
    }

    /// Saves the model back through the document's safe save (lock, identity check, temporary
    /// file, check, atomic rename). Notes on stderr: a raised version, a merge with changes made
    /// on disk meanwhile, warnings. On any failure the original file is untouched.
    ///
    /// - Throws: `CLIError` (exit 1) `cannot save 'PATH': reason`.
    mutating func save() throws {
        let report: VaultDocument.SaveReport
        if document.key.hasChallengeResponse {
            Console.noteLine("Note: saving '\(path)' draws a new challenge: the hardware key is asked again.")
        }
        do {
            report = try Progress.runKDF("Saving \(VaultContext.displayName(path))…") { progress throws(CoreError) -> VaultDocument.SaveReport in
                try document.save(progress: progress)
            }
        } catch let error as CoreError {
            if let codec = error.underlying as? KDBXError, codec.code == .missingKeyComponent {
                throw CLIError.failure("cannot save '\(path)': the hardware key did not answer (\(codec.reason)); nothing was written")
            }
            throw CLIError.failure("cannot save '\(path)': \(error.description)")
        }
        if fromAgent { AgentClient.update(vault: path, cachedKey: document.cachedKey) }
        if let from = report.raisedFrom {
            Console.noteLine("Note: '\(path)' was saved as KDBX \(report.version) (it was \(from)): its content or settings need it.")
        }
        if let merged = report.merged {
            Console.noteLine("Note: '\(path)' changed on disk since it was opened (another program or device saved it); this command's changes were merged into that version:")
            for line in merged { Console.noteLine("  \(line)") }
        }
        for warning in report.warnings { Console.errLine("Warning: \(warning)") }
    }

    /// A wrong-key error with the hint that the vault may also need a hardware key and how to give
    /// one, when none was `given`, or naming it among the suspects when one was (exit status 3 as
    /// before); other errors as they are.
    static func hintingHardwareKey(_ error: CLIError, given: Bool) -> CLIError {
        let wrong = "wrong password or key file"
        guard error.exitCode == .wrongKey, error.message.hasSuffix(wrong) else { return error }
        if given { return CLIError(.wrongKey, error.message.dropLast(wrong.count) + "wrong password, key file or hardware key") }
        return CLIError(.wrongKey, error.message + "; " + ChallengeResponseOptions.hint)
    }

    /// Names the temporary files of interrupted saves that an open found beside the vault: a
    /// note for each one removed, a warning for each one left.
    static func reportStaleFiles(removed: [String], left: [String]) {
        for stale in removed {
            Console.errLine("Note: removed '\(stale)', a copy of the vault left by an interrupted save.")
        }
        for stale in left {
            Console.errLine("Warning: '\(stale)' is a copy of the vault left by an interrupted save and could not be removed; delete it.")
        }
    }

    /// Names, in one note, the conflict copies sync engines left beside the vault (found by the
    /// open's listing of its folder; none was read), with the command that merges them.
    static func reportConflictCopies(_ copies: [ConflictCopy], of path: String) {
        guard !copies.isEmpty else { return }
        let names = copies.map { copy in
            "'\(copy.name)' (\(copy.engine.rawValue)\(copy.isUnambiguous ? "" : ", or an ordinary file with such a name"))"
        }
        let what = copies.count == 1 ? "a copy of '\(path)' that a sync engine left when two devices changed it at once is"
            : "\(copies.count) copies of '\(path)' that sync engines left when two devices changed it at once are"
        var command = "mypass merge \(shellQuoted(path)) --conflicts"
        if copies.allSatisfy({ !$0.isUnambiguous }) { command += " " + shellQuoted(copies[0].path) }
        Console.noteLine("Note: \(what) beside it: \(names.joined(separator: ", ")); merge \(copies.count == 1 ? "it" : "them") with: \(command)")
    }

    /// `text` as one shell word: as it is when it holds only safe characters, else in single quotes.
    static func shellQuoted(_ text: String) -> String {
        let safe = text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "@%+=:,./_-".contains($0)) }
        return safe && !text.isEmpty ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The document options of a command line: the default limits, with `--max-kdf-rounds` when given.
    /// - Throws: `CLIError` (usage) for a value that is not a positive integer.
    static func documentOptions(_ parsed: ParsedArguments) throws(CLIError) -> VaultDocument.Options {
        var options = VaultDocument.Options()
        if let rounds = try FileSettingsOptions.count("max-kdf-rounds", parsed) {
            options.limits.maxAESKDFRounds = rounds
        }
        return options
    }

    /// The file's last path component, for prompts.
    static func displayName(_ path: String) -> String {
        URL(fileURLWithPath: path).lastPathComponent
    }

    /// Checks that a file named on the command line exists and is not a directory.
    @discardableResult
    static func readableFile(_ path: String, what: String) throws(CLIError) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .failure("cannot open \(what) '\(path)': no such file")
        }
        if isDirectory.boolValue { throw .failure("cannot open \(what) '\(path)': it is a directory") }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw .failure("cannot open \(what) '\(path)': permission denied")
        }
        return path
    }

    /// The bytes of a file named on the command line (at most `maxBytes`), or a one-line error (exit 1).
    static func readFile(_ path: String, what: String, maxBytes: Int = 1 << 30) throws(CLIError) -> [UInt8] {
        try readableFile(path, what: what)
        do {
            return try SystemFileSystem().readFile(path, maxBytes: maxBytes)
        } catch {
            if error.code == .limitExceeded { throw .failure("cannot read \(what) '\(path)': larger than \(maxBytes) bytes") }
            throw .failure("cannot read \(what) '\(path)'")
        }
    }
}
