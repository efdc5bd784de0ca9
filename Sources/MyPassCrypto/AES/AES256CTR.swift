import MyPassBytes

/// AES-256 in counter mode (NIST SP 800-38A §6.5): the keystream is the encryption of successive
/// counter blocks, XORed into the data, so encryption and decryption are the same operation.
///
/// The counter block is 16 bytes taken as one big-endian 128-bit integer, incremented by one per
/// block modulo 2^128 (SP 800-38A Appendix B.1, the standard incrementing function with m = 128):
/// the layout OpenSSH's `aes256-ctr` uses (RFC 4344 §4) and that SP 800-38A's examples show. A
/// caller that wants a nonce ‖ counter split (RFC 3686) builds the initial block that way; the
/// counter then carries into the nonce only after 2^32 blocks.
///
/// Built on ``AES256``'s four-block batch (the keystream of four counter blocks at a time), so it
/// runs on whichever AES engine that type uses, with the same constant-time guarantee. The
/// unused keystream of the last batch is kept for the next call and wiped with the value.
public struct AES256CTR: Sendable {
    private let cipher: AES256
    /// The next counter block, as two big-endian halves.
    private var high: UInt64
    private var low: UInt64
    /// Keystream of four blocks; bytes from `used` on are not consumed yet.
    private var keystream: SecureBytes
    private var used: Int

    /// Starts a keystream.
    /// - Parameters:
    ///   - key: 32 bytes.
    ///   - counter: the initial counter block, 16 bytes (OpenSSH: the IV that the key derivation gave).
    /// - Throws: `CryptoError.invalidKeySize` or `.invalidNonceSize` for other lengths.
    public init(key: [UInt8], counter: [UInt8]) throws(CryptoError) {
        try self.init(key: key, counter: counter, backend: CryptoBackend.selection.aes)
    }

    /// Starts a keystream on `backend` (the tests run every available backend).
    /// - Throws: as ``init(key:counter:)``.
    package init(key: [UInt8], counter: [UInt8], backend: AESBackend) throws(CryptoError) {
        guard counter.count == AES256.blockByteCount else {
            throw CryptoError(.invalidNonceSize, "AES-CTR needs a 16-byte counter block, got \(counter.count) bytes")
        }
        cipher = try AES256(key: key, backend: backend)
        high = 0
        low = 0
        for i in 0..<8 {
            high = high << 8 | UInt64(counter[i])
            low = low << 8 | UInt64(counter[8 + i])
        }
        keystream = SecureBytes(zeroedCount: 64)
        used = 64
    }

    /// XORs the keystream into `bytes` in place, continuing where the previous call stopped.
    public mutating func apply(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { apply(to: $0) }
    }

    /// XORs the keystream into `buffer` in place, continuing where the previous call stopped.
    public mutating func apply(to buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress else { return }
        var offset = 0
        while offset < buffer.count {
            if used == 64 { refill() }
            let count = min(64 - used, buffer.count - offset)
            let start = used
            keystream.withUnsafeBytes { stream in
                for i in 0..<count {
                    base.storeBytes(of: base.load(fromByteOffset: offset + i, as: UInt8.self) ^ stream[start + i],
                                    toByteOffset: offset + i, as: UInt8.self)
                }
            }
            used += count
            offset += count
        }
    }

    /// Encrypts or decrypts `input` in one call from the initial counter block.
    /// - Throws: as ``init(key:counter:)``.
    public static func process(key: [UInt8], counter: [UInt8], _ input: [UInt8]) throws(CryptoError) -> [UInt8] {
        var context = try AES256CTR(key: key, counter: counter)
        var output = input
        context.apply(&output)
        return output
    }

    /// The keystream of the next four counter blocks.
    private mutating func refill() {
        let cipher = self.cipher
        var high = self.high, low = self.low
        keystream.withUnsafeMutableBytes { raw in
            let base = raw.baseAddress!
            for block in 0..<4 {
                base.storeBytes(of: high.bigEndian, toByteOffset: 16 * block, as: UInt64.self)
                base.storeBytes(of: low.bigEndian, toByteOffset: 16 * block + 8, as: UInt64.self)
                let (next, carry) = low.addingReportingOverflow(1)
                low = next
                high &+= carry ? 1 : 0
            }
            cipher.encryptFour(UnsafeRawPointer(base), base)
        }
        self.high = high
        self.low = low
        used = 0
    }
}
