/// SHA-512 round constants K0...K79 (FIPS 180-4 §4.2.3).
@usableFromInline let sha512RoundConstants: [UInt64] = [
    0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc,
    0x3956c25bf348b538, 0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118,
    0xd807aa98a3030242, 0x12835b0145706fbe, 0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2,
    0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235, 0xc19bf174cf692694,
    0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
    0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5,
    0x983e5152ee66dfab, 0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4,
    0xc6e00bf33da88fc2, 0xd5a79147930aa725, 0x06ca6351e003826f, 0x142929670a0e6e70,
    0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed, 0x53380d139d95b3df,
    0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
    0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30,
    0xd192e819d6ef5218, 0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8,
    0x19a4c116b8d2d0c8, 0x1e376c085141ab53, 0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8,
    0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373, 0x682e6ff3d6b2b8a3,
    0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
    0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b,
    0xca273eceea26619c, 0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178,
    0x06f067aa72176fba, 0x0a637dc5a2c898a6, 0x113f9804bef90dae, 0x1b710b35131c471b,
    0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc, 0x431d67c49c100d4c,
    0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817,
]

extension SHA512 {
    /// Compresses `blockCount` consecutive 128-byte blocks at `blocks` into `state` (the portable
    /// code: ``SHA512Rounds/compress(_:_:blockCount:threeRotations:)`` with nested rotations).
    @usableFromInline
    static func compress(_ state: inout State, _ blocks: UnsafeRawPointer, blockCount: Int) {
        SHA512Rounds.compress(&state, blocks, blockCount: blockCount, threeRotations: false)
    }
}

/// The SHA-512 compression function, inlinable so that a module compiled for a newer CPU (the
/// x86_64 BMI2 kernel) compiles the same rounds with its instructions. Public only to the kernel
/// modules (`@_spi(Kernels)`): this toolchain serialises no `@inlinable` body of a `package`
/// declaration, so `package` would leave the kernel calling this module's compiled copy.
@_spi(Kernels) public enum SHA512Rounds {
    @inlinable @inline(__always)
    static func rotateRight(_ x: UInt64, _ n: UInt64) -> UInt64 { (x &>> n) | (x &<< (64 &- n)) }

    /// σ0 and σ1 of the message schedule (FIPS 180-4 §4.1.2, (4.12) and (4.13)). Rotations nest:
    /// ROTR¹(x) ^ ROTR⁸(x) = ROTR¹(x ^ ROTR⁷(x)), which rotates a value already in a register instead
    /// of copying `x` once per rotation (on x86_64 without BMI2, a rotation overwrites its operand);
    /// `threeRotations` writes them as three (see ``round``).
    @inlinable @inline(__always)
    static func smallSigma0(_ x: UInt64, _ threeRotations: Bool) -> UInt64 {
        threeRotations ? rotateRight(x, 1) ^ rotateRight(x, 8) ^ (x &>> 7) : rotateRight(x ^ rotateRight(x, 7), 1) ^ (x &>> 7)
    }
    @inlinable @inline(__always)
    static func smallSigma1(_ x: UInt64, _ threeRotations: Bool) -> UInt64 {
        threeRotations ? rotateRight(x, 19) ^ rotateRight(x, 61) ^ (x &>> 6) : rotateRight(x ^ rotateRight(x, 42), 19) ^ (x &>> 6)
    }

    /// One message schedule step (FIPS 180-4 §6.4.2 step 1, t ≥ 16) on a rolling 16-word window:
    /// `w0` holds W[t-16] on entry and W[t] on exit; `w1`, `w9` and `w14` are W[t-15], W[t-7], W[t-2].
    @inlinable @inline(__always)
    static func expand(_ w0: inout UInt64, _ w1: UInt64, _ w9: UInt64, _ w14: UInt64, _ threeRotations: Bool) {
        w0 = w0 &+ smallSigma0(w1, threeRotations) &+ w9 &+ smallSigma1(w14, threeRotations)
    }

