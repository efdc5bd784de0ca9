extension Twofish: CBCBlockCipher {
    func cbcEncrypt(_ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer, blocks: Int,
                    chain: UnsafeMutableRawPointer) {
        for i in 0..<blocks {
            xor16(chain, input + 16 * i)
            encrypt(chain, chain)
            (output + 16 * i).copyMemory(from: chain, byteCount: 16)
        }
    }

    func cbcDecrypt(_ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer, blocks: Int,
                    chain: UnsafeMutableRawPointer) {
        for i in 0..<blocks {
            let source = input + 16 * i, target = output + 16 * i
            decrypt(source, target)
            xor16(target, chain)
            chain.copyMemory(from: source, byteCount: 16)
        }
    }
}

/// Twofish-CBC encryption with PKCS#7 padding (KeePassXC's Twofish-256 payload cipher), fed in
/// chunks of any size. See `Twofish` about its table lookups.
public struct TwofishCBCEncryptor: StreamingCipher, Sendable {
    var engine: CBCEncryptorEngine<Twofish>

    /// - Parameters:
    ///   - key: 32 bytes for KDBX (16 and 24 are accepted too).
    ///   - iv: 16 bytes.
    /// - Throws: `.invalidKeySize`, `.invalidNonceSize`.
    public init(key: [UInt8], iv: [UInt8]) throws(CryptoError) {
        engine = try CBCEncryptorEngine(cipher: try Twofish(key: key), iv: iv)
    }

    /// Encrypts the next plaintext chunk; returns the ciphertext of the blocks completed so far.
    public mutating func update(_ input: ArraySlice<UInt8>) -> [UInt8] { engine.update(input) }

    /// Pads (PKCS#7) and returns the final ciphertext block. Never throws.
    public mutating func finalize() throws(CryptoError) -> [UInt8] { engine.finalize() }
}

/// Twofish-CBC decryption with PKCS#7 padding check, fed in chunks of any size.
public struct TwofishCBCDecryptor: StreamingCipher, Sendable {
    var engine: CBCDecryptorEngine<Twofish>

    /// - Parameters:
    ///   - key: 32 bytes for KDBX (16 and 24 are accepted too).
    ///   - iv: 16 bytes.
    /// - Throws: `.invalidKeySize`, `.invalidNonceSize`.
    public init(key: [UInt8], iv: [UInt8]) throws(CryptoError) {
        engine = try CBCDecryptorEngine(cipher: try Twofish(key: key), iv: iv)
    }

    /// Decrypts the next chunk; returns the plaintext certain so far (all but the last block).
    public mutating func update(_ input: ArraySlice<UInt8>) -> [UInt8] { engine.update(input) }

    /// Decrypts the held-back block and removes its padding.
    /// - Throws: `.invalidInputLength` (empty or not a multiple of 16 bytes), `.invalidPadding`.
    public mutating func finalize() throws(CryptoError) -> [UInt8] { try engine.finalize() }
}
