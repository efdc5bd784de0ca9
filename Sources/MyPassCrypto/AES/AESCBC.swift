/// One-shot AES-256-CBC with PKCS#7 padding.
public enum AESCBC {
    /// Encrypts `plaintext` (any length) with a 32-byte key and 16-byte IV.
    /// - Returns: the ciphertext, a multiple of 16 bytes, 1...16 bytes longer than the plaintext.
    /// - Throws: `.invalidKeySize`, `.invalidNonceSize`.
    public static func encrypt(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8]) throws(CryptoError) -> [UInt8] {
        try encrypt(plaintext, key: key, iv: iv, backend: CryptoBackend.selection.aes)
    }

    /// ``encrypt(_:key:iv:)`` on `backend` (the tests run every available backend).
    package static func encrypt(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8], backend: AESBackend) throws(CryptoError) -> [UInt8] {
        var encryptor = try AESCBCEncryptor(key: key, iv: iv, backend: backend)
        var out = encryptor.update(plaintext[...])
        out += try encryptor.finalize()
        return out
    }

    /// Decrypts `ciphertext` and removes its PKCS#7 padding.
    /// - Throws: `.invalidKeySize`, `.invalidNonceSize`, `.invalidInputLength`, `.invalidPadding`.
    public static func decrypt(_ ciphertext: [UInt8], key: [UInt8], iv: [UInt8]) throws(CryptoError) -> [UInt8] {
        try decrypt(ciphertext, key: key, iv: iv, backend: CryptoBackend.selection.aes)
    }

    /// ``decrypt(_:key:iv:)`` on `backend` (the tests run every available backend).
    package static func decrypt(_ ciphertext: [UInt8], key: [UInt8], iv: [UInt8], backend: AESBackend) throws(CryptoError) -> [UInt8] {
        var decryptor = try AESCBCDecryptor(key: key, iv: iv, backend: backend)
        var out = decryptor.update(ciphertext[...])
        out += try decryptor.finalize()
        return out
    }
}
