/// Twofish's fixed permutations and matrices, used only while scheduling a key.
enum TwofishTables {
    /// The 4-bit tables t0...t3 that build q0 and q1 (Twofish paper §4.3.5).
    private static let q0Nibbles: [[UInt8]] = [
        [0x8, 0x1, 0x7, 0xD, 0x6, 0xF, 0x3, 0x2, 0x0, 0xB, 0x5, 0x9, 0xE, 0xC, 0xA, 0x4],
        [0xE, 0xC, 0xB, 0x8, 0x1, 0x2, 0x3, 0x5, 0xF, 0x4, 0xA, 0x6, 0x7, 0x0, 0x9, 0xD],
        [0xB, 0xA, 0x5, 0xE, 0x6, 0xD, 0x9, 0x0, 0xC, 0x8, 0xF, 0x3, 0x2, 0x4, 0x7, 0x1],
        [0xD, 0x7, 0xF, 0x4, 0x1, 0x2, 0x6, 0xE, 0x9, 0xB, 0x3, 0x0, 0x8, 0x5, 0xC, 0xA],
    ]
    private static let q1Nibbles: [[UInt8]] = [
        [0x2, 0x8, 0xB, 0xD, 0xF, 0x7, 0x6, 0xE, 0x3, 0x1, 0x9, 0x4, 0x0, 0xA, 0xC, 0x5],
        [0x1, 0xE, 0x2, 0xB, 0x4, 0xC, 0x3, 0x7, 0x6, 0xD, 0xA, 0x5, 0xF, 0x9, 0x0, 0x8],
        [0x4, 0xC, 0x7, 0x5, 0x1, 0x6, 0x9, 0xA, 0x0, 0xE, 0xD, 0x8, 0x2, 0xB, 0x3, 0xF],
        [0xB, 0x9, 0x5, 0x1, 0xC, 0x3, 0xD, 0xE, 0x6, 0x4, 0x7, 0xF, 0x2, 0x0, 0x8, 0xA],
    ]

    private static func permutation(_ t: [[UInt8]]) -> [UInt8] {
        (0..<256).map { (x: Int) -> UInt8 in
            @inline(__always) func ror4(_ v: UInt8) -> UInt8 { ((v >> 1) | (v << 3)) & 0xF }
            let a0 = UInt8(x >> 4), b0 = UInt8(x & 0xF)
            let a1 = a0 ^ b0, b1 = (a0 ^ ror4(b0) ^ (a0 << 3)) & 0xF
            let a2 = t[0][Int(a1)], b2 = t[1][Int(b1)]
            let a3 = a2 ^ b2, b3 = (a2 ^ ror4(b2) ^ (a2 << 3)) & 0xF
            let a4 = t[2][Int(a3)], b4 = t[3][Int(b3)]
            return (b4 << 4) | a4
        }
    }

    static let q0: [UInt8] = permutation(q0Nibbles)
    static let q1: [UInt8] = permutation(q1Nibbles)

    /// Multiplication in GF(2^8) modulo `polynomial` (0x169 for MDS, 0x14D for RS).
    static func multiply(_ a: UInt8, _ b: UInt8, _ polynomial: UInt16) -> UInt8 {
        var result: UInt16 = 0, x = UInt16(a), y = b
        while y != 0 {
            if y & 1 != 0 { result ^= x }
            x <<= 1
            if x & 0x100 != 0 { x ^= polynomial }
            y >>= 1
        }
        return UInt8(result)
    }

    private static let mds: [[UInt8]] = [
        [0x01, 0xEF, 0x5B, 0x5B],
        [0x5B, 0xEF, 0xEF, 0x01],
        [0xEF, 0x5B, 0x01, 0xEF],
        [0xEF, 0x01, 0xEF, 0x5B],
    ]

    private static let rs: [[UInt8]] = [
        [0x01, 0xA4, 0x55, 0x87, 0x5A, 0x58, 0xDB, 0x9E],
        [0xA4, 0x56, 0x82, 0xF3, 0x1E, 0xC6, 0x68, 0xE5],
        [0x02, 0xA1, 0xFC, 0xC1, 0x47, 0xAE, 0x3D, 0x19],
        [0xA4, 0x55, 0x87, 0x5A, 0x58, 0xDB, 0x9E, 0x03],
    ]

    /// The MDS matrix column `j` times `y`, as a little-endian word.
    static func mdsColumn(_ j: Int, _ y: UInt8) -> UInt32 {
        var word: UInt32 = 0
        for i in 0..<4 { word |= UInt32(multiply(mds[i][j], y, 0x169)) << (8 * i) }
        return word
    }

    /// RS · key[offset ..< offset+8] as a little-endian word.
    static func reedSolomon(_ key: [UInt8], _ offset: Int) -> UInt32 {
        var word: UInt32 = 0
        for i in 0..<4 {
            var s: UInt8 = 0
            for j in 0..<8 { s ^= multiply(rs[i][j], key[offset + j], 0x14D) }
            word |= UInt32(s) << (8 * i)
        }
        return word
    }

    @inline(__always) private static func byte(_ w: UInt32, _ i: Int) -> UInt8 { UInt8(truncatingIfNeeded: w >> (8 * i)) }

    /// The four key-dependent S-boxes of h (paper §4.3.2) applied to the same byte `x` in every
    /// position, with list `l` (k words).
    static func keyedSBoxes(_ x: UInt8, _ l: [UInt32]) -> (UInt8, UInt8, UInt8, UInt8) {
        var y0 = x, y1 = x, y2 = x, y3 = x
        let k = l.count
        if k == 4 {
            y0 = q1[Int(y0)] ^ byte(l[3], 0); y1 = q0[Int(y1)] ^ byte(l[3], 1)
            y2 = q0[Int(y2)] ^ byte(l[3], 2); y3 = q1[Int(y3)] ^ byte(l[3], 3)
        }
        if k >= 3 {
            y0 = q1[Int(y0)] ^ byte(l[2], 0); y1 = q1[Int(y1)] ^ byte(l[2], 1)
            y2 = q0[Int(y2)] ^ byte(l[2], 2); y3 = q0[Int(y3)] ^ byte(l[2], 3)
        }
        y0 = q1[Int(q0[Int(q0[Int(y0)] ^ byte(l[1], 0))] ^ byte(l[0], 0))]
        y1 = q0[Int(q0[Int(q1[Int(y1)] ^ byte(l[1], 1))] ^ byte(l[0], 1))]
        y2 = q1[Int(q1[Int(q0[Int(y2)] ^ byte(l[1], 2))] ^ byte(l[0], 2))]
        y3 = q0[Int(q1[Int(q1[Int(y3)] ^ byte(l[1], 3))] ^ byte(l[0], 3))]
        return (y0, y1, y2, y3)
    }

    /// h(X, L) (paper §4.3.2): the keyed S-boxes on the bytes of X, then the MDS matrix.
    static func h(_ x: UInt32, _ l: [UInt32]) -> UInt32 {
        let b0 = keyedSBoxes(byte(x, 0), l).0, b1 = keyedSBoxes(byte(x, 1), l).1
        let b2 = keyedSBoxes(byte(x, 2), l).2, b3 = keyedSBoxes(byte(x, 3), l).3
        return mdsColumn(0, b0) ^ mdsColumn(1, b1) ^ mdsColumn(2, b2) ^ mdsColumn(3, b3)
    }
}
