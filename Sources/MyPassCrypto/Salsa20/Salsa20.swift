/// Salsa20/20 (D. J. Bernstein, "Salsa20 specification", 2005) with a 32-byte key, 8-byte nonce
/// and 64-bit block counter: the KDBX 3.1 inner random stream.
///
/// A keystream generator: `apply(to:)` XORs the next keystream bytes into the buffer, over any
/// number of calls of any length; the keystream continues where the previous call stopped.
public struct Salsa20: ARXStreamCipher, Sendable {
    /// Bytes in a key (32).
    public static let keyByteCount = 32
    /// Bytes in a nonce (8).
    public static let nonceByteCount = 8

    /// The 16-word input matrix; words 8 and 9 hold the 64-bit counter of the next block.
    var state: SIMD16<UInt32>
    var block = SIMD16<UInt32>()
    var used = 64
    /// Shift counts of the four rotations, (left, right) pairs: (7, 25), (9, 23), (13, 19),
    /// (18, 14); data for the reason ``ChaCha20`` gives (constant counts become scalar rotates).
    var rotations = SIMD8<UInt32>(7, 25, 9, 23, 13, 19, 18, 14)
    /// The many-block kernel of the backend chosen at `init` (``CryptoBackend/salsa20``), nil for
    /// the portable code.
    let kernel: StreamBackend.XOR?

    /// - Parameters:
    ///   - key: 32 bytes.
    ///   - nonce: 8 bytes.
    ///   - counter: the block number of the first keystream block (KDBX uses 0).
    /// - Throws: `.invalidKeySize`, `.invalidNonceSize`.
    public init(key: [UInt8], nonce: [UInt8], counter: UInt64 = 0) throws(CryptoError) {
        try self.init(key: key, nonce: nonce, counter: counter, backend: CryptoBackend.selection.salsa20)
    }

    /// The same on `backend` (the tests run every available backend).
    package init(key: [UInt8], nonce: [UInt8], counter: UInt64 = 0, backend: StreamBackend) throws(CryptoError) {
        kernel = backend.xor
        guard key.count == 32 else {
            throw CryptoError(.invalidKeySize, "Salsa20 needs a 32-byte key, got \(key.count) bytes")
        }
        guard nonce.count == 8 else {
            throw CryptoError(.invalidNonceSize, "Salsa20 needs an 8-byte nonce, got \(nonce.count) bytes")
        }
        var s = SIMD16<UInt32>()
        // "expand 32-byte k" on the diagonal.
        s[0] = 0x6170_7865; s[5] = 0x3320_646E; s[10] = 0x7962_2D32; s[15] = 0x6B20_6574
        for i in 0..<4 { s[1 + i] = littleEndianWord(key, 4 * i) }
        for i in 0..<4 { s[11 + i] = littleEndianWord(key, 16 + 4 * i) }
        s[6] = littleEndianWord(nonce, 0)
        s[7] = littleEndianWord(nonce, 4)
        s[8] = UInt32(truncatingIfNeeded: counter)
        s[9] = UInt32(truncatingIfNeeded: counter >> 32)
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

    /// Adds `blocks` to the 64-bit counter in words 8 (low) and 9 (high), wrapping at 2^64.
    @inline(__always)
    static func advance(_ state: inout SIMD16<UInt32>, by blocks: UInt64) {
        let counter = (UInt64(state[9]) << 32 | UInt64(state[8])) &+ blocks
        state[8] = UInt32(truncatingIfNeeded: counter)
        state[9] = UInt32(truncatingIfNeeded: counter >> 32)
    }

    /// The Salsa20/20 hash of one input matrix: 10 double rounds, then the input added back.
    static func block(_ input: SIMD16<UInt32>) -> SIMD16<UInt32> {
        var x0 = input[0], x1 = input[1], x2 = input[2], x3 = input[3]
        var x4 = input[4], x5 = input[5], x6 = input[6], x7 = input[7]
        var x8 = input[8], x9 = input[9], x10 = input[10], x11 = input[11]
        var x12 = input[12], x13 = input[13], x14 = input[14], x15 = input[15]
        @inline(__always) func rotl(_ v: UInt32, _ n: UInt32) -> UInt32 { (v << n) | (v >> (32 - n)) }
        @inline(__always) func qr(_ a: inout UInt32, _ b: inout UInt32, _ c: inout UInt32, _ d: inout UInt32) {
            b ^= rotl(a &+ d, 7)
            c ^= rotl(b &+ a, 9)
            d ^= rotl(c &+ b, 13)
            a ^= rotl(d &+ c, 18)
        }
        for _ in 0..<10 {
            // Column round.
            qr(&x0, &x4, &x8, &x12); qr(&x5, &x9, &x13, &x1)
            qr(&x10, &x14, &x2, &x6); qr(&x15, &x3, &x7, &x11)
            // Row round.
            qr(&x0, &x1, &x2, &x3); qr(&x5, &x6, &x7, &x4)
            qr(&x10, &x11, &x8, &x9); qr(&x15, &x12, &x13, &x14)
        }
        return SIMD16(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15) &+ input
    }

    /// Four consecutive blocks, one per SIMD lane (counters n ... n + 3, carried into the high
    /// word lane by lane), XORed into 256 bytes at `target`.
    static func xorFourBlocks(state s: SIMD16<UInt32>, rotations r: SIMD8<UInt32>,
                              into target: UnsafeMutableRawPointer) {
        typealias V = SIMD4<UInt32>
        let l7 = V(repeating: r[0]), r7 = V(repeating: r[1]), l9 = V(repeating: r[2]), r9 = V(repeating: r[3])
        let l13 = V(repeating: r[4]), r13 = V(repeating: r[5]), l18 = V(repeating: r[6]), r18 = V(repeating: r[7])
        let input = FourBlockLanes(s, counter: 8, highCounter: 9)
        var x = input
        @inline(__always) func qr(_ a: inout V, _ b: inout V, _ c: inout V, _ d: inout V) {
            var t = a &+ d; b ^= (t &<< l7) | (t &>> r7)
            t = b &+ a; c ^= (t &<< l9) | (t &>> r9)
            t = c &+ b; d ^= (t &<< l13) | (t &>> r13)
            t = d &+ c; a ^= (t &<< l18) | (t &>> r18)
        }
        for _ in 0..<10 {
            qr(&x.x0, &x.x4, &x.x8, &x.x12); qr(&x.x5, &x.x9, &x.x13, &x.x1)
            qr(&x.x10, &x.x14, &x.x2, &x.x6); qr(&x.x15, &x.x3, &x.x7, &x.x11)
            qr(&x.x0, &x.x1, &x.x2, &x.x3); qr(&x.x5, &x.x6, &x.x7, &x.x4)
            qr(&x.x10, &x.x11, &x.x8, &x.x9); qr(&x.x15, &x.x12, &x.x13, &x.x14)
        }
        x.xor(adding: input, into: target)
    }
}
