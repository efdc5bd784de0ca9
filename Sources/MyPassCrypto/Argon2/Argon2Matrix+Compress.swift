/// The Argon2 compression function G (RFC 9106 §3.5-3.6): the BLAKE2b round without message
/// words, with each addition replaced by BlaMka's a + b + 2 · lo32(a) · lo32(b).
///
/// Four GB mixings run side by side in `SIMD4<UInt64>` lanes: a = (v0 ... v3), b = (v4 ... v7),
/// c = (v8 ... v11), d = (v12 ... v15), with the diagonal step done by rotating the lanes of b, c
/// and d. On x86-64's baseline (SSE2) each vector is two registers, and the 32 × 32 → 64-bit
/// multiply is one `pmuludq` per two words.
///
/// LLVM turns a shift pair that it can prove to be a rotation into scalar `ror` instructions
/// (SSE2 has no vector rotate), moving every word out of and back into the vector registers and
/// losing to plain scalar code. So the shift counts of the 24- and 63-bit rotations come in as
/// run-time values (``Argon2Matrix/RotationCounts``) that it cannot prove complementary, and the
/// rotations stay vector shifts; the rotations by 32 and 16 are shuffles of 32- and 16-bit lanes
/// (`pshufd`; `pshuflw` + `pshufhw`, two instructions instead of four shifts, copies and ors).

typealias WordQuad = SIMD4<UInt64>

extension Argon2Matrix {
    /// Right and left shift counts of the two rotations done with shifts: always (24, 40) and
    /// (63, 1). They reach the fill through Dispatch's closure, so the optimiser treats them as
    /// unknown (see the file comment of `Argon2Matrix+Compress.swift`).
    struct RotationCounts: Sendable {
        var right24: UInt64 = 24, left40: UInt64 = 40
        var right63: UInt64 = 63, left1: UInt64 = 1
    }
}

@inline(__always)
private func rotate(_ x: WordQuad, right: UInt64, left: UInt64) -> WordQuad {
    (x &>> WordQuad(repeating: right)) | (x &<< WordQuad(repeating: left))
}

/// Rotation by 32: swap the 32-bit halves of each word.
@inline(__always)
private func rotateRight32(_ x: WordQuad) -> WordQuad {
    let w = unsafeBitCast(x, to: SIMD8<UInt32>.self)
    return unsafeBitCast(SIMD8<UInt32>(w[1], w[0], w[3], w[2], w[5], w[4], w[7], w[6]), to: WordQuad.self)
}

/// Rotation by 16: move the 16-bit quarters of each word down by one.
@inline(__always)
private func rotateRight16(_ x: WordQuad) -> WordQuad {
    let w = unsafeBitCast(x, to: SIMD16<UInt16>.self)
    #if _endian(little)
    return unsafeBitCast(SIMD16<UInt16>(w[1], w[2], w[3], w[0], w[5], w[6], w[7], w[4],
                                        w[9], w[10], w[11], w[8], w[13], w[14], w[15], w[12]), to: WordQuad.self)
    #else
    return unsafeBitCast(SIMD16<UInt16>(w[3], w[0], w[1], w[2], w[7], w[4], w[5], w[6],
                                        w[11], w[8], w[9], w[10], w[15], w[12], w[13], w[14]), to: WordQuad.self)
    #endif
}

/// a + b + 2 · lo32(a) · lo32(b) in each lane, wrapping.
@inline(__always)
private func blamka(_ a: WordQuad, _ b: WordQuad) -> WordQuad {
    let low = WordQuad(repeating: 0xFFFF_FFFF)
    let product = (a & low) &* (b & low)
    return a &+ b &+ product &+ product
}

/// GB (RFC 9106 §3.6) on four columns (or diagonals) at once.
@inline(__always)
private func mix(
    _ a: inout WordQuad, _ b: inout WordQuad, _ c: inout WordQuad, _ d: inout WordQuad,
    _ counts: Argon2Matrix.RotationCounts
) {
    a = blamka(a, b)
    d = rotateRight32(d ^ a)
    c = blamka(c, d)
    b = rotate(b ^ c, right: counts.right24, left: counts.left40)
    a = blamka(a, b)
    d = rotateRight16(d ^ a)
    c = blamka(c, d)
    b = rotate(b ^ c, right: counts.right63, left: counts.left1)
}

