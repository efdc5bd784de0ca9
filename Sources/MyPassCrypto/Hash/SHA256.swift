import MyPassBytes

/// SHA-256 (FIPS 180-4 §6.2): 32-byte digest over 64-byte blocks. One-shot through
/// `SHA256.hash(bytes)` or incremental through `update` and `finalize`.
public struct SHA256: HashFunction {
    /// 32 bytes.
    public static var digestByteCount: Int { 32 }
    /// 64 bytes.
    public static var blockByteCount: Int { 64 }

    @usableFromInline typealias State = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)

    @usableFromInline var state: State
    /// The bytes of a block not yet complete (the first `pendingCount` are valid).
    @usableFromInline var pending: [UInt8]
    @usableFromInline var pendingCount: Int
    /// Total message length so far, in bytes.
    @usableFromInline var messageByteCount: UInt64

    /// A fresh state (FIPS 180-4 §5.3.3 initial hash value).
    public init() {
        state = (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
        pending = [UInt8](repeating: 0, count: 64)
        pendingCount = 0
        messageByteCount = 0
    }

    /// Absorbs `buffer`; any chunk lengths are allowed.
    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        guard var source = buffer.baseAddress, buffer.count > 0 else { return }
        var remaining = buffer.count
        messageByteCount &+= UInt64(remaining)
        if pendingCount > 0 {
            let take = min(64 - pendingCount, remaining)
            let offset = pendingCount
            pending.withUnsafeMutableBytes { ($0.baseAddress! + offset).copyMemory(from: source, byteCount: take) }
            pendingCount += take
            source += take
            remaining -= take
            if pendingCount < 64 { return }
            pending.withUnsafeBytes { Self.compress(&state, $0.baseAddress!, blockCount: 1) }
            pendingCount = 0
        }
        let blocks = remaining / 64
        if blocks > 0 {
            Self.compress(&state, source, blockCount: blocks)
            source += blocks * 64
            remaining -= blocks * 64
        }
        if remaining > 0 {
            pending.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: source, byteCount: remaining) }
            pendingCount = remaining
        }
    }

    /// Pads (FIPS 180-4 §5.1.1) and returns the 32-byte digest; wipes the working state.
    public mutating func finalize() -> [UInt8] {
        var tail = [UInt8](repeating: 0, count: pendingCount < 56 ? 64 : 128)
        for i in 0..<pendingCount { tail[i] = pending[i] }
        tail[pendingCount] = 0x80
        let bitLength = messageByteCount &<< 3
        for i in 0..<8 { tail[tail.count - 1 - i] = UInt8(truncatingIfNeeded: bitLength &>> (8 * UInt64(i))) }
        tail.withUnsafeBytes { Self.compress(&state, $0.baseAddress!, blockCount: $0.count / 64) }
        var digest = [UInt8]()
        digest.reserveCapacity(32)
        for word in [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7] {
            digest.append(UInt8(truncatingIfNeeded: word &>> 24))
            digest.append(UInt8(truncatingIfNeeded: word &>> 16))
            digest.append(UInt8(truncatingIfNeeded: word &>> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        wipe(&tail)
        wipe(&pending)
        state = (0, 0, 0, 0, 0, 0, 0, 0)
        pendingCount = 0
        return digest
    }
}
