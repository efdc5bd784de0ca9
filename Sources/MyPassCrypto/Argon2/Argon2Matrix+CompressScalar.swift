/// The Argon2 compression function G (RFC 9106 §3.5-3.6) in plain 64-bit scalar code: the
/// readable reference for the `SIMD4<UInt64>` version in `Argon2Matrix+Compress.swift`, and the
/// one debug builds use, because unoptimised SIMD code is about a hundred times slower while this
/// stays usable. Both run every Argon2 vector: this one under `swift test`, the SIMD one under
/// `swift test -c release` (CI).
///
/// wasm32 uses this one in release builds too: built without SIMD128, the `SIMD4<UInt64>` code is
/// split into scalar words there, and its rotations by run-time counts and lane shuffles cost
/// shifts, ors and masks where this code's constant rotations are one `i64.rotr` each. In V8
/// (headless Chromium) a 64 MiB, 2-pass Argon2d fill took 87 ms with this code against 117 ms
/// with the SIMD4 code (-Osize, medians of nine alternating runs; SIMD128 builds of either shape
/// took 155 to 180 ms). The embedded wasm32 demo runs the Argon2 known answers on it.

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

/// The permutation P (RFC 9106 §3.6) on 16 words.
@inline(__always)
private func permute(
    _ v0: inout UInt64, _ v1: inout UInt64, _ v2: inout UInt64, _ v3: inout UInt64, _ v4: inout UInt64, _ v5: inout UInt64, _ v6: inout UInt64, _ v7: inout UInt64, _ v8: inout UInt64, _ v9: inout UInt64, _ v10: inout UInt64, _ v11: inout UInt64, _ v12: inout UInt64, _ v13: inout UInt64, _ v14: inout UInt64, _ v15: inout UInt64
) {
    mix(&v0, &v4, &v8, &v12)
    mix(&v1, &v5, &v9, &v13)
    mix(&v2, &v6, &v10, &v14)
    mix(&v3, &v7, &v11, &v15)
    mix(&v0, &v5, &v10, &v15)
    mix(&v1, &v6, &v11, &v12)
    mix(&v2, &v7, &v8, &v13)
    mix(&v3, &v4, &v9, &v14)
}

extension Argon2Matrix {
    /// next = G(previous, reference), or next ^= G(previous, reference) when `xorInto` (version
    /// 0x13 after the first pass). `scratch` holds 128 words; `next` may alias `reference`.
    /// The input XOR is fused into the row pass and the final XOR into the column pass.
    @inline(__always)
    static func compressScalar(
        _ previous: UnsafePointer<UInt64>, _ reference: UnsafePointer<UInt64>, into next: UnsafeMutablePointer<UInt64>,
        scratch r: UnsafeMutablePointer<UInt64>, xorInto: Bool
    ) {
        // Rows: R = X ^ Y, next = R (or next ^= R), then P on words 16i ... 16i + 15, kept in scratch.
        for row in 0..<8 {
            let x = previous + 16 * row, y = reference + 16 * row
            let n = next + 16 * row, q = r + 16 * row
            var v0 = x[0] ^ y[0]
            var v1 = x[1] ^ y[1]
            var v2 = x[2] ^ y[2]
            var v3 = x[3] ^ y[3]
            var v4 = x[4] ^ y[4]
            var v5 = x[5] ^ y[5]
            var v6 = x[6] ^ y[6]
            var v7 = x[7] ^ y[7]
            var v8 = x[8] ^ y[8]
            var v9 = x[9] ^ y[9]
            var v10 = x[10] ^ y[10]
            var v11 = x[11] ^ y[11]
            var v12 = x[12] ^ y[12]
            var v13 = x[13] ^ y[13]
            var v14 = x[14] ^ y[14]
            var v15 = x[15] ^ y[15]
            if xorInto {
                n[0] ^= v0
                n[1] ^= v1
                n[2] ^= v2
                n[3] ^= v3
                n[4] ^= v4
                n[5] ^= v5
                n[6] ^= v6
                n[7] ^= v7
                n[8] ^= v8
                n[9] ^= v9
                n[10] ^= v10
                n[11] ^= v11
                n[12] ^= v12
                n[13] ^= v13
                n[14] ^= v14
                n[15] ^= v15
            } else {
                n[0] = v0
                n[1] = v1
                n[2] = v2
                n[3] = v3
                n[4] = v4
                n[5] = v5
                n[6] = v6
                n[7] = v7
                n[8] = v8
                n[9] = v9
                n[10] = v10
                n[11] = v11
                n[12] = v12
                n[13] = v13
                n[14] = v14
                n[15] = v15
            }
            permute(&v0, &v1, &v2, &v3, &v4, &v5, &v6, &v7, &v8, &v9, &v10, &v11, &v12, &v13, &v14, &v15)
            q[0] = v0
            q[1] = v1
            q[2] = v2
            q[3] = v3
            q[4] = v4
            q[5] = v5
            q[6] = v6
            q[7] = v7
            q[8] = v8
            q[9] = v9
            q[10] = v10
            q[11] = v11
            q[12] = v12
            q[13] = v13
            q[14] = v14
            q[15] = v15
        }
        // Columns: P on words 2i, 2i + 1, 2i + 16, 2i + 17, ..., 2i + 113, XORed into next.
        for column in 0..<8 {
            let q = r + 2 * column, n = next + 2 * column
            var v0 = q[0]
            var v1 = q[1]
            var v2 = q[16]
            var v3 = q[17]
            var v4 = q[32]
            var v5 = q[33]
            var v6 = q[48]
            var v7 = q[49]
            var v8 = q[64]
            var v9 = q[65]
            var v10 = q[80]
            var v11 = q[81]
            var v12 = q[96]
            var v13 = q[97]
            var v14 = q[112]
            var v15 = q[113]
            permute(&v0, &v1, &v2, &v3, &v4, &v5, &v6, &v7, &v8, &v9, &v10, &v11, &v12, &v13, &v14, &v15)
            n[0] ^= v0
            n[1] ^= v1
            n[16] ^= v2
            n[17] ^= v3
            n[32] ^= v4
            n[33] ^= v5
            n[48] ^= v6
            n[49] ^= v7
            n[64] ^= v8
            n[65] ^= v9
            n[80] ^= v10
            n[81] ^= v11
            n[96] ^= v12
            n[97] ^= v13
            n[112] ^= v14
            n[113] ^= v15
        }
    }
}
