/// AES-256-CBC decryption with PKCS#7 padding check, fed in chunks of any size. The last block is
/// held back until `finalize()`, which strips and verifies the padding.
public struct AESCBCDecryptor: StreamingCipher, Sendable {
    var engine: CBCDecryptorEngine<AES256>

    /// - Parameters:
    ///   - key: 32 bytes.
    ///   - iv: 16 bytes.
    /// - Throws: `.invalidKeySize`, `.invalidNonceSize`.
    public init(key: [UInt8], iv: [UInt8]) throws(CryptoError) {
        engine = try CBCDecryptorEngine(cipher: try AES256(key: key), iv: iv)
    }

    /// A decryptor on `backend` (the tests run every available backend).
    package init(key: [UInt8], iv: [UInt8], backend: AESBackend) throws(CryptoError) {
        engine = try CBCDecryptorEngine(cipher: try AES256(key: key, backend: backend), iv: iv)
    }

    /// Decrypts the next ciphertext chunk; returns the plaintext that is certain so far (all but
    /// the last block seen).
    public mutating func update(_ input: ArraySlice<UInt8>) -> [UInt8] { engine.update(input) }

    /// Decrypts the held-back block and removes its padding.
    /// - Throws: `.invalidInputLength` when the ciphertext was empty or not a multiple of 16 bytes;
    ///   `.invalidPadding` when the PKCS#7 padding does not verify (checked in constant time).
    public mutating func finalize() throws(CryptoError) -> [UInt8] { try engine.finalize() }
}
