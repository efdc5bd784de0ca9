/// Salsa20/20 (D. J. Bernstein, "Salsa20 specification", 2005) with a 32-byte key, 8-byte nonce
/// and 64-bit block counter: the KDBX 3.1 inner random stream.
///
/// A keystream generator: `apply(to:)` XORs the next keystream bytes into the buffer, over any
/// number of calls of any length; the keystream continues where the previous call stopped.
public struct Salsa20: Sendable {
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

    /// - Parameters:
    ///   - key: 32 bytes.
    ///   - nonce: 8 bytes.
    ///   - counter: the block number of the first keystream block (KDBX uses 0).
    /// - Throws: `.invalidKeySize`, `.invalidNonceSize`.
    public init(key: [UInt8], nonce: [UInt8], counter: UInt64 = 0) throws(CryptoError) {
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
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        let count = buffer.count
        var offset = 0
        while used < 64 && offset < count {
            base.storeBytes(of: base.load(fromByteOffset: offset, as: UInt8.self) ^ keystreamByte(used),
                            toByteOffset: offset, as: UInt8.self)
            used += 1
            offset += 1
        }
        // Four blocks at a time.
        while count - offset >= 256 {
            Salsa20.xorFourBlocks(state: state, rotations: rotations, into: base + offset)
            advance(by: 4)
            offset += 256
        }
        while offset < count {
            block = Salsa20.block(state)
            advance(by: 1)
            let n = min(64, count - offset)
            if n == 64 {
                xorBlock(block, into: base + offset)
                used = 64
            } else {
                used = 0
                while used < n {
                    base.storeBytes(of: base.load(fromByteOffset: offset + used, as: UInt8.self) ^ keystreamByte(used),
                                    toByteOffset: offset + used, as: UInt8.self)
                    used += 1
                }
            }
            offset += n
        }
    }

    /// Adds `blocks` to the 64-bit counter in words 8 (low) and 9 (high).
    @inline(__always)
    private mutating func advance(by blocks: UInt32) {
        let (low, carry) = state[8].addingReportingOverflow(blocks)
        state[8] = low
        if carry { state[9] = state[9] &+ 1 }
    }

    @inline(__always)
    private func keystreamByte(_ index: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: block[index >> 2] >> UInt32((index & 3) * 8))
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
        let i0 = V(repeating: s[0]), i1 = V(repeating: s[1]), i2 = V(repeating: s[2]), i3 = V(repeating: s[3])
        let i4 = V(repeating: s[4]), i5 = V(repeating: s[5]), i6 = V(repeating: s[6]), i7 = V(repeating: s[7])
        let i8 = V(repeating: s[8]) &+ V(0, 1, 2, 3)
        let i9 = V(repeating: s[9]) &+ V(repeating: 0).replacing(with: 1, where: i8 .< V(repeating: s[8]))
        let i10 = V(repeating: s[10]), i11 = V(repeating: s[11])
        let i12 = V(repeating: s[12]), i13 = V(repeating: s[13]), i14 = V(repeating: s[14]), i15 = V(repeating: s[15])
        var x0 = i0, x1 = i1, x2 = i2, x3 = i3, x4 = i4, x5 = i5, x6 = i6, x7 = i7
        var x8 = i8, x9 = i9, x10 = i10, x11 = i11, x12 = i12, x13 = i13, x14 = i14, x15 = i15
        @inline(__always) func qr(_ a: inout V, _ b: inout V, _ c: inout V, _ d: inout V) {
            var t = a &+ d; b ^= (t &<< l7) | (t &>> r7)
            t = b &+ a; c ^= (t &<< l9) | (t &>> r9)
            t = c &+ b; d ^= (t &<< l13) | (t &>> r13)
            t = d &+ c; a ^= (t &<< l18) | (t &>> r18)
        }
        for _ in 0..<10 {
            qr(&x0, &x4, &x8, &x12); qr(&x5, &x9, &x13, &x1)
            qr(&x10, &x14, &x2, &x6); qr(&x15, &x3, &x7, &x11)
            qr(&x0, &x1, &x2, &x3); qr(&x5, &x6, &x7, &x4)
            qr(&x10, &x11, &x8, &x9); qr(&x15, &x12, &x13, &x14)
        }
        x0 &+= i0; x1 &+= i1; x2 &+= i2; x3 &+= i3; x4 &+= i4; x5 &+= i5; x6 &+= i6; x7 &+= i7
        x8 &+= i8; x9 &+= i9; x10 &+= i10; x11 &+= i11; x12 &+= i12; x13 &+= i13; x14 &+= i14; x15 &+= i15
        xorTransposed(x0, x1, x2, x3, target, 0)
        xorTransposed(x4, x5, x6, x7, target, 16)
        xorTransposed(x8, x9, x10, x11, target, 32)
        xorTransposed(x12, x13, x14, x15, target, 48)
    }
}
