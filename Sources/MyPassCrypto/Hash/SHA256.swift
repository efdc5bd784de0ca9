import MyPassBytes

/// SHA-256 (FIPS 180-4 §6.2): 32-byte digest over 64-byte blocks. One-shot through
/// `SHA256.hash(bytes)` or incremental through `update` and `finalize`.
public struct SHA256: HashFunction, MerkleDamgardHash {
    /// 32 bytes.
    public static var digestByteCount: Int { 32 }
    /// 64 bytes.
    public static var blockByteCount: Int { 64 }
    @usableFromInline static var lengthFieldByteCount: Int { 8 }

    @usableFromInline typealias State = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)

    @usableFromInline var state: State
    /// The bytes of a block not yet complete (the first `pendingCount` are valid).
    @usableFromInline var pending: [UInt8]
    @usableFromInline var pendingCount: Int
    /// Total message length so far, in bytes.
    @usableFromInline var messageByteCount: UInt64
    /// The hardware compression function of the backend chosen at `init`, nil for the portable one.
    @usableFromInline let compressKernel: HashBackend.Compress?

    /// A fresh state (FIPS 180-4 §5.3.3 initial hash value).
    public init() {
        self.init(backend: CryptoBackend.selection.sha256)
    }

    /// A fresh state hashed with `backend` (the tests run every available backend).
    package init(backend: HashBackend) {
        compressKernel = backend.compress
        state = (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
        pending = [UInt8](repeating: 0, count: 64)
        pendingCount = 0
        messageByteCount = 0
    }

    /// Absorbs `buffer`; any chunk lengths are allowed.
    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        absorb(buffer)
    }

    /// Pads (FIPS 180-4 §5.1.1) and returns the 32-byte digest; wipes the working state.
    public mutating func finalize() -> [UInt8] {
        padAndCompress()
        var digest = [UInt8]()
        digest.reserveCapacity(32)
        for word in [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7] {
            digest.append(UInt8(truncatingIfNeeded: word &>> 24))
            digest.append(UInt8(truncatingIfNeeded: word &>> 16))
            digest.append(UInt8(truncatingIfNeeded: word &>> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        state = (0, 0, 0, 0, 0, 0, 0, 0)
        return digest
    }
}