/// The permutation P (RFC 9106 §3.6) on 16 words: a = (v0 ... v3) ... d = (v12 ... v15).
@inline(__always)
private func permute(
    _ a: inout WordQuad, _ b: inout WordQuad, _ c: inout WordQuad, _ d: inout WordQuad,
    _ counts: Argon2Matrix.RotationCounts
) {
    // Columns: GB(v0, v4, v8, v12), GB(v1, v5, v9, v13), GB(v2, v6, v10, v14), GB(v3, v7, v11, v15).
    mix(&a, &b, &c, &d, counts)
    // Diagonals: GB(v0, v5, v10, v15), GB(v1, v6, v11, v12), GB(v2, v7, v8, v13), GB(v3, v4, v9, v14).
    b = WordQuad(b[1], b[2], b[3], b[0])
    c = WordQuad(c[2], c[3], c[0], c[1])
    d = WordQuad(d[3], d[0], d[1], d[2])
    mix(&a, &b, &c, &d, counts)
    b = WordQuad(b[3], b[0], b[1], b[2])
    c = WordQuad(c[2], c[3], c[0], c[1])
    d = WordQuad(d[1], d[2], d[3], d[0])
}

/// Words `first`, `first + 1`, `second`, `second + 1` at `p`.
@inline(__always)
private func load(_ p: UnsafeRawPointer, _ first: Int, _ second: Int) -> WordQuad {
    WordQuad(
        lowHalf: p.loadUnaligned(fromByteOffset: 8 * first, as: SIMD2<UInt64>.self),
        highHalf: p.loadUnaligned(fromByteOffset: 8 * second, as: SIMD2<UInt64>.self))
}

@inline(__always)
private func store(_ v: WordQuad, _ p: UnsafeMutableRawPointer, _ first: Int, _ second: Int) {
    p.storeBytes(of: v.lowHalf, toByteOffset: 8 * first, as: SIMD2<UInt64>.self)
    p.storeBytes(of: v.highHalf, toByteOffset: 8 * second, as: SIMD2<UInt64>.self)
}

extension Argon2Matrix {
    /// next = G(previous, reference), or next ^= G(previous, reference) when `xorInto` (version
    /// 0x13 after the first pass). `scratch` holds 128 words; `next` may alias `reference`.
    ///
    /// R = X ^ Y is fused into the row pass (which also stores R, or R ^ next, into `next`), and
    /// the final XOR into the column pass, so each block is read and written once per pass.
    @inline(__always)
    static func compress(
        _ previous: UnsafePointer<UInt64>, _ reference: UnsafePointer<UInt64>, into next: UnsafeMutablePointer<UInt64>,
        scratch r: UnsafeMutablePointer<UInt64>, xorInto: Bool, counts: RotationCounts
    ) {
        let x = UnsafeRawPointer(previous), y = UnsafeRawPointer(reference)
        let n = UnsafeMutableRawPointer(next), s = UnsafeMutableRawPointer(r)
        // Rows: words 16i ... 16i + 15.
        for row in 0..<8 {
            let o = 16 * row
            var a = load(x, o, o + 2) ^ load(y, o, o + 2)
            var b = load(x, o + 4, o + 6) ^ load(y, o + 4, o + 6)
            var c = load(x, o + 8, o + 10) ^ load(y, o + 8, o + 10)
            var d = load(x, o + 12, o + 14) ^ load(y, o + 12, o + 14)
            if xorInto {
                store(load(n, o, o + 2) ^ a, n, o, o + 2)
                store(load(n, o + 4, o + 6) ^ b, n, o + 4, o + 6)
                store(load(n, o + 8, o + 10) ^ c, n, o + 8, o + 10)
                store(load(n, o + 12, o + 14) ^ d, n, o + 12, o + 14)
            } else {
                store(a, n, o, o + 2)
                store(b, n, o + 4, o + 6)
                store(c, n, o + 8, o + 10)
                store(d, n, o + 12, o + 14)
            }
            permute(&a, &b, &c, &d, counts)
            store(a, s, o, o + 2)
            store(b, s, o + 4, o + 6)
            store(c, s, o + 8, o + 10)
            store(d, s, o + 12, o + 14)
        }
        // Columns: words 2i, 2i + 1, 2i + 16, 2i + 17, ..., 2i + 112, 2i + 113.
        for column in 0..<8 {
            let o = 2 * column
            var a = load(s, o, o + 16), b = load(s, o + 32, o + 48)
            var c = load(s, o + 64, o + 80), d = load(s, o + 96, o + 112)
            permute(&a, &b, &c, &d, counts)
            store(load(n, o, o + 16) ^ a, n, o, o + 16)
            store(load(n, o + 32, o + 48) ^ b, n, o + 32, o + 48)
            store(load(n, o + 64, o + 80) ^ c, n, o + 64, o + 80)
            store(load(n, o + 96, o + 112) ^ d, n, o + 96, o + 112)
        }
    }
}
