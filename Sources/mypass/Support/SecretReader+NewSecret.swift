import MyPassBytes

extension SecretReader {
    /// Reads a new secret (a new master password): on a terminal it is asked twice and both must
    /// match; from a pipe it is the next line, and a line after it, when there is one, is taken
    /// as the confirmation and must match too (so `printf 'new\nnew\n'` and `printf 'new\n'` both work).
    ///
    /// An empty password is accepted, as KeePass and KeePassXC accept it, with a warning on stderr.
    ///
    /// - Parameters:
    ///   - prompt: the first prompt (`New password for demo.kdbx: `).
    ///   - missingHint: how to give it, for the message when standard input has no line for it.
    /// - Throws: `CLIError` (exit 1) when nothing is read, or the two differ.
    static func readNewSecret(prompt: String, missingHint: String) throws(CLIError) -> ProtectedString {
        let secret: ProtectedString
        do {
            secret = try readSecret(prompt: prompt)
        } catch {
            if !Console.isTerminal(0), let taken = inputTakenReason { throw .failure("no new password can be read: \(taken)") }
            throw .failure(Console.isTerminal(0) ? "no new password entered" : "no new password on standard input (\(missingHint))")
        }
        let confirmation: ProtectedString?
        if Console.isTerminal(0) {
            confirmation = try readSecret(prompt: "Repeat it: ")
        } else {
            confirmation = try? readSecret(prompt: "")
        }
        if let confirmation {
            let same = secret.withRevealedBytes { a in
                confirmation.withRevealedBytes { b in constantTimeEquals(a, b) }
            }
            guard same else { throw .failure("the two passwords do not match; nothing was changed") }
        }
        if secret.withRevealedBytes({ $0.isEmpty }) {
            Console.err("Warning: the new master password is empty: whoever has the file (and its key file, if it has one) can open the vault.\n")
        }
        return secret
    }
}
