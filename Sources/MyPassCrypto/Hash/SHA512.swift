import MyPassBytes

/// SHA-512 (FIPS 180-4 §6.4): 64-byte digest over 128-byte blocks. One-shot through
/// `SHA512.hash(bytes)` or incremental through `update` and `finalize`.
public struct SHA512: HashFunction, MerkleDamgardHash {
    /// 64 bytes.
    public static var digestByteCount: Int { 64 }
    /// 128 bytes.
    public static var blockByteCount: Int { 128 }
    @usableFromInline static var lengthFieldByteCount: Int { 16 }

    @usableFromInline typealias State = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    @usableFromInline var state: State
    /// The bytes of a block not yet complete (the first `pendingCount` are valid).
    @usableFromInline var pending: [UInt8]
    @usableFromInline var pendingCount: Int
    /// Total message length so far, in bytes (messages up to 2^64 - 1 bytes).
    @usableFromInline var messageByteCount: UInt64
    /// The hardware compression function of the backend chosen at `init`, nil for the portable one.
    @usableFromInline let compressKernel: HashBackend.Compress?

    /// A fresh state (FIPS 180-4 §5.3.5 initial hash value).
    public init() {
        self.init(backend: CryptoBackend.selection.sha512)
    }

    /// A fresh state hashed with `backend` (the tests run every available backend).
    package init(backend: HashBackend) {
        compressKernel = backend.compress
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
        absorb(buffer)
    }

    /// Pads (FIPS 180-4 §5.1.2, 128-bit length) and returns the 64-byte digest; wipes the state.
    public mutating func finalize() -> [UInt8] {
        padAndCompress()
        var digest = [UInt8]()
        digest.reserveCapacity(64)
        for word in [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7] {
            for shift in stride(from: 56, through: 0, by: -8) {
                digest.append(UInt8(truncatingIfNeeded: word &>> UInt64(shift)))
            }
        }
        state = (0, 0, 0, 0, 0, 0, 0, 0)
        return digest
    }
}
