import MyPassBytes

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
        var consumed = 0
        let cipher = self.cipher
        // Every byte is written by the cipher (no zero fill first); 16 bytes of spare capacity
        // take `finalize()`'s block without a copy of the whole output when the caller appends it.
        let output = [UInt8](unsafeUninitializedCapacity: outputCount + 16) { buffer, initialized in
            let out = UnsafeMutableRawBufferPointer(buffer)
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
            initialized = outputCount
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
