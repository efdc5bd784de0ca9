/// ChaCha20 as RFC 8439 §2.4 defines it: 32-byte key, 12-byte nonce, 32-bit block counter.
///
/// A keystream generator: `apply(to:)` XORs the next keystream bytes into the buffer, and calls
/// may have any lengths (the KDBX 4 inner random stream takes 3 bytes, then 17, then 200...); the
/// keystream continues exactly where the previous call stopped. Encryption and decryption are the
/// same operation. The 32-bit block counter wraps to 0 after 2^32 blocks (256 GiB) without
/// touching the nonce, as in RFC 8439.
///
/// Conforms to `StreamingCipher` for the KDBX 4 payload: `update` returns the XORed chunk and
/// `finalize` returns nothing.
public struct ChaCha20: StreamingCipher, ARXStreamCipher, Sendable {
    /// Bytes in a key (32).
    public static let keyByteCount = 32
    /// Bytes in a nonce (12).
    public static let nonceByteCount = 12

    /// Words 0...15 of the initial state; word 12 is the counter of the next block to generate.
    var state: SIMD16<UInt32>
    /// The current keystream block and how many of its bytes are used (64 = none left).
    var block = SIMD16<UInt32>()
    var used = 64
    /// Shift counts of the four rotations, (left, right) pairs: (16, 16), (12, 20), (8, 24),
    /// (7, 25). Held as data so the optimiser cannot prove the shift pairs are rotations: it
    /// would turn them into scalar `rol` instructions (SSE2 has no vector rotate), moving every
    /// lane out of the vector registers and back, which made the 4-block path 10x slower.
    var rotations = SIMD8<UInt32>(16, 16, 12, 20, 8, 24, 7, 25)
    /// The many-block kernel of the backend chosen at `init` (``CryptoBackend/chacha20``), nil
    /// for the portable code.
    let kernel: StreamBackend.XOR?

    /// - Parameters:
    ///   - key: 32 bytes.
    ///   - nonce: 12 bytes.
    ///   - counter: the block counter of the first keystream block (RFC 8439 uses 1 for
    ///     encryption with Poly1305; KDBX uses 0).
    /// - Throws: `.invalidKeySize`, `.invalidNonceSize`.
    public init(key: [UInt8], nonce: [UInt8], counter: UInt32 = 0) throws(CryptoError) {
        try self.init(key: key, nonce: nonce, counter: counter, backend: CryptoBackend.selection.chacha20)
    }

    /// The same on `backend` (the tests run every available backend).
    package init(key: [UInt8], nonce: [UInt8], counter: UInt32 = 0, backend: StreamBackend) throws(CryptoError) {
        kernel = backend.xor
        guard key.count == 32 else {
            throw CryptoError(.invalidKeySize, "ChaCha20 needs a 32-byte key, got \(key.count) bytes")
        }
        guard nonce.count == 12 else {
            throw CryptoError(.invalidNonceSize, "ChaCha20 needs a 12-byte nonce, got \(nonce.count) bytes")
        }
        var s = SIMD16<UInt32>()
        s[0] = 0x6170_7865; s[1] = 0x3320_646E; s[2] = 0x7962_2D32; s[3] = 0x6B20_6574
        for i in 0..<8 { s[4 + i] = littleEndianWord(key, 4 * i) }
        s[12] = counter
        for i in 0..<3 { s[13 + i] = littleEndianWord(nonce, 4 * i) }
        state = s
    }

    /// XORs the next `bytes.count` keystream bytes into `bytes`.
    public mutating func apply(to bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { apply(to: $0) }
    }

    /// XORs the next `buffer.count` keystream bytes into `buffer`.
    public mutating func apply(to buffer: UnsafeMutableRawBufferPointer) {
        xorKeystream(into: buffer)
    }

    /// XORs the keystream over `input` and returns the result.
    public mutating func update(_ input: ArraySlice<UInt8>) -> [UInt8] {
        var out = Array(input)
        apply(to: &out)
        return out
    }

