import MyPassBytes

/// SHA-1 (FIPS 180-4 §6.1): 20-byte digest over 64-byte blocks. Kept for HMAC-SHA-1 in TOTP/HOTP
/// (RFC 6238 / RFC 4226); do not use it where collision resistance matters. One-shot through
/// `SHA1.hash(bytes)` or incremental through `update` and `finalize`.
public struct SHA1: HashFunction, MerkleDamgardHash {
    /// 20 bytes.
    public static var digestByteCount: Int { 20 }
    /// 64 bytes.
    public static var blockByteCount: Int { 64 }
    @usableFromInline static var lengthFieldByteCount: Int { 8 }

    @usableFromInline typealias State = (UInt32, UInt32, UInt32, UInt32, UInt32)

    @usableFromInline var state: State
    /// The bytes of a block not yet complete (the first `pendingCount` are valid).
    @usableFromInline var pending: [UInt8]
    @usableFromInline var pendingCount: Int
    /// Total message length so far, in bytes.
    @usableFromInline var messageByteCount: UInt64
    /// SHA-1 has only the portable compression function.
    @usableFromInline var compressKernel: HashBackend.Compress? { nil }

    /// A fresh state (FIPS 180-4 §5.3.1 initial hash value).
    public init() {
        state = (0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0)
        pending = [UInt8](repeating: 0, count: 64)
        pendingCount = 0
        messageByteCount = 0
    }

    /// Absorbs `buffer`; any chunk lengths are allowed.
    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        absorb(buffer)
    }

    /// Pads (FIPS 180-4 §5.1.1) and returns the 20-byte digest; wipes the working state.
    public mutating func finalize() -> [UInt8] {
        padAndCompress()
        var digest = [UInt8]()
        digest.reserveCapacity(20)
        for word in [state.0, state.1, state.2, state.3, state.4] {
            digest.append(UInt8(truncatingIfNeeded: word &>> 24))
            digest.append(UInt8(truncatingIfNeeded: word &>> 16))
            digest.append(UInt8(truncatingIfNeeded: word &>> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        state = (0, 0, 0, 0, 0)
        return digest
    }
}
