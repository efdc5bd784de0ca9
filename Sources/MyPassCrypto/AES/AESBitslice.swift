// Bitsliced, fixsliced AES core: four 16-byte blocks held as eight 64-bit bit planes.
//
// Layout: plane k holds bit k (k = 0 is the least significant bit) of every state byte. In each
// plane, the byte at row r, column c of block b sits at bit ((4c + r) * 4 + b): a column fills a
// 16-bit unit, a row a 4-bit group inside it, and the four blocks are the lowest address bits. So
// a column shift is one 64-bit rotation and a row shift a rotation of each 16-bit unit by 4.
//
// Fixslicing (after Adomnicai and Peyrin, "Fixslicing AES-like ciphers", TCHES 2021/1): ShiftRows
// is never executed inside the rounds. After i skipped ShiftRows the stored state S relates to the
// true state T by S(r, c) = T(r, c - r·i); MixColumns is rewritten for each i mod 4, round keys
// are stored pre-shifted, and one cheap correction at the end brings the state back.
//
// No table is indexed by secret data: SubBytes is the Boyar–Matthews–Peralta 113-gate circuit
// ("A very compact S-box for AES", and the published inverse circuit by the same team), and
// everything else is XOR, AND, shifts and rotations.

/// The eight bit planes of four AES states.
@usableFromInline
struct AESPlanes {
    @usableFromInline var p0: UInt64 = 0, p1: UInt64 = 0, p2: UInt64 = 0, p3: UInt64 = 0
    @usableFromInline var p4: UInt64 = 0, p5: UInt64 = 0, p6: UInt64 = 0, p7: UInt64 = 0

    @inline(__always) init() {}

    @inline(__always)
    mutating func xorKey(_ k: UnsafePointer<UInt64>) {
        p0 ^= k[0]; p1 ^= k[1]; p2 ^= k[2]; p3 ^= k[3]
        p4 ^= k[4]; p5 ^= k[5]; p6 ^= k[6]; p7 ^= k[7]
    }
}

// MARK: - Bit permutations

/// Rotates the rows of every column by one: row r receives row r + 1 (mod 4).
@inline(__always) private func rowRotate1(_ x: UInt64) -> UInt64 {
    ((x >> 4) & 0x0FFF_0FFF_0FFF_0FFF) | ((x << 12) & 0xF000_F000_F000_F000)
}

/// Rotates the rows of every column by two.
@inline(__always) private func rowRotate2(_ x: UInt64) -> UInt64 {
    ((x >> 8) & 0x00FF_00FF_00FF_00FF) | ((x << 8) & 0xFF00_FF00_FF00_FF00)
}

@inline(__always) private func rotateRight(_ x: UInt64, _ n: Int) -> UInt64 {
    n == 0 ? x : (x >> UInt64(n)) | (x << UInt64(64 - n))
}

/// R_i: row r, column c receives row r + 1, column c + i (the stored neighbour MixColumns needs).
@inline(__always) private func neighbour(_ x: UInt64, _ i: Int) -> UInt64 {
    rotateRight(rowRotate1(x), 16 * i)
}

/// R_i applied twice.
@inline(__always) private func neighbour2(_ x: UInt64, _ i: Int) -> UInt64 {
    rotateRight(rowRotate2(x), (32 * i) & 63)
}

/// Undoes the two pending ShiftRows left after 14 fixsliced rounds: rows 1 and 3 move two columns.
@inline(__always) private func unshift2(_ x: UInt64) -> UInt64 {
    (x & 0x0F0F_0F0F_0F0F_0F0F) | rotateRight(x & 0xF0F0_F0F0_F0F0_F0F0, 32)
}

// MARK: - MixColumns

