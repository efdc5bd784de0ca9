/// The one error type of the KDBX codec: a code, a human reason (never a secret), and where in the
/// input it happened when known.
///
/// Errors compare on ``code`` only, so tests can `#expect(throws: KDBXError(.wrongKey))`.
public struct KDBXError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The classes of failure a caller (and the CLI's exit code) distinguishes.
    public enum Code: String, Sendable, Equatable {
        /// The password or key file is wrong, or the header was tampered with: the header HMAC
        /// (KDBX 4) or the stream start bytes (KDBX 3.x) do not verify. One code, never two.
        case wrongKey
        /// The key was proven right but the file is damaged: header hash, block HMAC or hash,
        /// padding, gzip, XML or structure.
        case corruptedFile
        /// Not a KDBX file, or a version, cipher, KDF or feature we do not support.
        case unsupported
        /// A key file that cannot be used (a v2.0 key file whose Hash does not match, empty file).
        case invalidKeyFile
        /// A key component the vault needs is missing (for example a challenge-response key).
        case missingKeyComponent
        /// A size, count or nesting limit was exceeded (hostile or absurd input).
        case limitExceeded
        /// The model cannot be written as asked (for example an invalid target version).
        case invalidModel
        /// Reading or writing the file failed (the layer that touches files reports it).
        case io
        /// The caller stopped a long step (the KDF) through its progress handler.
        case cancelled
    }

    /// What went wrong.
    public let code: Code
    /// A human reason, free of secrets.
    public let reason: String
    /// Byte offset in the file, XML line, or header field, when known ("offset 123", "XML line 4 column 7").
    public let location: String?

    /// An error with a code, a reason and an optional location.
    public init(_ code: Code, _ reason: String = "", location: String? = nil) {
        self.code = code
        self.reason = reason
        self.location = location
    }

    /// Errors compare on their code only, so tests can expect a specific one.
    public static func == (lhs: KDBXError, rhs: KDBXError) -> Bool { lhs.code == rhs.code }

    /// The code's class, the reason and the location, never a secret.
    public var description: String {
        var text: String
        switch code {
        case .wrongKey: text = "wrong password or key file (or the file header was modified)"
        case .corruptedFile: text = "the file is corrupted"
        case .unsupported: text = "unsupported file"
        case .invalidKeyFile: text = "invalid key file"
        case .missingKeyComponent: text = "a key component is missing"
        case .limitExceeded: text = "a size limit was exceeded"
        case .invalidModel: text = "the vault cannot be saved"
        case .io: text = "I/O error"
        case .cancelled: text = "cancelled"
        }
        if !reason.isEmpty { text += ": " + reason }
        if let location { text += " (" + location + ")" }
        return text
    }
}