    /// One SHA-512 round (FIPS 180-4 §6.4.2 step 3) with the variables renamed instead of shifted:
    /// `d` receives the new `e` and `h` the new `a`. `bc` holds b ^ c on entry and a ^ b on exit,
    /// which is the next round's b ^ c, so Maj(a, b, c) = b ^ ((a ^ b) & (b ^ c)) costs three operations.
    /// Σ1(e) = ROTR¹⁴(e ^ ROTR⁴(e ^ ROTR²³(e))) and Σ0(a) = ROTR²⁸(a ^ ROTR⁶(a ^ ROTR⁵(a))), nested as
    /// σ0 and σ1 are (about 12 % faster here than three rotations of the same value) unless
    /// `threeRotations` (with BMI2, RORX rotates into another register: the three rotations of a
    /// value then run side by side, and that is faster).
    @inlinable @inline(__always)
    static func round(
        _ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: inout UInt64,
        _ e: UInt64, _ f: UInt64, _ g: UInt64, _ h: inout UInt64, _ k: UInt64, _ w: UInt64, _ bc: inout UInt64,
        _ threeRotations: Bool
    ) {
        let bigSigma1 = threeRotations ? rotateRight(e, 14) ^ rotateRight(e, 18) ^ rotateRight(e, 41)
            : rotateRight(e ^ rotateRight(e ^ rotateRight(e, 23), 4), 14)
        let bigSigma0 = threeRotations ? rotateRight(a, 28) ^ rotateRight(a, 34) ^ rotateRight(a, 39)
            : rotateRight(a ^ rotateRight(a ^ rotateRight(a, 5), 6), 28)
        let t1 = h &+ k &+ w &+ (g ^ (e & (f ^ g))) &+ bigSigma1
        let ab = a ^ b
        let t2 = bigSigma0 &+ (b ^ (ab & bc))
        bc = ab
        d = d &+ t1
        h = t1 &+ t2
    }