extension AESPlanes {
    /// Multiplies every byte by x in GF(2^8) (polynomial 0x11B).
    @inline(__always)
    static func xtime(_ a: inout AESPlanes) {
        let t = a.p7
        a.p7 = a.p6; a.p6 = a.p5; a.p5 = a.p4; a.p4 = a.p3 ^ t
        a.p3 = a.p2 ^ t; a.p2 = a.p1; a.p1 = a.p0 ^ t; a.p0 = t
    }

    /// MixColumns in the fixsliced representation with `i` pending ShiftRows (mod 4):
    /// out = 2·(S ^ R S) ^ R S ^ R²(S ^ R S).
    @inline(__always)
    mutating func mixColumns(_ i: Int) {
        let r0 = neighbour(p0, i), r1 = neighbour(p1, i), r2 = neighbour(p2, i), r3 = neighbour(p3, i)
        let r4 = neighbour(p4, i), r5 = neighbour(p5, i), r6 = neighbour(p6, i), r7 = neighbour(p7, i)
        var t = AESPlanes()
        t.p0 = p0 ^ r0; t.p1 = p1 ^ r1; t.p2 = p2 ^ r2; t.p3 = p3 ^ r3
        t.p4 = p4 ^ r4; t.p5 = p5 ^ r5; t.p6 = p6 ^ r6; t.p7 = p7 ^ r7
        let u0 = neighbour2(t.p0, i) ^ r0, u1 = neighbour2(t.p1, i) ^ r1
        let u2 = neighbour2(t.p2, i) ^ r2, u3 = neighbour2(t.p3, i) ^ r3
        let u4 = neighbour2(t.p4, i) ^ r4, u5 = neighbour2(t.p5, i) ^ r5
        let u6 = neighbour2(t.p6, i) ^ r6, u7 = neighbour2(t.p7, i) ^ r7
        AESPlanes.xtime(&t)
        p0 = t.p0 ^ u0; p1 = t.p1 ^ u1; p2 = t.p2 ^ u2; p3 = t.p3 ^ u3
        p4 = t.p4 ^ u4; p5 = t.p5 ^ u5; p6 = t.p6 ^ u6; p7 = t.p7 ^ u7
    }

    /// InvMixColumns as MixColumns(S ^ 4·(S ^ R² S)), since the inverse polynomial is
    /// c(x)·(4x² + 5) mod x⁴ + 1.
    @inline(__always)
    mutating func inverseMixColumns(_ i: Int) {
        var t = AESPlanes()
        t.p0 = p0 ^ neighbour2(p0, i); t.p1 = p1 ^ neighbour2(p1, i)
        t.p2 = p2 ^ neighbour2(p2, i); t.p3 = p3 ^ neighbour2(p3, i)
        t.p4 = p4 ^ neighbour2(p4, i); t.p5 = p5 ^ neighbour2(p5, i)
        t.p6 = p6 ^ neighbour2(p6, i); t.p7 = p7 ^ neighbour2(p7, i)
        AESPlanes.xtime(&t)
        AESPlanes.xtime(&t)
        p0 ^= t.p0; p1 ^= t.p1; p2 ^= t.p2; p3 ^= t.p3
        p4 ^= t.p4; p5 ^= t.p5; p6 ^= t.p6; p7 ^= t.p7
        mixColumns(i)
    }

    @inline(__always)
    mutating func unshiftTwo() {
        p0 = unshift2(p0); p1 = unshift2(p1); p2 = unshift2(p2); p3 = unshift2(p3)
        p4 = unshift2(p4); p5 = unshift2(p5); p6 = unshift2(p6); p7 = unshift2(p7)
    }
}

// MARK: - S-boxes

