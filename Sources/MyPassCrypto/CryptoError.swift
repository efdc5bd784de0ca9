/// The one error type of the crypto module. It never says more than which check failed: a MAC or
/// padding failure carries no detail that could help an attacker, and no reason holds a secret.
public struct CryptoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Sendable, Equatable {
        /// A key of the wrong length for the algorithm.
        case invalidKeySize
        /// A nonce or IV of the wrong length.
        case invalidNonceSize
        /// Input whose length the mode cannot take (CBC ciphertext not a multiple of 16 bytes).
        case invalidInputLength
        /// PKCS#7 padding that does not verify after CBC decryption.
        case invalidPadding
        /// A KDF or hash parameter out of range (Argon2 lanes, memory, output length...).
        case invalidParameter
        /// A KDF would need more memory than the caller's limit.
        case memoryLimitExceeded
        /// The caller's progress handler asked a long computation (a KDF) to stop.
        case cancelled
        /// A private or public key that is malformed, out of range or not on the curve (P-256,
        /// Ed25519), or a key encoding (PKCS#8, SEC 1, SubjectPublicKeyInfo) that does not parse.
        case invalidKey
        /// A signature whose encoding is malformed (wrong length, bad DER); a well-formed
        /// signature that does not verify is not an error, verification returns `false`.
        case invalidSignature
        /// A passphrase that does not open an encrypted private key file (OpenSSH's check words
        /// differ after decryption), or none given for one that needs it.
        case wrongPassphrase
    }

    /// What went wrong.
    public let code: Code
    /// A human reason, free of secrets.
    public let reason: String

    /// An error with a code and a human reason (never a secret).
    public init(_ code: Code, _ reason: String = "") {
        self.code = code
        self.reason = reason
    }

    /// Errors compare on their code only.
    public static func == (lhs: CryptoError, rhs: CryptoError) -> Bool { lhs.code == rhs.code }

    /// The reason, or the code when there is no reason.
    public var description: String { reason.isEmpty ? "crypto error: \(code)" : "crypto error: \(reason)" }
}
