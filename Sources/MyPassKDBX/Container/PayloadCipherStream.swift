import MyPassBytes
import MyPassCrypto

/// The payload cipher of one read or write, as a closed set of concrete ciphers: an enum rather
/// than `any StreamingCipher`, so that the codec needs no existentials (Embedded Swift has none)
/// and every `update(_:)` is a direct, specialised call.
enum PayloadCipherStream: StreamingCipher {
    /// AES-256-CBC with PKCS#7, decrypting.
    case aesDecryptor(AESCBCDecryptor)
    /// AES-256-CBC with PKCS#7, encrypting.
    case aesEncryptor(AESCBCEncryptor)
    /// Twofish-CBC with PKCS#7, decrypting.
    case twofishDecryptor(TwofishCBCDecryptor)
    /// Twofish-CBC with PKCS#7, encrypting.
    case twofishEncryptor(TwofishCBCEncryptor)
    /// ChaCha20 (RFC 8439), either way.
    case chacha20(ChaCha20)

    /// Processes the next chunk (see ``StreamingCipher/update(_:)``). The cipher is moved out of
    /// `self` (`consume`) while it works, so its buffers stay uniquely referenced and are never
    /// copied.
    mutating func update(_ input: ArraySlice<UInt8>) -> [UInt8] {
        switch consume self {
        case .aesDecryptor(var cipher):
            defer { self = .aesDecryptor(cipher) }
            return cipher.update(input)
        case .aesEncryptor(var cipher):
            defer { self = .aesEncryptor(cipher) }
            return cipher.update(input)
        case .twofishDecryptor(var cipher):
            defer { self = .twofishDecryptor(cipher) }
            return cipher.update(input)
        case .twofishEncryptor(var cipher):
            defer { self = .twofishEncryptor(cipher) }
            return cipher.update(input)
        case .chacha20(var cipher):
            defer { self = .chacha20(cipher) }
            return cipher.update(input)
        }
    }

    /// Ends the stream (see ``StreamingCipher/finalize()``).
    /// - Throws: `CryptoError` `.invalidInputLength` or `.invalidPadding` (CBC decryption only).
    mutating func finalize() throws(CryptoError) -> [UInt8] {
        switch consume self {
        case .aesDecryptor(var cipher):
            defer { self = .aesDecryptor(cipher) }
            return try cipher.finalize()
        case .aesEncryptor(var cipher):
            defer { self = .aesEncryptor(cipher) }
            return try cipher.finalize()
        case .twofishDecryptor(var cipher):
            defer { self = .twofishDecryptor(cipher) }
            return try cipher.finalize()
        case .twofishEncryptor(var cipher):
            defer { self = .twofishEncryptor(cipher) }
            return try cipher.finalize()
        case .chacha20(var cipher):
            defer { self = .chacha20(cipher) }
            return try cipher.finalize()
        }
    }
}