    /// Calls `body` with K0...K79 (FIPS 180-4 §4.2.3), 80 words, for a kernel that adds them to
    /// the message schedule itself.
    @inlinable
    public static func withRoundConstants<R>(_ body: (UnsafePointer<UInt64>) -> R) -> R {
        sha512RoundConstants.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    /// Compresses `blockCount` consecutive 128-byte blocks at `blocks` into `state`.
    ///
    /// This is FIPS 180-4 §6.4.2 written out: the 80 rounds are unrolled so that the eight working
    /// variables rotate by name (round t uses the names shifted t places) and the message schedule
    /// is a rolling window of 16 locals `w0`...`w15` (W[t] lives in `w(t mod 16)`, computed by
    /// `expand` just before round t uses it) instead of a 80-word array. Written this way the
    /// compiler keeps the state in registers, folds the round constants into the instructions and
    /// has no array to index or bounds-check (the earlier loop over a 80-word array measured about
    /// 25 % slower).
    ///
    /// - Parameters:
    ///   - state: H0...H7, updated.
    ///   - blocks: `blockCount` × 128 bytes.
    ///   - threeRotations: each Σ and σ as three rotations of the same value (for RORX, BMI2)
    ///     instead of nested ones (for CPUs whose rotate overwrites its operand).
    @inlinable @inline(__always)
    public static func compress(_ state: inout (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64),
                                 _ blocks: UnsafeRawPointer, blockCount: Int, threeRotations: Bool) {
        sha512RoundConstants.withUnsafeBufferPointer { k in
            var (h0, h1, h2, h3, h4, h5, h6, h7) = state
            var block = blocks
            for _ in 0..<blockCount {
                var w0 = UInt64(bigEndian: block.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
                var w1 = UInt64(bigEndian: block.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                var w2 = UInt64(bigEndian: block.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
                var w3 = UInt64(bigEndian: block.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
                var w4 = UInt64(bigEndian: block.loadUnaligned(fromByteOffset: 32, as: UInt64.self))
                var w5 = UInt64(bigEndian: block.loadUnaligned(fromByteOffset: 40, as: UInt64.self))
                var w6 = UInt64(bigEndian: block.loadUnaligned(fromByteOffset: 48, as: UInt64.self))
                var w7 = UInt64(bigEndian: block.loadUnaligned(fromByteOffset: 56, as: UInt64.self))
                var w8 = UInt64(bigEndian: block.loadUnaligned(fromByteOffset: 64, as: UInt64.self))
                var w9 = UInt64(bigEndian: block.loadUnaligned(fromByteOffset: 72, as: UInt64.self))
                var w10 = UInt64(bigEndian: block.loadUnaligned(fromByteOffset: 80, as: UInt64.self))
                var w11 = UInt64(bigEndian: block.loadUnaligned(fromByteOffset: 88, as: UInt64.self))
                var w12 = UInt64(bigEndian: block.loadUnaligned(fromByteOffset: 96, as: UInt64.self))
                var w13 = UInt64(bigEndian: block.loadUnaligned(fromByteOffset: 104, as: UInt64.self))
                var w14 = UInt64(bigEndian: block.loadUnaligned(fromByteOffset: 112, as: UInt64.self))
                var w15 = UInt64(bigEndian: block.loadUnaligned(fromByteOffset: 120, as: UInt64.self))
                var a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7
                var bc = b ^ c

                // Rounds 0...15 take the message words as loaded.
                round(a, b, c, &d, e, f, g, &h, k[0], w0, &bc, threeRotations)
                round(h, a, b, &c, d, e, f, &g, k[1], w1, &bc, threeRotations)
                round(g, h, a, &b, c, d, e, &f, k[2], w2, &bc, threeRotations)
                round(f, g, h, &a, b, c, d, &e, k[3], w3, &bc, threeRotations)
                round(e, f, g, &h, a, b, c, &d, k[4], w4, &bc, threeRotations)
                round(d, e, f, &g, h, a, b, &c, k[5], w5, &bc, threeRotations)
                round(c, d, e, &f, g, h, a, &b, k[6], w6, &bc, threeRotations)
                round(b, c, d, &e, f, g, h, &a, k[7], w7, &bc, threeRotations)
                round(a, b, c, &d, e, f, g, &h, k[8], w8, &bc, threeRotations)
                round(h, a, b, &c, d, e, f, &g, k[9], w9, &bc, threeRotations)
                round(g, h, a, &b, c, d, e, &f, k[10], w10, &bc, threeRotations)
                round(f, g, h, &a, b, c, d, &e, k[11], w11, &bc, threeRotations)
                round(e, f, g, &h, a, b, c, &d, k[12], w12, &bc, threeRotations)
                round(d, e, f, &g, h, a, b, &c, k[13], w13, &bc, threeRotations)
                round(c, d, e, &f, g, h, a, &b, k[14], w14, &bc, threeRotations)
                round(b, c, d, &e, f, g, h, &a, k[15], w15, &bc, threeRotations)

                // Rounds 16...79 extend the schedule one word ahead of each round.
                expand(&w0, w1, w9, w14, threeRotations)
                round(a, b, c, &d, e, f, g, &h, k[16], w0, &bc, threeRotations)
                expand(&w1, w2, w10, w15, threeRotations)
                round(h, a, b, &c, d, e, f, &g, k[17], w1, &bc, threeRotations)
                expand(&w2, w3, w11, w0, threeRotations)
                round(g, h, a, &b, c, d, e, &f, k[18], w2, &bc, threeRotations)
                expand(&w3, w4, w12, w1, threeRotations)
                round(f, g, h, &a, b, c, d, &e, k[19], w3, &bc, threeRotations)
                expand(&w4, w5, w13, w2, threeRotations)
                round(e, f, g, &h, a, b, c, &d, k[20], w4, &bc, threeRotations)
                expand(&w5, w6, w14, w3, threeRotations)
                round(d, e, f, &g, h, a, b, &c, k[21], w5, &bc, threeRotations)
                expand(&w6, w7, w15, w4, threeRotations)
                round(c, d, e, &f, g, h, a, &b, k[22], w6, &bc, threeRotations)
                expand(&w7, w8, w0, w5, threeRotations)
                round(b, c, d, &e, f, g, h, &a, k[23], w7, &bc, threeRotations)
                expand(&w8, w9, w1, w6, threeRotations)
                round(a, b, c, &d, e, f, g, &h, k[24], w8, &bc, threeRotations)
                expand(&w9, w10, w2, w7, threeRotations)
                round(h, a, b, &c, d, e, f, &g, k[25], w9, &bc, threeRotations)
                expand(&w10, w11, w3, w8, threeRotations)
                round(g, h, a, &b, c, d, e, &f, k[26], w10, &bc, threeRotations)
                expand(&w11, w12, w4, w9, threeRotations)
                round(f, g, h, &a, b, c, d, &e, k[27], w11, &bc, threeRotations)
                expand(&w12, w13, w5, w10, threeRotations)
                round(e, f, g, &h, a, b, c, &d, k[28], w12, &bc, threeRotations)
                expand(&w13, w14, w6, w11, threeRotations)
                round(d, e, f, &g, h, a, b, &c, k[29], w13, &bc, threeRotations)
                expand(&w14, w15, w7, w12, threeRotations)
                round(c, d, e, &f, g, h, a, &b, k[30], w14, &bc, threeRotations)
                expand(&w15, w0, w8, w13, threeRotations)
                round(b, c, d, &e, f, g, h, &a, k[31], w15, &bc, threeRotations)

                expand(&w0, w1, w9, w14, threeRotations)
                round(a, b, c, &d, e, f, g, &h, k[32], w0, &bc, threeRotations)
                expand(&w1, w2, w10, w15, threeRotations)
                round(h, a, b, &c, d, e, f, &g, k[33], w1, &bc, threeRotations)
                expand(&w2, w3, w11, w0, threeRotations)
                round(g, h, a, &b, c, d, e, &f, k[34], w2, &bc, threeRotations)
                expand(&w3, w4, w12, w1, threeRotations)
                round(f, g, h, &a, b, c, d, &e, k[35], w3, &bc, threeRotations)
                expand(&w4, w5, w13, w2, threeRotations)
                round(e, f, g, &h, a, b, c, &d, k[36], w4, &bc, threeRotations)
                expand(&w5, w6, w14, w3, threeRotations)
                round(d, e, f, &g, h, a, b, &c, k[37], w5, &bc, threeRotations)
                expand(&w6, w7, w15, w4, threeRotations)
                round(c, d, e, &f, g, h, a, &b, k[38], w6, &bc, threeRotations)
                expand(&w7, w8, w0, w5, threeRotations)
                round(b, c, d, &e, f, g, h, &a, k[39], w7, &bc, threeRotations)
                expand(&w8, w9, w1, w6, threeRotations)
                round(a, b, c, &d, e, f, g, &h, k[40], w8, &bc, threeRotations)
                expand(&w9, w10, w2, w7, threeRotations)
                round(h, a, b, &c, d, e, f, &g, k[41], w9, &bc, threeRotations)
                expand(&w10, w11, w3, w8, threeRotations)
                round(g, h, a, &b, c, d, e, &f, k[42], w10, &bc, threeRotations)
                expand(&w11, w12, w4, w9, threeRotations)
                round(f, g, h, &a, b, c, d, &e, k[43], w11, &bc, threeRotations)
                expand(&w12, w13, w5, w10, threeRotations)
                round(e, f, g, &h, a, b, c, &d, k[44], w12, &bc, threeRotations)
                expand(&w13, w14, w6, w11, threeRotations)
                round(d, e, f, &g, h, a, b, &c, k[45], w13, &bc, threeRotations)
                expand(&w14, w15, w7, w12, threeRotations)
                round(c, d, e, &f, g, h, a, &b, k[46], w14, &bc, threeRotations)
                expand(&w15, w0, w8, w13, threeRotations)
                round(b, c, d, &e, f, g, h, &a, k[47], w15, &bc, threeRotations)

                expand(&w0, w1, w9, w14, threeRotations)
                round(a, b, c, &d, e, f, g, &h, k[48], w0, &bc, threeRotations)
                expand(&w1, w2, w10, w15, threeRotations)
                round(h, a, b, &c, d, e, f, &g, k[49], w1, &bc, threeRotations)
                expand(&w2, w3, w11, w0, threeRotations)
                round(g, h, a, &b, c, d, e, &f, k[50], w2, &bc, threeRotations)
                expand(&w3, w4, w12, w1, threeRotations)
                round(f, g, h, &a, b, c, d, &e, k[51], w3, &bc, threeRotations)
                expand(&w4, w5, w13, w2, threeRotations)
                round(e, f, g, &h, a, b, c, &d, k[52], w4, &bc, threeRotations)
                expand(&w5, w6, w14, w3, threeRotations)
                round(d, e, f, &g, h, a, b, &c, k[53], w5, &bc, threeRotations)
                expand(&w6, w7, w15, w4, threeRotations)
                round(c, d, e, &f, g, h, a, &b, k[54], w6, &bc, threeRotations)
                expand(&w7, w8, w0, w5, threeRotations)
                round(b, c, d, &e, f, g, h, &a, k[55], w7, &bc, threeRotations)
                expand(&w8, w9, w1, w6, threeRotations)
                round(a, b, c, &d, e, f, g, &h, k[56], w8, &bc, threeRotations)
                expand(&w9, w10, w2, w7, threeRotations)
                round(h, a, b, &c, d, e, f, &g, k[57], w9, &bc, threeRotations)
                expand(&w10, w11, w3, w8, threeRotations)
                round(g, h, a, &b, c, d, e, &f, k[58], w10, &bc, threeRotations)
                expand(&w11, w12, w4, w9, threeRotations)
                round(f, g, h, &a, b, c, d, &e, k[59], w11, &bc, threeRotations)
                expand(&w12, w13, w5, w10, threeRotations)
                round(e, f, g, &h, a, b, c, &d, k[60], w12, &bc, threeRotations)
                expand(&w13, w14, w6, w11, threeRotations)
                round(d, e, f, &g, h, a, b, &c, k[61], w13, &bc, threeRotations)
                expand(&w14, w15, w7, w12, threeRotations)
                round(c, d, e, &f, g, h, a, &b, k[62], w14, &bc, threeRotations)
                expand(&w15, w0, w8, w13, threeRotations)
                round(b, c, d, &e, f, g, h, &a, k[63], w15, &bc, threeRotations)

                expand(&w0, w1, w9, w14, threeRotations)
                round(a, b, c, &d, e, f, g, &h, k[64], w0, &bc, threeRotations)
                expand(&w1, w2, w10, w15, threeRotations)
                round(h, a, b, &c, d, e, f, &g, k[65], w1, &bc, threeRotations)
                expand(&w2, w3, w11, w0, threeRotations)
                round(g, h, a, &b, c, d, e, &f, k[66], w2, &bc, threeRotations)
                expand(&w3, w4, w12, w1, threeRotations)
                round(f, g, h, &a, b, c, d, &e, k[67], w3, &bc, threeRotations)
                expand(&w4, w5, w13, w2, threeRotations)
                round(e, f, g, &h, a, b, c, &d, k[68], w4, &bc, threeRotations)
                expand(&w5, w6, w14, w3, threeRotations)
                round(d, e, f, &g, h, a, b, &c, k[69], w5, &bc, threeRotations)
                expand(&w6, w7, w15, w4, threeRotations)
                round(c, d, e, &f, g, h, a, &b, k[70], w6, &bc, threeRotations)
                expand(&w7, w8, w0, w5, threeRotations)
                round(b, c, d, &e, f, g, h, &a, k[71], w7, &bc, threeRotations)
                expand(&w8, w9, w1, w6, threeRotations)
                round(a, b, c, &d, e, f, g, &h, k[72], w8, &bc, threeRotations)
                expand(&w9, w10, w2, w7, threeRotations)
                round(h, a, b, &c, d, e, f, &g, k[73], w9, &bc, threeRotations)
                expand(&w10, w11, w3, w8, threeRotations)
                round(g, h, a, &b, c, d, e, &f, k[74], w10, &bc, threeRotations)
                expand(&w11, w12, w4, w9, threeRotations)
                round(f, g, h, &a, b, c, d, &e, k[75], w11, &bc, threeRotations)
                expand(&w12, w13, w5, w10, threeRotations)
                round(e, f, g, &h, a, b, c, &d, k[76], w12, &bc, threeRotations)
                expand(&w13, w14, w6, w11, threeRotations)
                round(d, e, f, &g, h, a, b, &c, k[77], w13, &bc, threeRotations)
                expand(&w14, w15, w7, w12, threeRotations)
                round(c, d, e, &f, g, h, a, &b, k[78], w14, &bc, threeRotations)
                expand(&w15, w0, w8, w13, threeRotations)
                round(b, c, d, &e, f, g, h, &a, k[79], w15, &bc, threeRotations)

                h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d; h4 &+= e; h5 &+= f; h6 &+= g; h7 &+= h
                block += 128
            }
            state = (h0, h1, h2, h3, h4, h5, h6, h7)
        }
    }
}
