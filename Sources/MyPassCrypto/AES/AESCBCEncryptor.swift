/// AES-256-CBC encryption with PKCS#7 padding (NIST SP 800-38A §6.2, RFC 5652 §6.3), fed in
/// chunks of any size. Output is produced for every complete 16-byte block; `finalize()` pads
/// and returns the last block. Memory use is constant: nothing but the last partial block is kept.
public struct AESCBCEncryptor: StreamingCipher, Sendable {
    var engine: CBCEncryptorEngine<AES256>

    /// - Parameters:
    ///   - key: 32 bytes.
    ///   - iv: 16 bytes (the KDBX encryption IV).
    /// - Throws: `.invalidKeySize`, `.invalidNonceSize`.
    public init(key: [UInt8], iv: [UInt8]) throws(CryptoError) {
        engine = try CBCEncryptorEngine(cipher: try AES256(key: key), iv: iv)
    }

    /// An encryptor on `backend` (the tests run every available backend).
    package init(key: [UInt8], iv: [UInt8], backend: AESBackend) throws(CryptoError) {
        engine = try CBCEncryptorEngine(cipher: try AES256(key: key, backend: backend), iv: iv)
    }

    /// Encrypts the next plaintext chunk; returns the ciphertext of the blocks completed so far.
    public mutating func update(_ input: ArraySlice<UInt8>) -> [UInt8] { engine.update(input) }

    /// Pads (1...16 bytes of PKCS#7) and returns the final ciphertext block. Never throws.
    public mutating func finalize() throws(CryptoError) -> [UInt8] { engine.finalize() }
}
