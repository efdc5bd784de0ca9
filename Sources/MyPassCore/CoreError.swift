/// The one error type of MyPassCore: a code, a human reason (never a secret) and, when known, the
/// place it concerns (an entry field name such as `TimeOtp-Period`, a file path).
///
/// Errors compare on ``code`` only, so tests can `#expect(throws: CoreError(.invalidOTP))`.
public struct CoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The classes of failure a caller distinguishes.
    public enum Code: String, Sendable, Equatable {
        /// A TOTP/HOTP specification that cannot be read; ``CoreError/location`` names the field.
        case invalidOTP
        /// Password generator options that cannot produce a password (no characters, too short).
        case invalidGeneratorOptions
        /// A group, entry or attachment that the operation names does not exist.
        case notFound
        /// A path names several entries or groups; the reason lists what tells them apart.
        case ambiguous
        /// An edit the vault's structure forbids (moving a group into its own subtree, deleting the root).
        case invalidOperation
        /// The session is locked (or was never unlocked, or auto-locked).
        case locked
        /// The password or key file is wrong (or the file header was modified).
        case wrongKey
        /// No stored credential for this vault.
        case noStoredCredential
        /// The saved file did not read back to the same vault; the original is untouched.
        case verificationFailed
        /// Reading or writing a file failed.
        case io
        /// The KDBX codec failed; the underlying error is kept in ``CoreError/underlying``.
        case codec
        /// The vault file changed on disk since it was opened (another program, device or sync
        /// client wrote it) and the change could not be merged; neither version was touched.
        case fileChangedOnDisk
        /// The vault file, or the directory holding it, may not be written; nothing was changed.
        case readOnly
        /// A size limit was exceeded (a file too large to be a vault or a key file).
        case limitExceeded
        /// The caller cancelled a long step (the KDF).
        case cancelled
        /// A passkey entry whose fields cannot be used (missing field, bad base64url, a private key
        /// that does not parse or is of an unsupported type); ``CoreError/location`` names the field.
        case invalidPasskey
        /// Opening would need more memory than the caller's budget allows (the AutoFill
        /// extension's limit): the KDF's memory plus a working margin. Nothing was derived;
        /// ``CoreError/underlying`` is a ``MemoryBudgetExceeded`` with the numbers.
        case memoryBudgetExceeded
        /// A new vault's path is taken (a file, directory or link is there); nothing was written.
        case alreadyExists
        /// A file to import that cannot be read as its format (wrong columns, broken JSON, duplicate
        /// names); ``CoreError/location`` names the line. Nothing was changed.
        case invalidImport
        /// An SSH key entry (KeePassXC's `KeeAgent.settings`) whose settings or key cannot be used:
        /// unreadable settings, a missing or malformed key, a wrong key passphrase (the entry's
        /// password); ``CoreError/location`` names the entry.
        case invalidSSHKey
    }

    /// What went wrong.
    public let code: Code
    /// A human reason, free of secrets.
    public let reason: String
    /// The field, group, entry or path concerned, when known.
    public let location: String?
    /// The KDBX codec error behind a ``Code/codec`` error, when there is one.
    public let underlying: (any Error & Sendable)?

    /// An error with a code, a reason and an optional location.
    public init(_ code: Code, _ reason: String = "", location: String? = nil,
                underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.reason = reason
        self.location = location
        self.underlying = underlying
    }

    /// Compares codes only.
    public static func == (lhs: CoreError, rhs: CoreError) -> Bool { lhs.code == rhs.code }

    /// The code in words, the location and the reason (never a secret).
    public var description: String {
        var text: String
        switch code {
        case .invalidOTP: text = "the one-time password settings cannot be read"
        case .invalidGeneratorOptions: text = "the password generator options are not usable"
        case .notFound: text = "not found"
        case .ambiguous: text = "ambiguous name"
        case .invalidOperation: text = "operation not allowed"
        case .locked: text = "the vault is locked"
        case .wrongKey: text = "wrong password or key file"
        case .noStoredCredential: text = "no stored credential"
        case .verificationFailed: text = "the saved file did not read back correctly; the original is untouched"
        case .io: text = "I/O error"
        case .codec: text = "vault file error"
        case .fileChangedOnDisk: text = "the vault file changed on disk since it was opened"
        case .readOnly: text = "the vault is read-only"
        case .limitExceeded: text = "a size limit was exceeded"
        case .cancelled: text = "cancelled"
        case .invalidPasskey: text = "the passkey cannot be used"
        case .memoryBudgetExceeded: text = "the vault needs more memory than the budget allows"
        case .alreadyExists: text = "the file already exists"
        case .invalidImport: text = "the file cannot be imported"
        case .invalidSSHKey: text = "the SSH key cannot be used"
        }
        if let location { text += " (" + location + ")" }
        if !reason.isEmpty { text += ": " + reason }
        return text
    }
}