extension AESPlanes {
    /// SubBytes on all 64 bytes: Boyar–Matthews–Peralta circuit (32 AND, 81 XOR/XNOR).
    /// Circuit input U0 is the most significant bit (plane 7).
    @inline(__always)
    mutating func subBytes() {
        let u0 = p7, u1 = p6, u2 = p5, u3 = p4, u4 = p3, u5 = p2, u6 = p1, u7 = p0
        let y14 = u3 ^ u5, y13 = u0 ^ u6, y9 = u0 ^ u3, y8 = u0 ^ u5
        let t0 = u1 ^ u2, y1 = t0 ^ u7, y4 = y1 ^ u3, y12 = y13 ^ y14
        let y2 = y1 ^ u0, y5 = y1 ^ u6, y3 = y5 ^ y8, t1 = u4 ^ y12
        let y15 = t1 ^ u5, y20 = t1 ^ u1, y6 = y15 ^ u7, y10 = y15 ^ t0
        let y11 = y20 ^ y9, y7 = u7 ^ y11, y17 = y10 ^ y11, y19 = y10 ^ y8
        let y16 = t0 ^ y11, y21 = y13 ^ y16, y18 = u0 ^ y16

        let t2 = y12 & y15, t3 = y3 & y6, t4 = t3 ^ t2, t5 = y4 & u7
        let t6 = t5 ^ t2, t7 = y13 & y16, t8 = y5 & y1, t9 = t8 ^ t7
        let t10 = y2 & y7, t11 = t10 ^ t7, t12 = y9 & y11, t13 = y14 & y17
        let t14 = t13 ^ t12, t15 = y8 & y10, t16 = t15 ^ t12, t17 = t4 ^ y20
        let t18 = t6 ^ t16, t19 = t9 ^ t14, t20 = t11 ^ t16, t21 = t17 ^ t14
        let t22 = t18 ^ y19, t23 = t19 ^ y21, t24 = t20 ^ y18, t25 = t21 ^ t22
        let t26 = t21 & t23, t27 = t24 ^ t26, t28 = t25 & t27, t29 = t28 ^ t22
        let t30 = t23 ^ t24, t31 = t22 ^ t26, t32 = t31 & t30, t33 = t32 ^ t24
        let t34 = t23 ^ t33, t35 = t27 ^ t33, t36 = t24 & t35, t37 = t36 ^ t34
        let t38 = t27 ^ t36, t39 = t29 & t38, t40 = t25 ^ t39, t41 = t40 ^ t37
        let t42 = t29 ^ t33, t43 = t29 ^ t40, t44 = t33 ^ t37, t45 = t42 ^ t41

        let z0 = t44 & y15, z1 = t37 & y6, z2 = t33 & u7, z3 = t43 & y16
        let z4 = t40 & y1, z5 = t29 & y7, z6 = t42 & y11, z7 = t45 & y17
        let z8 = t41 & y10, z9 = t44 & y12, z10 = t37 & y3, z11 = t33 & y4
        let z12 = t43 & y13, z13 = t40 & y5, z14 = t29 & y2, z15 = t42 & y9
        let z16 = t45 & y14, z17 = t41 & y8

        let tc1 = z15 ^ z16, tc2 = z10 ^ tc1, tc3 = z9 ^ tc2, tc4 = z0 ^ z2
        let tc5 = z1 ^ z0, tc6 = z3 ^ z4, tc7 = z12 ^ tc4, tc8 = z7 ^ tc6
        let tc9 = z8 ^ tc7, tc10 = tc8 ^ tc9, tc11 = tc6 ^ tc5, tc12 = z3 ^ z5
        let tc13 = z13 ^ tc1, tc14 = tc4 ^ tc12
        let s3 = tc3 ^ tc11
        let tc16 = z6 ^ tc8, tc17 = z14 ^ tc10, tc18 = tc13 ^ tc14
        let s7 = ~(z12 ^ tc18)
        let tc20 = z15 ^ tc16, tc21 = tc2 ^ z11
        let s0 = tc3 ^ tc16
        let s6 = ~(tc10 ^ tc18)
        let s4 = tc14 ^ s3
        let s1 = ~(s3 ^ tc16)
        let tc26 = tc17 ^ tc20
        let s2 = ~(tc26 ^ z17)
        let s5 = tc21 ^ tc17
        p7 = s0; p6 = s1; p5 = s2; p4 = s3; p3 = s4; p2 = s5; p1 = s6; p0 = s7
    }

