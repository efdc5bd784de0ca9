import MyPassBytes
import MyPassCore
import MyPassKDBX

/// `mypass passwd VAULT`: a new composite key (password, key file, hardware key, or several)
/// through ``VaultDocument/changeKey(to:now:)`` and the safe save; `MasterKeyChanged` is updated.
/// keepassxc-cli cannot add a hardware key to a vault; this can add, replace or remove it.
enum PasswdCommand {
    static func run(_ parsed: ParsedArguments) throws {
        let newKeyFile = parsed.value("new-keyfile"), removeKeyFile = parsed.flag("remove-keyfile")
        let newNoPassword = parsed.flag("new-no-password")
        if newKeyFile != nil && removeKeyFile { throw parsed.usageError("Give --new-keyfile or --remove-keyfile, not both") }
        let keepsKeyFile = newKeyFile == nil && !removeKeyFile && parsed.value("keyfile") != nil
        let newHardwareKey = ChallengeResponseOptions.isGiven(parsed, prefix: "new-")
        let removeHardwareKey = parsed.flag("remove-challenge-response")
        if newHardwareKey && removeHardwareKey {
            throw parsed.usageError("Give a new hardware key (--new-yubikey and the like) or --remove-challenge-response, not both")
        }
        let keepsHardwareKey = !newHardwareKey && !removeHardwareKey && ChallengeResponseOptions.isGiven(parsed)
        if newNoPassword && newKeyFile == nil && !keepsKeyFile && !newHardwareKey && !keepsHardwareKey {
            throw parsed.usageError("--new-no-password needs a key file or a hardware key in the new key (--new-keyfile or --new-yubikey and the like, or the current ones)")
        }
        let newChallengeResponse = try ChallengeResponseOptions.key(parsed, prefix: "new-")
        var newKeyFileContents: [UInt8]?
        defer { if newKeyFileContents != nil { wipe(&newKeyFileContents!) } }
        if let path = newKeyFile ?? (keepsKeyFile ? parsed.value("keyfile") : nil) {
            newKeyFileContents = try VaultContext.readFile(path, what: "key file", maxBytes: KeyFileLimits.maxBytes)
            do {
                _ = try KeyFile.read(newKeyFileContents!)
            } catch {
                throw CLIError(.wrongKey, "cannot use key file '\(path)': \(error.description)")
            }
        }

        // The current key is always asked, even when the agent holds the vault: changing the key
        // needs proof of the old one, and the input order stays the same either way.
        var (context, _) = try VaultContext.open(parsed, forWriting: true, usesAgent: false)
        let name = VaultContext.displayName(context.path)
        let password = newNoPassword ? nil : try SecretReader.readNewSecret(
            prompt: "New password for \(name): ", missingHint: "the line after the current password; or --new-no-password with a key file")
        let challengeResponse = newHardwareKey ? newChallengeResponse
            : keepsHardwareKey ? context.document.key.challengeResponse : nil
        let key: CompositeKey
        do {
            key = try CompositeKey(password: password, keyFileContents: newKeyFileContents, challengeResponse: challengeResponse)
        } catch {
            throw CommandLineTool.map(error)
        }
        // Whether the agent holds the vault (and for how long), asked before the old key stops opening it.
        let held = AgentClient.isEnabled(parsed) ? AgentClient.keys(forVault: context.path) : nil
        context.document.changeKey(to: key, now: currentTime())
        try context.save()
        var parts: [String] = []
        if password != nil { parts.append("a password") }
        if newKeyFileContents != nil { parts.append("a key file") }
        if challengeResponse != nil { parts.append("a hardware key (challenge-response)") }
        Console.resultLine("Changed the key of '\(context.path)': it now opens with \(parts.joined(separator: " and ")).")
        if let held { handOver(context, timeoutSeconds: held.timeoutSeconds) }
    }

    /// The agent held the vault with the old key, which opens it no more: it gets the new
    /// composite key and transformed key for the same timeout, as `unlock` would hand them; if
    /// that fails it forgets the vault. Either way a note says so.
    private static func handOver(_ context: VaultContext, timeoutSeconds: UInt64?) {
        let timeout = timeoutSeconds.map { min(max($0, 1), AgentClient.maxTimeoutSeconds) } ?? AgentClient.defaultTimeoutSeconds
        do {
            try AgentClient.store(vault: context.path, key: context.document.key, cachedKey: context.document.cachedKey,
                                  timeoutSeconds: timeout)
            Console.noteLine("Note: the agent held '\(context.path)'; it now holds the new key (\(timeout) s after its last use, as before).")
        } catch {
            _ = try? AgentClient.lock(vault: context.path)
            Console.errLine("Note: the agent held '\(context.path)' with the old key and forgot it (it did not take the new one: \(error.reason)); 'mypass unlock' hands it the new key.")
        }
    }
}
