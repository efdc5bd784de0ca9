import MyPassBytes

/// The message handling that SHA-1, SHA-256 and SHA-512 share (FIPS 180-4 §5.1): buffering a
/// partial block between `update` calls, counting the message length, and the final padding
/// (0x80, zeros, then the big-endian bit length in the last 8 or 16 bytes of the block).
///
/// Each hash keeps its chaining state and its compression function; whole blocks of a long
/// message are compressed straight from the caller's memory.
@usableFromInline
protocol MerkleDamgardHash: HashFunction {
    associatedtype State
    var state: State { get set }
    /// The bytes of a block not yet complete (the first `pendingCount` are valid); `blockByteCount` long.
    var pending: [UInt8] { get set }
    var pendingCount: Int { get set }
    /// Total message length so far, in bytes.
    var messageByteCount: UInt64 { get set }
    /// The length field at the end of the padding: 8 bytes (SHA-1, SHA-256) or 16 (SHA-512).
    static var lengthFieldByteCount: Int { get }
    /// Runs the portable compression function over `blockCount` consecutive blocks at `blocks`.
    static func compress(_ state: inout State, _ blocks: UnsafeRawPointer, blockCount: Int)
    /// A hardware compression function to run instead (``HashBackend``), nil for the portable one.
    var compressKernel: HashBackend.Compress? { get }
}

extension MerkleDamgardHash {
    /// Compresses whole blocks with `kernel`, or the portable function when it is nil.
    @inline(__always)
    static func compress(_ state: inout State, _ blocks: UnsafeRawPointer, blockCount: Int,
                         kernel: HashBackend.Compress?) {
        guard let kernel else { return compress(&state, blocks, blockCount: blockCount) }
        withUnsafeMutableBytes(of: &state) { kernel($0.baseAddress!, blocks, blockCount) }
    }
}

extension MerkleDamgardHash {
    /// Absorbs `buffer` (any chunk length): tops up the pending block, compresses every whole
    /// block in place, keeps the rest.
    mutating func absorb(_ buffer: UnsafeRawBufferPointer) {
        guard var source = buffer.baseAddress, buffer.count > 0 else { return }
        let size = Self.blockByteCount, kernel = compressKernel
        var remaining = buffer.count
        messageByteCount &+= UInt64(remaining)
        if pendingCount > 0 {
            let take = min(size - pendingCount, remaining)
            let offset = pendingCount
            pending.withUnsafeMutableBytes { ($0.baseAddress! + offset).copyMemory(from: source, byteCount: take) }
            pendingCount += take
            source += take
            remaining -= take
            if pendingCount < size { return }
            pending.withUnsafeBytes { Self.compress(&state, $0.baseAddress!, blockCount: 1, kernel: kernel) }
            pendingCount = 0
        }
        let blocks = remaining / size
        if blocks > 0 {
            Self.compress(&state, source, blockCount: blocks, kernel: kernel)
            source += blocks * size
            remaining -= blocks * size
        }
        if remaining > 0 {
            pending.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: source, byteCount: remaining) }
            pendingCount = remaining
        }
    }

    /// Pads the message (FIPS 180-4 §5.1.1, §5.1.2), compresses the last one or two blocks and
    /// wipes the buffered bytes. The caller reads the digest from `state`, then clears it.
    mutating func padAndCompress() {
        let size = Self.blockByteCount, lengthField = Self.lengthFieldByteCount
        var tail = [UInt8](repeating: 0, count: pendingCount < size - lengthField ? size : 2 * size)
        for i in 0..<pendingCount { tail[i] = pending[i] }
        tail[pendingCount] = 0x80
        // 8 x the byte count needs up to 67 bits: the top 3 go into the high word (SHA-512 only).
        let bitLengthLow = messageByteCount &<< 3, bitLengthHigh = messageByteCount &>> 61
        for i in 0..<8 { tail[tail.count - 1 - i] = UInt8(truncatingIfNeeded: bitLengthLow &>> (8 * UInt64(i))) }
        if lengthField == 16 {
            for i in 0..<8 { tail[tail.count - 9 - i] = UInt8(truncatingIfNeeded: bitLengthHigh &>> (8 * UInt64(i))) }
        }
        let kernel = compressKernel
        tail.withUnsafeBytes { Self.compress(&state, $0.baseAddress!, blockCount: $0.count / size, kernel: kernel) }
        wipe(&tail)
        wipe(&pending)
        pendingCount = 0
    }
}
