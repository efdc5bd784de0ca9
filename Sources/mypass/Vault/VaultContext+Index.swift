import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX

extension VaultContext {
    /// Opens the `<vault>` of `parsed` for reading only, as the AutoFill extension does: the
    /// master password (unless `--no-password`) and `--keyfile` as ``open(_:readsEntryPassword:forWriting:)``,
    /// then core's streaming ``CredentialIndex/open(_:key:cachedKey:options:)`` instead of the full
    /// model (no attachment, history item or icon image is kept). For `ls` and `match` when
    /// they need nothing more than the index. Keys the agent holds open it without a prompt and
    /// without the KDF (``openIndexWithAgent(_:budgetBytes:limits:challengeResponse:)``).
    ///
    /// - Parameter budgetBytes: the memory budget (`match --budget`), checked before the KDF.
    /// - Throws: `CLIError` with exit 1 (missing file, unreadable key file, over the budget), 3
    ///   (wrong key) or 4 (corrupted or unsupported).
    static func openIndex(_ parsed: ParsedArguments, budgetBytes: UInt64? = nil) throws -> CredentialIndex {
        let path = parsed.required("vault")
        let noPassword = parsed.flag("no-password")
        if noPassword && parsed.value("keyfile") == nil && !ChallengeResponseOptions.isGiven(parsed) {
            throw parsed.usageError("--no-password needs --keyfile or a hardware key (--yubikey and the like)")
        }
        let challengeResponse = try ChallengeResponseOptions.key(parsed)
        _ = try readableFile(path, what: "vault")
        var options = CredentialIndex.OpenOptions(budgetBytes: budgetBytes)
        options.limits.maxAESKDFRounds = try documentOptions(parsed).limits.maxAESKDFRounds
        var keyFileContents: [UInt8]?
        if let keyFile = parsed.value("keyfile") {
            keyFileContents = try readFile(keyFile, what: "key file", maxBytes: KeyFileLimits.maxBytes)
        }
        defer { if keyFileContents != nil { wipe(&keyFileContents!) } }
        if AgentClient.isEnabled(parsed), let index = try openIndexWithAgent(path, budgetBytes: budgetBytes, limits: options.limits,
                                                                              challengeResponse: challengeResponse) {
            return index
        }
        let password = noPassword ? nil : try SecretReader.readSecret(prompt: "Password for \(displayName(path)): ")
        let key: CompositeKey
        do {
            key = try CompositeKey(password: password, keyFileContents: keyFileContents, challengeResponse: challengeResponse)
        } catch {
            throw CommandLineTool.map(error, file: path)
        }
        do {
            let opened = try Progress.runKDF("Unlocking \(displayName(path))…") { progress throws(CoreError) -> CredentialIndex.Opened in
                // The standard KDF, with the progress line and Ctrl-C.
                options.keyDerivation = KeyDerivation { key, kdf, limits, _ throws(KDBXError) in
                    try MasterKeys.transform(compositeKey: key, kdf: kdf, limits: limits, progress: progress)
                }
                return try CredentialIndex.open(path, key: key, options: options)
            }
            reportStaleFiles(removed: opened.removedStaleFiles, left: opened.staleFilesLeft)
            reportConflictCopies(opened.conflictCopies, of: path)
            return opened.index
        } catch let error as CoreError {
            if error.code == .memoryBudgetExceeded {
                throw CLIError.failure("cannot open '\(path)' within the memory budget: \(error.reason)")
            }
            throw hintingHardwareKey(CommandLineTool.map(error, file: path), given: challengeResponse != nil)
        }
    }

    /// Opens the index of `path` with the keys the agent holds for it, if any, as the AutoFill
    /// extension does with the transformed key it keeps: no prompt, and no KDF while the file
    /// keeps the seed the key was derived for (then any budget holds). After another client
    /// re-saved the file the composite key derives again (the budget is checked first) and the
    /// agent learns the new transformed key; when it no longer opens the file the agent forgets
    /// it and `nil` sends the caller back to the prompt. `limits` are the command line's
    /// (`--max-kdf-rounds`), as for an open with the password.
    /// - Throws: `CLIError` for failures that asking again would not cure (over the budget, a
    ///   corrupted file).
    static func openIndexWithAgent(_ path: String, budgetBytes: UInt64?, limits: KDBXLimits,
                                   challengeResponse: ChallengeResponseKey? = nil) throws -> CredentialIndex? {
        guard let held = AgentClient.keys(forVault: path, challengeResponse: challengeResponse) else { return nil }
        let opened: CredentialIndex.Opened
        do {
            opened = try Progress.run("Unlocking \(displayName(path))…") { () throws(CoreError) -> CredentialIndex.Opened in
                try CredentialIndex.open(path, key: held.compositeKey, cachedKey: held.cachedKey,
                                         options: CredentialIndex.OpenOptions(budgetBytes: budgetBytes, limits: limits))
            }
        } catch let error as CoreError {
            if error.code == .memoryBudgetExceeded {
                throw CLIError.failure("cannot open '\(path)' within the memory budget: \(error.reason)")
            }
            guard error.code == .wrongKey else { throw CommandLineTool.map(error, file: path) }
            _ = try? AgentClient.lock(vault: path)
            Console.errLine("Note: the key the agent kept no longer opens '\(path)'; asking again.")
            return nil
        }
        if opened.ranKDF { AgentClient.update(vault: path, cachedKey: opened.cachedKey) }
        reportStaleFiles(removed: opened.removedStaleFiles, left: opened.staleFilesLeft)
        reportConflictCopies(opened.conflictCopies, of: path)
        return opened.index
    }

    /// A size in bytes from the command line: a whole number with an optional unit, `B`, `KB`,
    /// `MB`, `GB` (powers of 1000) or `KiB`, `MiB`, `GiB` (powers of 1024), any case
    /// (`50MB` is 50,000,000 bytes); `nil` when it does not read.
    static func byteSize(_ text: String) -> UInt64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.prefix(while: { $0.isASCII && $0.isNumber })
        guard !digits.isEmpty, let number = UInt64(digits) else { return nil }
        let unit = trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces).lowercased()
        let multipliers: [String: UInt64] = [
            "": 1, "b": 1, "kb": 1_000, "mb": 1_000_000, "gb": 1_000_000_000,
            "kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30,
        ]
        guard let multiplier = multipliers[unit] else { return nil }
        let (product, overflow) = number.multipliedReportingOverflow(by: multiplier)
        return overflow ? nil : product
    }
}
