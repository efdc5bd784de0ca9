import MyPassBytes

extension AES256: CBCBlockCipher {
    func cbcEncrypt(_ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer, blocks: Int,
                    chain: UnsafeMutableRawPointer) {
        // CBC encryption is serial: one block per bitsliced call, the other three lanes idle.
        withUnsafeTemporaryAllocation(byteCount: 64, alignment: 16) { scratch in
            let base = scratch.baseAddress!
            base.initializeMemory(as: UInt8.self, repeating: 0, count: 64)
            for i in 0..<blocks {
                base.copyMemory(from: chain, byteCount: 16)
                xor16(base, input + 16 * i)
                encryptFour(base, base)
                chain.copyMemory(from: base, byteCount: 16)
                (output + 16 * i).copyMemory(from: base, byteCount: 16)
            }
            secureZero(base, count: 64)
        }
    }

    func cbcDecrypt(_ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer, blocks: Int,
                    chain: UnsafeMutableRawPointer) {
        var i = 0
        // Four independent blocks per call; the chaining XOR is applied afterwards.
        while i + 4 <= blocks {
            let source = input + 16 * i, target = output + 16 * i
            decryptFour(source, target)
            xor16(target, chain)
            xor16(target + 16, source)
            xor16(target + 32, source + 16)
            xor16(target + 48, source + 32)
            chain.copyMemory(from: source + 48, byteCount: 16)
            i += 4
        }
        let rest = blocks - i
        guard rest > 0 else { return }
        withUnsafeTemporaryAllocation(byteCount: 64, alignment: 16) { scratch in
            let base = scratch.baseAddress!
            base.initializeMemory(as: UInt8.self, repeating: 0, count: 64)
            base.copyMemory(from: input + 16 * i, byteCount: 16 * rest)
            decryptFour(base, base)
            for j in 0..<rest {
                let target = output + 16 * (i + j)
                target.copyMemory(from: base + 16 * j, byteCount: 16)
                xor16(target, chain)
                chain.copyMemory(from: input + 16 * (i + j), byteCount: 16)
            }
            secureZero(base, count: 64)
        }
    }
}

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

    /// Encrypts the next plaintext chunk; returns the ciphertext of the blocks completed so far.
    public mutating func update(_ input: ArraySlice<UInt8>) -> [UInt8] { engine.update(input) }

    /// Pads (1...16 bytes of PKCS#7) and returns the final ciphertext block. Never throws.
    public mutating func finalize() throws(CryptoError) -> [UInt8] { engine.finalize() }
}

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

    /// Decrypts the next ciphertext chunk; returns the plaintext that is certain so far (all but
    /// the last block seen).
    public mutating func update(_ input: ArraySlice<UInt8>) -> [UInt8] { engine.update(input) }

    /// Decrypts the held-back block and removes its padding.
    /// - Throws: `.invalidInputLength` when the ciphertext was empty or not a multiple of 16 bytes;
    ///   `.invalidPadding` when the PKCS#7 padding does not verify (checked in constant time).
    public mutating func finalize() throws(CryptoError) -> [UInt8] { try engine.finalize() }
}

/// One-shot AES-256-CBC with PKCS#7 padding.
public enum AESCBC {
    /// Encrypts `plaintext` (any length) with a 32-byte key and 16-byte IV.
    /// - Returns: the ciphertext, a multiple of 16 bytes, 1...16 bytes longer than the plaintext.
    /// - Throws: `.invalidKeySize`, `.invalidNonceSize`.
    public static func encrypt(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8]) throws(CryptoError) -> [UInt8] {
        var encryptor = try AESCBCEncryptor(key: key, iv: iv)
        var out = encryptor.update(plaintext[...])
        out += try encryptor.finalize()
        return out
    }

    /// Decrypts `ciphertext` and removes its PKCS#7 padding.
    /// - Throws: `.invalidKeySize`, `.invalidNonceSize`, `.invalidInputLength`, `.invalidPadding`.
    public static func decrypt(_ ciphertext: [UInt8], key: [UInt8], iv: [UInt8]) throws(CryptoError) -> [UInt8] {
        var decryptor = try AESCBCDecryptor(key: key, iv: iv)
        var out = decryptor.update(ciphertext[...])
        out += try decryptor.finalize()
        return out
    }
}