    /// A stream cipher has nothing left at the end: returns `[]`.
    public mutating func finalize() throws(CryptoError) -> [UInt8] { [] }

    /// Adds `blocks` to the 32-bit counter (word 12), wrapping at 2^32 as RFC 8439 does.
    @inline(__always)
    static func advance(_ state: inout SIMD16<UInt32>, by blocks: UInt64) {
        state[12] = state[12] &+ UInt32(truncatingIfNeeded: blocks)
    }

    /// The ChaCha20 block function (RFC 8439 §2.3) for one block.
    static func block(_ input: SIMD16<UInt32>) -> SIMD16<UInt32> {
        var x0 = input[0], x1 = input[1], x2 = input[2], x3 = input[3]
        var x4 = input[4], x5 = input[5], x6 = input[6], x7 = input[7]
        var x8 = input[8], x9 = input[9], x10 = input[10], x11 = input[11]
        var x12 = input[12], x13 = input[13], x14 = input[14], x15 = input[15]
        @inline(__always) func qr(_ a: inout UInt32, _ b: inout UInt32, _ c: inout UInt32, _ d: inout UInt32) {
            a = a &+ b; d ^= a; d = (d << 16) | (d >> 16)
            c = c &+ d; b ^= c; b = (b << 12) | (b >> 20)
            a = a &+ b; d ^= a; d = (d << 8) | (d >> 24)
            c = c &+ d; b ^= c; b = (b << 7) | (b >> 25)
        }
        for _ in 0..<10 {
            qr(&x0, &x4, &x8, &x12); qr(&x1, &x5, &x9, &x13)
            qr(&x2, &x6, &x10, &x14); qr(&x3, &x7, &x11, &x15)
            qr(&x0, &x5, &x10, &x15); qr(&x1, &x6, &x11, &x12)
            qr(&x2, &x7, &x8, &x13); qr(&x3, &x4, &x9, &x14)
        }
        return SIMD16(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15) &+ input
    }

    /// Four consecutive blocks, one per SIMD lane, XORed into 256 bytes at `target`.
    static func xorFourBlocks(state s: SIMD16<UInt32>, rotations r: SIMD8<UInt32>,
                              into target: UnsafeMutableRawPointer) {
        typealias V = SIMD4<UInt32>
        let l16 = V(repeating: r[0]), r16 = V(repeating: r[1]), l12 = V(repeating: r[2]), r12 = V(repeating: r[3])
        let l8 = V(repeating: r[4]), r8 = V(repeating: r[5]), l7 = V(repeating: r[6]), r7 = V(repeating: r[7])
        let input = FourBlockLanes(s, counter: 12)
        var x = input
        @inline(__always) func qr(_ a: inout V, _ b: inout V, _ c: inout V, _ d: inout V) {
            a = a &+ b; d ^= a; d = (d &<< l16) | (d &>> r16)
            c = c &+ d; b ^= c; b = (b &<< l12) | (b &>> r12)
            a = a &+ b; d ^= a; d = (d &<< l8) | (d &>> r8)
            c = c &+ d; b ^= c; b = (b &<< l7) | (b &>> r7)
        }
        for _ in 0..<10 {
            qr(&x.x0, &x.x4, &x.x8, &x.x12); qr(&x.x1, &x.x5, &x.x9, &x.x13)
            qr(&x.x2, &x.x6, &x.x10, &x.x14); qr(&x.x3, &x.x7, &x.x11, &x.x15)
            qr(&x.x0, &x.x5, &x.x10, &x.x15); qr(&x.x1, &x.x6, &x.x11, &x.x12)
            qr(&x.x2, &x.x7, &x.x8, &x.x13); qr(&x.x3, &x.x4, &x.x9, &x.x14)
        }
        x.xor(adding: input, into: target)
    }
}