    /// InvSubBytes on all 64 bytes: the inverse circuit of the same team (Boyar, Matthews, Peralta).
    @inline(__always)
    mutating func inverseSubBytes() {
        let u0 = p7, u1 = p6, u2 = p5, u3 = p4, u4 = p3, u5 = p2, u6 = p1, u7 = p0
        let t23 = u0 ^ u3, t22 = ~(u1 ^ u3), t2 = ~(u0 ^ u1), t1 = u3 ^ u4
        let t24 = ~(u4 ^ u7), r5 = u6 ^ u7, t8 = ~(u1 ^ t23), t19 = t22 ^ r5
        let t9 = ~(u7 ^ t1), t10 = t2 ^ t24, t13 = t2 ^ r5, t3 = t1 ^ r5
        let t25 = ~(u2 ^ t1), r13 = u1 ^ u6, t17 = ~(u2 ^ t19), t20 = t24 ^ r13
        let t4 = u4 ^ t8, r17 = ~(u2 ^ u5), r18 = ~(u5 ^ u6), r19 = ~(u2 ^ u4)
        let y5 = u0 ^ r17, t6 = t22 ^ r17, t16 = r13 ^ r19, t27 = t1 ^ r18
        let t15 = t10 ^ t27, t14 = t10 ^ r18, t26 = t3 ^ t16

        let m1 = t13 & t6, m2 = t23 & t8, m3 = t14 ^ m1, m4 = t19 & y5
        let m5 = m4 ^ m1, m6 = t3 & t16, m7 = t22 & t9, m8 = t26 ^ m6
        let m9 = t20 & t17, m10 = m9 ^ m6, m11 = t1 & t15, m12 = t4 & t27
        let m13 = m12 ^ m11, m14 = t2 & t10, m15 = m14 ^ m11, m16 = m3 ^ m2
        let m17 = m5 ^ t24, m18 = m8 ^ m7, m19 = m10 ^ m15, m20 = m16 ^ m13
        let m21 = m17 ^ m15, m22 = m18 ^ m13, m23 = m19 ^ t25, m24 = m22 ^ m23
        let m25 = m22 & m20, m26 = m21 ^ m25, m27 = m20 ^ m21, m28 = m23 ^ m25
        let m29 = m28 & m27, m30 = m26 & m24, m31 = m20 & m23, m32 = m27 & m31
        let m33 = m27 ^ m25, m34 = m21 & m22, m35 = m24 & m34, m36 = m24 ^ m25
        let m37 = m21 ^ m29, m38 = m32 ^ m33, m39 = m23 ^ m30, m40 = m35 ^ m36
        let m41 = m38 ^ m40, m42 = m37 ^ m39, m43 = m37 ^ m38, m44 = m39 ^ m40
        let m45 = m42 ^ m41

        let m46 = m44 & t6, m47 = m40 & t8, m48 = m39 & y5, m49 = m43 & t16
        let m50 = m38 & t9, m51 = m37 & t17, m52 = m42 & t15, m53 = m45 & t27
        let m54 = m41 & t10, m55 = m44 & t13, m56 = m40 & t23, m57 = m39 & t19
        let m58 = m43 & t3, m59 = m38 & t22, m60 = m37 & t20, m61 = m42 & t1
        let m62 = m45 & t4, m63 = m41 & t2

        let q0 = m52 ^ m61, q1 = m58 ^ m59, q2 = m54 ^ m62, q3 = m47 ^ m50
        let q4 = m48 ^ m56, q5 = m46 ^ m51, q6 = m49 ^ m60, q7 = q0 ^ q1
        let q8 = m50 ^ m53, q9 = m55 ^ m63, q10 = m57 ^ q4, q11 = q0 ^ q3
        let q12 = m46 ^ m48, q13 = m49 ^ m51, q14 = m49 ^ m62, q15 = m54 ^ m59
        let q16 = m57 ^ m61, q17 = m58 ^ q2, q18 = m63 ^ q5, q19 = q2 ^ q3
        let q20 = q4 ^ q6, q22 = q2 ^ q7, q23 = q7 ^ q8, q24 = q5 ^ q7
        let q25 = q6 ^ q10, q26 = q9 ^ q11, q27 = q10 ^ q18, q28 = q11 ^ q25
        let q29 = q15 ^ q20

        p7 = q13 ^ q22; p6 = q26 ^ q29; p5 = q17 ^ q28; p4 = q12 ^ q22
        p3 = q23 ^ q27; p2 = q19 ^ q24; p1 = q14 ^ q23; p0 = q9 ^ q16
    }
}

