import MyPassBytes
import MyPassCrypto

extension PayloadCipher {
    /// A streaming decryptor of the payload: AES-256-CBC or Twofish-CBC with PKCS#7, or ChaCha20.
    /// - Throws: ``KDBXError`` `.corruptedFile` for a key or IV of the wrong size.
    func makeDecryptor(key: SecureBytes, iv: [UInt8]) throws(KDBXError) -> PayloadCipherStream {
        var keyBytes = key.unsafeArray
        defer { wipe(&keyBytes) }
        do {
            switch self {
            case .aes256: return .aesDecryptor(try AESCBCDecryptor(key: keyBytes, iv: iv))
            case .twofish: return .twofishDecryptor(try TwofishCBCDecryptor(key: keyBytes, iv: iv))
            case .chacha20: return .chacha20(try ChaCha20(key: keyBytes, nonce: iv))
            }
        } catch {
            throw KDBXError(.corruptedFile, "the payload cipher rejected its key or IV", location: HeaderFieldID.describe(7))
        }
    }

    /// A streaming encryptor of the payload.
    /// - Throws: ``KDBXError`` `.invalidModel` for a key or IV of the wrong size.
    func makeEncryptor(key: SecureBytes, iv: [UInt8]) throws(KDBXError) -> PayloadCipherStream {
        var keyBytes = key.unsafeArray
        defer { wipe(&keyBytes) }
        do {
            switch self {
            case .aes256: return .aesEncryptor(try AESCBCEncryptor(key: keyBytes, iv: iv))
            case .twofish: return .twofishEncryptor(try TwofishCBCEncryptor(key: keyBytes, iv: iv))
            case .chacha20: return .chacha20(try ChaCha20(key: keyBytes, nonce: iv))
            }
        } catch {
            throw KDBXError(.invalidModel, "the payload cipher rejected its key or IV")
        }
    }
}
