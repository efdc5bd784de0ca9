import MyPassBytes

/// BLAKE2b (RFC 7693): 1 to 64-byte digests over 128-byte blocks, optionally keyed (a MAC with a
/// key of 1 to 64 bytes). Argon2 uses it for H0 and its variable-length hash H' (RFC 9106 §3.2-3.3).
///
/// Incremental through `update`/`finalize`; one-shot through ``hash(_:outputByteCount:)``.
public struct BLAKE2b: Sendable {
    @usableFromInline typealias State = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    /// The digest length this value produces, in bytes (1...64).
    public let outputByteCount: Int
    @usableFromInline var state: State
    /// The last block seen, held back until more input proves it is not the final one.
    @usableFromInline var pending: [UInt8]
    @usableFromInline var pendingCount: Int
    /// Bytes compressed so far (the 128-bit counter t of RFC 7693 §3.2, low and high words).
    @usableFromInline var counterLow: UInt64
    @usableFromInline var counterHigh: UInt64

    /// Starts a hash with an `outputByteCount`-byte digest (1...64), keyed when `key` is not empty
    /// (at most 64 bytes; RFC 7693 §3.3 and §2.5).
    /// - Throws: `CryptoError.invalidParameter` for an output length outside 1...64,
    ///   `CryptoError.invalidKeySize` for a key longer than 64 bytes.
    public init(outputByteCount: Int = 64, key: [UInt8] = []) throws(CryptoError) {
        guard (1...64).contains(outputByteCount) else {
            throw CryptoError(.invalidParameter, "BLAKE2b output length must be 1...64 bytes")
        }
        guard key.count <= 64 else { throw CryptoError(.invalidKeySize, "BLAKE2b key must be at most 64 bytes") }
        self.outputByteCount = outputByteCount
        state = Self.initializationVector
        state.0 ^= 0x0101_0000 ^ (UInt64(key.count) << 8) ^ UInt64(outputByteCount)
        pending = [UInt8](repeating: 0, count: 128)
        pendingCount = 0
        counterLow = 0
        counterHigh = 0
        if !key.isEmpty {
            for i in 0..<key.count { pending[i] = key[i] }
            pendingCount = 128
        }
    }

    /// An unkeyed hash with a valid output length, for internal callers that checked it already.
    @usableFromInline
    init(uncheckedOutputByteCount outputByteCount: Int) {
        self.outputByteCount = outputByteCount
        state = Self.initializationVector
        state.0 ^= 0x0101_0000 ^ UInt64(outputByteCount)
        pending = [UInt8](repeating: 0, count: 128)
        pendingCount = 0
        counterLow = 0
        counterHigh = 0
    }

    /// Absorbs `bytes` (any length).
    @inlinable
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Absorbs `bytes` (any length); the slice need not start at index 0.
    @inlinable
    public mutating func update(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Absorbs the bytes of `buffer` (any length).
    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        guard var source = buffer.baseAddress, buffer.count > 0 else { return }
        var remaining = buffer.count
        if pendingCount > 0 {
            if pendingCount == 128 {
                advanceCounter(by: 128)
                let (low, high) = (counterLow, counterHigh)
                pending.withUnsafeBytes { Self.compress(&state, $0.baseAddress!, counterLow: low, counterHigh: high, isFinal: false) }
                pendingCount = 0
            } else {
                let take = min(128 - pendingCount, remaining)
                let offset = pendingCount
                pending.withUnsafeMutableBytes { ($0.baseAddress! + offset).copyMemory(from: source, byteCount: take) }
                pendingCount += take
                source += take
                remaining -= take
                if remaining == 0 { return }
                advanceCounter(by: 128)
                let (low, high) = (counterLow, counterHigh)
                pending.withUnsafeBytes { Self.compress(&state, $0.baseAddress!, counterLow: low, counterHigh: high, isFinal: false) }
                pendingCount = 0
            }
        }
        // Whole blocks straight from the input, keeping back at least one byte for the final block.
        while remaining > 128 {
            advanceCounter(by: 128)
            Self.compress(&state, source, counterLow: counterLow, counterHigh: counterHigh, isFinal: false)
            source += 128
            remaining -= 128
        }
        pending.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: source, byteCount: remaining) }
        pendingCount = remaining
    }

    /// Compresses the final (zero-padded) block and returns the `outputByteCount`-byte digest;
    /// wipes the working state. The value must not be used again afterwards.
    public mutating func finalize() -> [UInt8] {
        advanceCounter(by: UInt64(pendingCount))
        for i in pendingCount..<128 { pending[i] = 0 }
        let (low, high) = (counterLow, counterHigh)
        pending.withUnsafeBytes { Self.compress(&state, $0.baseAddress!, counterLow: low, counterHigh: high, isFinal: true) }
        var digest = [UInt8]()
        digest.reserveCapacity(64)
        for word in [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7] {
            for shift in stride(from: 0, to: 64, by: 8) { digest.append(UInt8(truncatingIfNeeded: word &>> UInt64(shift))) }
        }
        let output = Array(digest.prefix(outputByteCount))
        wipe(&digest)
        wipe(&pending)
        state = (0, 0, 0, 0, 0, 0, 0, 0)
        pendingCount = 0
        return output
    }

    /// The unkeyed BLAKE2b digest of `bytes`, `outputByteCount` bytes long (1...64; anything else
    /// is a programming error and traps).
    public static func hash(_ bytes: [UInt8], outputByteCount: Int = 64) -> [UInt8] {
        precondition((1...64).contains(outputByteCount), "BLAKE2b output length must be 1...64 bytes")
        var hasher = BLAKE2b(uncheckedOutputByteCount: outputByteCount)
        hasher.update(bytes)
        return hasher.finalize()
    }

    @inline(__always)
    mutating func advanceCounter(by count: UInt64) {
        let (sum, overflow) = counterLow.addingReportingOverflow(count)
        counterLow = sum
        if overflow { counterHigh &+= 1 }
    }
}
