import MyPassBytes

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
            initialized = outputCount
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
