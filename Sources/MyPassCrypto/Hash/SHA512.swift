import MyPassBytes

/// SHA-512 (FIPS 180-4 §6.4): 64-byte digest over 128-byte blocks. One-shot through
/// `SHA512.hash(bytes)` or incremental through `update` and `finalize`.
public struct SHA512: HashFunction {
    /// 64 bytes.
    public static var digestByteCount: Int { 64 }
    /// 128 bytes.
    public static var blockByteCount: Int { 128 }

    @usableFromInline typealias State = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    @usableFromInline var state: State
    /// The bytes of a block not yet complete (the first `pendingCount` are valid).
    @usableFromInline var pending: [UInt8]
    @usableFromInline var pendingCount: Int
    /// Total message length so far, in bytes (messages up to 2^64 - 1 bytes).
    @usableFromInline var messageByteCount: UInt64

    /// A fresh state (FIPS 180-4 §5.3.5 initial hash value).
    public init() {
        state = (
            0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
            0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179
        )
        pending = [UInt8](repeating: 0, count: 128)
        pendingCount = 0
        messageByteCount = 0
    }

    /// Absorbs `buffer`; any chunk lengths are allowed.
    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        guard var source = buffer.baseAddress, buffer.count > 0 else { return }
        var remaining = buffer.count
        messageByteCount &+= UInt64(remaining)
        if pendingCount > 0 {
            let take = min(128 - pendingCount, remaining)
            let offset = pendingCount
            pending.withUnsafeMutableBytes { ($0.baseAddress! + offset).copyMemory(from: source, byteCount: take) }
            pendingCount += take
            source += take
            remaining -= take
            if pendingCount < 128 { return }
            pending.withUnsafeBytes { Self.compress(&state, $0.baseAddress!, blockCount: 1) }
            pendingCount = 0
        }
        let blocks = remaining / 128
        if blocks > 0 {
            Self.compress(&state, source, blockCount: blocks)
            source += blocks * 128
            remaining -= blocks * 128
        }
        if remaining > 0 {
            pending.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: source, byteCount: remaining) }
            pendingCount = remaining
        }
    }

    /// Pads (FIPS 180-4 §5.1.2, 128-bit length) and returns the 64-byte digest; wipes the state.
    public mutating func finalize() -> [UInt8] {
        var tail = [UInt8](repeating: 0, count: pendingCount < 112 ? 128 : 256)
        for i in 0..<pendingCount { tail[i] = pending[i] }
        tail[pendingCount] = 0x80
        let bitLengthLow = messageByteCount &<< 3, bitLengthHigh = messageByteCount &>> 61
        for i in 0..<8 {
            tail[tail.count - 1 - i] = UInt8(truncatingIfNeeded: bitLengthLow &>> (8 * UInt64(i)))
            tail[tail.count - 9 - i] = UInt8(truncatingIfNeeded: bitLengthHigh &>> (8 * UInt64(i)))
        }
        tail.withUnsafeBytes { Self.compress(&state, $0.baseAddress!, blockCount: $0.count / 128) }
        var digest = [UInt8]()
        digest.reserveCapacity(64)
        for word in [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7] {
            for shift in stride(from: 56, through: 0, by: -8) {
                digest.append(UInt8(truncatingIfNeeded: word &>> UInt64(shift)))
            }
        }
        wipe(&tail)
        wipe(&pending)
        state = (0, 0, 0, 0, 0, 0, 0, 0)
        pendingCount = 0
        return digest
    }
}
