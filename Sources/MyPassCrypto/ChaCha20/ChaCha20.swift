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
public struct ChaCha20: StreamingCipher, Sendable {
    /// Bytes in a key (32).
    public static let keyByteCount = 32
    /// Bytes in a nonce (12).
    public static let nonceByteCount = 12

    /// Words 0...15 of the initial state; word 12 is the counter of the next block to generate.
    var state: SIMD16<UInt32>
    /// The current keystream block and how many of its bytes are used (64 = none left).
    var block = SIMD16<UInt32>()
    var used = 64

    /// - Parameters:
    ///   - key: 32 bytes.
    ///   - nonce: 12 bytes.
    ///   - counter: the block counter of the first keystream block (RFC 8439 uses 1 for
    ///     encryption with Poly1305; KDBX uses 0).
    /// - Throws: `.invalidKeySize`, `.invalidNonceSize`.
    public init(key: [UInt8], nonce: [UInt8], counter: UInt32 = 0) throws(CryptoError) {
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
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        let count = buffer.count
        var offset = 0
        // Rest of the current block.
        while used < 64 && offset < count {
            base.storeBytes(of: base.load(fromByteOffset: offset, as: UInt8.self) ^ keystreamByte(used),
                            toByteOffset: offset, as: UInt8.self)
            used += 1
            offset += 1
        }
        // Four blocks at a time.
        while count - offset >= 256 {
            ChaCha20.xorFourBlocks(state: state, into: base + offset)
            state[12] = state[12] &+ 4
            offset += 256
        }
        // Whole blocks, then a partial one whose rest is kept.
        while offset < count {
            block = ChaCha20.block(state)
            state[12] = state[12] &+ 1
            used = 0
            let n = min(64, count - offset)
            if n == 64 {
                xorBlock(block, into: base + offset)
                used = 64
            } else {
                while used < n {
                    base.storeBytes(of: base.load(fromByteOffset: offset + used, as: UInt8.self) ^ keystreamByte(used),
                                    toByteOffset: offset + used, as: UInt8.self)
                    used += 1
                }
            }
            offset += n
        }
    }

    /// XORs the keystream over `input` and returns the result.
    public mutating func update(_ input: ArraySlice<UInt8>) -> [UInt8] {
        var out = Array(input)
        apply(to: &out)
        return out
    }

    /// A stream cipher has nothing left at the end: returns `[]`.
    public mutating func finalize() throws(CryptoError) -> [UInt8] { [] }

    @inline(__always)
    private func keystreamByte(_ index: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: block[index >> 2] >> UInt32((index & 3) * 8))
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
    static func xorFourBlocks(state s: SIMD16<UInt32>, into target: UnsafeMutableRawPointer) {
        typealias V = SIMD4<UInt32>
        let i0 = V(repeating: s[0]), i1 = V(repeating: s[1]), i2 = V(repeating: s[2]), i3 = V(repeating: s[3])
        let i4 = V(repeating: s[4]), i5 = V(repeating: s[5]), i6 = V(repeating: s[6]), i7 = V(repeating: s[7])
        let i8 = V(repeating: s[8]), i9 = V(repeating: s[9]), i10 = V(repeating: s[10]), i11 = V(repeating: s[11])
        let i12 = V(repeating: s[12]) &+ V(0, 1, 2, 3)
        let i13 = V(repeating: s[13]), i14 = V(repeating: s[14]), i15 = V(repeating: s[15])
        var x0 = i0, x1 = i1, x2 = i2, x3 = i3, x4 = i4, x5 = i5, x6 = i6, x7 = i7
        var x8 = i8, x9 = i9, x10 = i10, x11 = i11, x12 = i12, x13 = i13, x14 = i14, x15 = i15
        @inline(__always) func qr(_ a: inout V, _ b: inout V, _ c: inout V, _ d: inout V) {
            a = a &+ b; d ^= a; d = (d &<< 16) | (d &>> 16)
            c = c &+ d; b ^= c; b = (b &<< 12) | (b &>> 20)
            a = a &+ b; d ^= a; d = (d &<< 8) | (d &>> 24)
            c = c &+ d; b ^= c; b = (b &<< 7) | (b &>> 25)
        }
        for _ in 0..<10 {
            qr(&x0, &x4, &x8, &x12); qr(&x1, &x5, &x9, &x13)
            qr(&x2, &x6, &x10, &x14); qr(&x3, &x7, &x11, &x15)
            qr(&x0, &x5, &x10, &x15); qr(&x1, &x6, &x11, &x12)
            qr(&x2, &x7, &x8, &x13); qr(&x3, &x4, &x9, &x14)
        }
        x0 &+= i0; x1 &+= i1; x2 &+= i2; x3 &+= i3; x4 &+= i4; x5 &+= i5; x6 &+= i6; x7 &+= i7
        x8 &+= i8; x9 &+= i9; x10 &+= i10; x11 &+= i11; x12 &+= i12; x13 &+= i13; x14 &+= i14; x15 &+= i15
        xorTransposed(x0, x1, x2, x3, target, 0)
        xorTransposed(x4, x5, x6, x7, target, 16)
        xorTransposed(x8, x9, x10, x11, target, 32)
        xorTransposed(x12, x13, x14, x15, target, 48)
    }
}

/// XORs words (a, b, c, d) of four lane-blocks into 16 bytes at `offset` of each 64-byte block.
@inline(__always)
func xorTransposed(_ a: SIMD4<UInt32>, _ b: SIMD4<UInt32>, _ c: SIMD4<UInt32>, _ d: SIMD4<UInt32>,
                   _ target: UnsafeMutableRawPointer, _ offset: Int) {
    for lane in 0..<4 {
        let p = target + 64 * lane + offset
        let row = SIMD4<UInt32>(a[lane], b[lane], c[lane], d[lane])
        let old = p.loadUnaligned(as: SIMD4<UInt32>.self)
        p.storeBytes(of: old ^ SIMD4<UInt32>(littleEndianLanes: row), as: SIMD4<UInt32>.self)
    }
}

/// XORs one 64-byte keystream block into `target`.
@inline(__always)
func xorBlock(_ block: SIMD16<UInt32>, into target: UnsafeMutableRawPointer) {
    let old = target.loadUnaligned(as: SIMD16<UInt32>.self)
    target.storeBytes(of: old ^ SIMD16<UInt32>(littleEndianLanes: block), as: SIMD16<UInt32>.self)
}

extension SIMD where Scalar == UInt32 {
    /// The lanes in little-endian byte order (a no-op on little-endian machines).
    @inline(__always)
    init(littleEndianLanes value: Self) {
        #if _endian(little)
        self = value
        #else
        self = Self()
        for i in indices { self[i] = value[i].littleEndian }
        #endif
    }
}

/// The little-endian 32-bit word at `offset` of `bytes`.
func littleEndianWord(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
    UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
        | UInt32(bytes[offset + 3]) << 24
}
