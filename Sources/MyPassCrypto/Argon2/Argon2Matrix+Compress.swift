/// The Argon2 compression function G (RFC 9106 §3.5-3.6): the BLAKE2b round without message
/// words, with each addition replaced by BlaMka's a + b + 2 · lo32(a) · lo32(b).

@inline(__always)
private func rotateRight(_ x: UInt64, _ n: UInt64) -> UInt64 { (x &>> n) | (x &<< (64 &- n)) }

/// a + b + 2 · lo32(a) · lo32(b): a 32 × 32 → 64-bit multiply, wrapping.
@inline(__always)
private func blamka(_ a: UInt64, _ b: UInt64) -> UInt64 {
    a &+ b &+ 2 &* ((a & 0xFFFF_FFFF) &* (b & 0xFFFF_FFFF))
}

/// GB (RFC 9106 §3.6).
@inline(__always)
private func mix(_ a: inout UInt64, _ b: inout UInt64, _ c: inout UInt64, _ d: inout UInt64) {
    a = blamka(a, b)
    d = rotateRight(d ^ a, 32)
    c = blamka(c, d)
    b = rotateRight(b ^ c, 24)
    a = blamka(a, b)
    d = rotateRight(d ^ a, 16)
    c = blamka(c, d)
    b = rotateRight(b ^ c, 63)
}

/// The permutation P (RFC 9106 §3.6) over 16 words at offsets `o(0)...o(15)` from `base`.
@inline(__always)
private func permute(_ base: UnsafeMutablePointer<UInt64>, _ offset: (Int) -> Int) {
    var v0 = base[offset(0)], v1 = base[offset(1)], v2 = base[offset(2)], v3 = base[offset(3)]
    var v4 = base[offset(4)], v5 = base[offset(5)], v6 = base[offset(6)], v7 = base[offset(7)]
    var v8 = base[offset(8)], v9 = base[offset(9)], v10 = base[offset(10)], v11 = base[offset(11)]
    var v12 = base[offset(12)], v13 = base[offset(13)], v14 = base[offset(14)], v15 = base[offset(15)]
    mix(&v0, &v4, &v8, &v12)
    mix(&v1, &v5, &v9, &v13)
    mix(&v2, &v6, &v10, &v14)
    mix(&v3, &v7, &v11, &v15)
    mix(&v0, &v5, &v10, &v15)
    mix(&v1, &v6, &v11, &v12)
    mix(&v2, &v7, &v8, &v13)
    mix(&v3, &v4, &v9, &v14)
    base[offset(0)] = v0; base[offset(1)] = v1; base[offset(2)] = v2; base[offset(3)] = v3
    base[offset(4)] = v4; base[offset(5)] = v5; base[offset(6)] = v6; base[offset(7)] = v7
    base[offset(8)] = v8; base[offset(9)] = v9; base[offset(10)] = v10; base[offset(11)] = v11
    base[offset(12)] = v12; base[offset(13)] = v13; base[offset(14)] = v14; base[offset(15)] = v15
}

extension Argon2Matrix {
    /// next = G(previous, reference), or next ^= G(previous, reference) when `xorInto` (version
    /// 0x13 after the first pass). `scratch` holds 128 words; `next` may alias `reference`.
    @inline(__always)
    static func compress(
        _ previous: UnsafePointer<UInt64>, _ reference: UnsafePointer<UInt64>, into next: UnsafeMutablePointer<UInt64>,
        scratch r: UnsafeMutablePointer<UInt64>, xorInto: Bool
    ) {
        if xorInto {
            for k in 0..<128 {
                let x = previous[k] ^ reference[k]
                r[k] = x
                next[k] ^= x
            }
        } else {
            for k in 0..<128 {
                let x = previous[k] ^ reference[k]
                r[k] = x
                next[k] = x
            }
        }
        for row in 0..<8 {
            permute(r + 16 * row) { $0 }
        }
        for column in 0..<8 {
            permute(r + 2 * column) { ($0 & 1) + 16 * ($0 >> 1) }
        }
        for k in 0..<128 { next[k] ^= r[k] }
    }
}

extension Argon2Matrix {
    @inline(__always)
    static func compress(
        _ previous: UnsafeMutablePointer<UInt64>, _ reference: UnsafeMutablePointer<UInt64>,
        into next: UnsafeMutablePointer<UInt64>, scratch r: UnsafeMutablePointer<UInt64>, xorInto: Bool
    ) {
        compress(UnsafePointer(previous), UnsafePointer(reference), into: next, scratch: r, xorInto: xorInto)
    }
}