// MARK: - Rounds

extension AESPlanes {
    /// AES-256 encryption of the four states. `keys` holds 15 round keys of 8 planes each, stored
    /// pre-shifted for round j with j mod 4 pending ShiftRows.
    @inline(__always)
    mutating func encrypt256(_ keys: UnsafePointer<UInt64>) {
        xorKey(keys)
        var k = keys + 8
        for _ in 0..<3 {
            subBytes(); mixColumns(1); xorKey(k)
            subBytes(); mixColumns(2); xorKey(k + 8)
            subBytes(); mixColumns(3); xorKey(k + 16)
            subBytes(); mixColumns(0); xorKey(k + 24)
            k += 32
        }
        subBytes(); mixColumns(1); xorKey(k)
        subBytes(); xorKey(k + 8)
        unshiftTwo()
    }

    /// AES-256 decryption (the straight inverse cipher, FIPS 197 §5.3). `keys` holds the 15 round
    /// keys in application order (round key 14 first), each stored pre-shifted for its position.
    @inline(__always)
    mutating func decrypt256(_ keys: UnsafePointer<UInt64>) {
        xorKey(keys)
        var k = keys + 8
        // Round keys 13...1 are met with (j + 2) mod 4 pending shifts: 3, 2, 1, 0, 3, ...
        for _ in 0..<3 {
            inverseSubBytes(); xorKey(k); inverseMixColumns(3)
            inverseSubBytes(); xorKey(k + 8); inverseMixColumns(2)
            inverseSubBytes(); xorKey(k + 16); inverseMixColumns(1)
            inverseSubBytes(); xorKey(k + 24); inverseMixColumns(0)
            k += 32
        }
        inverseSubBytes(); xorKey(k); inverseMixColumns(3)
        inverseSubBytes(); xorKey(k + 8)
        unshiftTwo()
    }
}

// MARK: - Packing

/// Exchanges a word-index bit with in-word address bit q (shift = 2^q, mask = positions with q = 0):
/// the bits of `low` at q = 1 trade places with the bits of `high` at q = 0.
@inline(__always) private func swapMove(_ low: inout UInt64, _ high: inout UInt64, _ mask: UInt64, _ shift: UInt64) {
    let t = ((low >> shift) ^ high) & mask
    high ^= t
    low ^= t << shift
}

/// The even (odd: `odd`) bytes of a 16-byte block, given as two little-endian words.
@inline(__always) private func gatherBytes(_ lo: UInt64, _ hi: UInt64, odd: Bool) -> UInt64 {
    @inline(__always) func compress(_ v: UInt64) -> UInt64 {
        var x = v & 0x00FF_00FF_00FF_00FF
        x = (x | (x >> 8)) & 0x0000_FFFF_0000_FFFF
        return (x | (x >> 16)) & 0x0000_0000_FFFF_FFFF
    }
    return odd ? compress(lo >> 8) | (compress(hi >> 8) << 32) : compress(lo) | (compress(hi) << 32)
}

