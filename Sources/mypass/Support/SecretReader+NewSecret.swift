import MyPassBytes

extension SecretReader {
    /// Reads a new secret (a new master password): on a terminal it is asked twice and both must
    /// match; from a pipe it is the next line, and a line after it, when there is one, is taken
    /// as the confirmation and must match too (so `printf 'new\nnew\n'` and `printf 'new\n'` both work).
    ///
    /// - Parameter prompt: the first prompt (`New password for demo.kdbx: `).
    /// - Throws: `CLIError` (exit 1) when nothing is read, or the two differ.
    static func readNewSecret(prompt: String) throws(CLIError) -> ProtectedString {
        let secret = try readSecret(prompt: prompt)
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
        return secret
    }
}
