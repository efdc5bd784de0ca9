import MyPassBytes

/// A 128-bit block cipher that the CBC engine can drive. Implementations chain blocks themselves,
/// so that a bitsliced cipher can decrypt several independent blocks at once.
protocol CBCBlockCipher: Sendable {
    /// CBC-encrypts `blocks` 16-byte blocks from `input` to `output`; `chain` (16 bytes) holds the
    /// previous ciphertext block (the IV at first) and is updated.
    func cbcEncrypt(_ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer, blocks: Int,
                    chain: UnsafeMutableRawPointer)
    /// CBC-decrypts `blocks` blocks; `input` and `output` do not overlap.
    func cbcDecrypt(_ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer, blocks: Int,
                    chain: UnsafeMutableRawPointer)
}

/// XORs 16 bytes of `source` into `target`.
@inline(__always)
func xor16(_ target: UnsafeMutableRawPointer, _ source: UnsafeRawPointer) {
    let a = target.loadUnaligned(as: UInt64.self) ^ source.loadUnaligned(as: UInt64.self)
    let b = target.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        ^ source.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
    target.storeBytes(of: a, as: UInt64.self)
    target.storeBytes(of: b, toByteOffset: 8, as: UInt64.self)
}

/// CBC encryption with PKCS#7 padding over any chunking of the plaintext.
struct CBCEncryptorEngine<Cipher: CBCBlockCipher>: Sendable {
    let cipher: Cipher
    /// The previous ciphertext block (16 bytes).
    var chain: [UInt8]
    /// Plaintext bytes not yet forming a full block (0...15).
    var pending: [UInt8] = []
    var finished = false

    init(cipher: Cipher, iv: [UInt8]) throws(CryptoError) {
        guard iv.count == 16 else {
            throw CryptoError(.invalidNonceSize, "CBC needs a 16-byte IV, got \(iv.count) bytes")
        }
        self.cipher = cipher
        chain = iv
        pending.reserveCapacity(16)
    }

    mutating func update(_ input: ArraySlice<UInt8>) -> [UInt8] {
        precondition(!finished, "update after finalize")
        let total = pending.count + input.count
        let outputCount = total & ~15
        guard outputCount > 0 else {
            pending.append(contentsOf: input)
            return []
        }
        var output = [UInt8](repeating: 0, count: outputCount)
        var consumed = 0
        let cipher = self.cipher
        output.withUnsafeMutableBytes { out in
            chain.withUnsafeMutableBytes { chainBuffer in
                var written = 0
                if !pending.isEmpty {
                    consumed = 16 - pending.count
                    pending.append(contentsOf: input.prefix(consumed))
                    pending.withUnsafeBytes {
                        cipher.cbcEncrypt($0.baseAddress!, out.baseAddress!, blocks: 1, chain: chainBuffer.baseAddress!)
                    }
                    wipe(&pending)
                    pending.removeAll(keepingCapacity: true)
                    written = 16
                }
                let blocks = (outputCount - written) / 16
                if blocks > 0 {
                    input.withUnsafeBytes { source in
                        cipher.cbcEncrypt(source.baseAddress! + consumed, out.baseAddress! + written,
                                          blocks: blocks, chain: chainBuffer.baseAddress!)
                    }
                    consumed += blocks * 16
                }
            }
        }
        pending.append(contentsOf: input.dropFirst(consumed))
        return output
    }

    mutating func finalize() -> [UInt8] {
        precondition(!finished, "finalize called twice")
        finished = true
        let padding = 16 - pending.count
        var block = pending + [UInt8](repeating: UInt8(padding), count: padding)
        defer { wipe(&block); wipe(&pending) }
        var output = [UInt8](repeating: 0, count: 16)
        let cipher = self.cipher
        output.withUnsafeMutableBytes { out in
            chain.withUnsafeMutableBytes { chainBuffer in
                block.withUnsafeBytes {
                    cipher.cbcEncrypt($0.baseAddress!, out.baseAddress!, blocks: 1, chain: chainBuffer.baseAddress!)
                }
            }
        }
        return output
    }
}