/// Inverse of `gatherBytes`: spreads 4 bytes to the even byte positions of a word.
@inline(__always) private func spreadBytes(_ v: UInt64) -> UInt64 {
    var x = v & 0x0000_0000_FFFF_FFFF
    x = (x | (x << 16)) & 0x0000_FFFF_0000_FFFF
    return (x | (x << 8)) & 0x00FF_00FF_00FF_00FF
}

extension AESPlanes {
    /// Cross-word bit exchanges shared by packing and unpacking (the transform is an involution).
    /// Word index [b1 b0 j0] trades places with in-word address bits [k1 k0 k2].
    @inline(__always)
    private static func exchange(_ w: inout (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)) {
        // word bit 0 (j0) <-> address bit 2 (k2): shift 4
        swapMove(&w.0, &w.1, 0x0F0F_0F0F_0F0F_0F0F, 4); swapMove(&w.2, &w.3, 0x0F0F_0F0F_0F0F_0F0F, 4)
        swapMove(&w.4, &w.5, 0x0F0F_0F0F_0F0F_0F0F, 4); swapMove(&w.6, &w.7, 0x0F0F_0F0F_0F0F_0F0F, 4)
        // word bit 1 (b0) <-> address bit 0 (k0): shift 1
        swapMove(&w.0, &w.2, 0x5555_5555_5555_5555, 1); swapMove(&w.1, &w.3, 0x5555_5555_5555_5555, 1)
        swapMove(&w.4, &w.6, 0x5555_5555_5555_5555, 1); swapMove(&w.5, &w.7, 0x5555_5555_5555_5555, 1)
        // word bit 2 (b1) <-> address bit 1 (k1): shift 2
        swapMove(&w.0, &w.4, 0x3333_3333_3333_3333, 2); swapMove(&w.1, &w.5, 0x3333_3333_3333_3333, 2)
        swapMove(&w.2, &w.6, 0x3333_3333_3333_3333, 2); swapMove(&w.3, &w.7, 0x3333_3333_3333_3333, 2)
    }

    /// Loads four blocks (64 bytes at `input`, block b at offset 16b) into bit planes.
    @inline(__always)
    init(loading input: UnsafeRawPointer) {
        @inline(__always) func word(_ offset: Int) -> UInt64 {
            UInt64(littleEndian: input.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        let l0 = word(0), h0 = word(8), l1 = word(16), h1 = word(24)
        let l2 = word(32), h2 = word(40), l3 = word(48), h3 = word(56)
        var w = (gatherBytes(l0, h0, odd: false), gatherBytes(l0, h0, odd: true),
                 gatherBytes(l1, h1, odd: false), gatherBytes(l1, h1, odd: true),
                 gatherBytes(l2, h2, odd: false), gatherBytes(l2, h2, odd: true),
                 gatherBytes(l3, h3, odd: false), gatherBytes(l3, h3, odd: true))
        AESPlanes.exchange(&w)
        // Word index is now [k1 k0 k2].
        p0 = w.0; p4 = w.1; p1 = w.2; p5 = w.3; p2 = w.4; p6 = w.5; p3 = w.6; p7 = w.7
    }

    /// Stores the four blocks to `output` (64 bytes).
    @inline(__always)
    func store(to output: UnsafeMutableRawPointer) {
        var w = (p0, p4, p1, p5, p2, p6, p3, p7)
        AESPlanes.exchange(&w)
        @inline(__always) func put(_ offset: Int, _ even: UInt64, _ odd: UInt64) {
            let lo = spreadBytes(even) | (spreadBytes(odd) << 8)
            let hi = spreadBytes(even >> 32) | (spreadBytes(odd >> 32) << 8)
            output.storeBytes(of: lo.littleEndian, toByteOffset: offset, as: UInt64.self)
            output.storeBytes(of: hi.littleEndian, toByteOffset: offset + 8, as: UInt64.self)
        }
        put(0, w.0, w.1); put(16, w.2, w.3); put(32, w.4, w.5); put(48, w.6, w.7)
    }
}