/// CBC decryption with PKCS#7 padding over any chunking of the ciphertext. The last block is
/// held back until `finalize()`, where its padding is checked.
struct CBCDecryptorEngine<Cipher: CBCBlockCipher>: Sendable {
    let cipher: Cipher
    var chain: [UInt8]
    /// Ciphertext not yet decrypted: 0...16 bytes (a full block is kept for `finalize`).
    var pending: [UInt8] = []
    var finished = false

    init(cipher: Cipher, iv: [UInt8]) throws(CryptoError) {
        guard iv.count == 16 else {
            throw CryptoError(.invalidNonceSize, "CBC needs a 16-byte IV, got \(iv.count) bytes")
        }
        self.cipher = cipher
        chain = iv
        pending.reserveCapacity(16)
    }

    mutating func update(_ input: ArraySlice<UInt8>) -> [UInt8] {
        precondition(!finished, "update after finalize")
        let total = pending.count + input.count
        // Keep 1...16 bytes back: the final block must reach finalize() for the padding check.
        let outputCount = total == 0 ? 0 : ((total - 1) / 16) * 16
        guard outputCount > 0 else {
            pending.append(contentsOf: input)
            return []
        }
        var output = [UInt8](repeating: 0, count: outputCount)
        var consumed = 0
        let cipher = self.cipher
        output.withUnsafeMutableBytes { out in
            chain.withUnsafeMutableBytes { chainBuffer in
                var written = 0
                if !pending.isEmpty {
                    consumed = 16 - pending.count
                    pending.append(contentsOf: input.prefix(consumed))
                    pending.withUnsafeBytes {
                        cipher.cbcDecrypt($0.baseAddress!, out.baseAddress!, blocks: 1, chain: chainBuffer.baseAddress!)
                    }
                    pending.removeAll(keepingCapacity: true)
                    written = 16
                }
                let blocks = (outputCount - written) / 16
                if blocks > 0 {
                    input.withUnsafeBytes { source in
                        cipher.cbcDecrypt(source.baseAddress! + consumed, out.baseAddress! + written,
                                          blocks: blocks, chain: chainBuffer.baseAddress!)
                    }
                    consumed += blocks * 16
                }
            }
        }
        pending.append(contentsOf: input.dropFirst(consumed))
        return output
    }

    mutating func finalize() throws(CryptoError) -> [UInt8] {
        precondition(!finished, "finalize called twice")
        finished = true
        guard pending.count == 16 else {
            throw CryptoError(.invalidInputLength, "CBC ciphertext is not a non-empty multiple of 16 bytes")
        }
        var block = [UInt8](repeating: 0, count: 16)
        defer { wipe(&block) }
        let cipher = self.cipher
        block.withUnsafeMutableBytes { out in
            chain.withUnsafeMutableBytes { chainBuffer in
                pending.withUnsafeBytes {
                    cipher.cbcDecrypt($0.baseAddress!, out.baseAddress!, blocks: 1, chain: chainBuffer.baseAddress!)
                }
            }
        }
        // Constant-time PKCS#7 check: 1 <= n <= 16 and the last n bytes all equal n.
        let n = block[15]
        var bad: UInt8 = (n &- 1) & 0xF0   // nonzero if n == 0 or n > 16
        for i in 0..<16 {
            // inPad is 0xFF when byte i belongs to the padding (16 - i <= n), else 0.
            let distance = UInt8(16 - i)
            let inPad = UInt8(truncatingIfNeeded: (Int16(n) - Int16(distance)) >> 8) ^ 0xFF
            bad |= inPad & (block[i] ^ n)
        }
        guard bad == 0 else { throw CryptoError(.invalidPadding, "CBC padding does not verify") }
        return Array(block[0..<(16 - Int(n))])
    }
}
