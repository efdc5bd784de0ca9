/// SHA-256 round constants K0...K63 (FIPS 180-4 §4.2.2).
package let sha256RoundConstants: [UInt32] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]

@inline(__always)
private func rotateRight(_ x: UInt32, _ n: UInt32) -> UInt32 { (x &>> n) | (x &<< (32 &- n)) }

/// σ0 and σ1 of the message schedule (FIPS 180-4 §4.1.2, (4.6) and (4.7)).
@inline(__always)
private func smallSigma0(_ x: UInt32) -> UInt32 { rotateRight(x, 7) ^ rotateRight(x, 18) ^ (x &>> 3) }
@inline(__always)
private func smallSigma1(_ x: UInt32) -> UInt32 { rotateRight(x, 17) ^ rotateRight(x, 19) ^ (x &>> 10) }

/// One message schedule step (FIPS 180-4 §6.2.2 step 1, t ≥ 16) on a rolling 16-word window:
/// `w0` holds W[t-16] on entry and W[t] on exit; `w1`, `w9` and `w14` are W[t-15], W[t-7], W[t-2].
@inline(__always)
private func expand(_ w0: inout UInt32, _ w1: UInt32, _ w9: UInt32, _ w14: UInt32) {
    w0 = w0 &+ smallSigma0(w1) &+ w9 &+ smallSigma1(w14)
}

/// One SHA-256 round (FIPS 180-4 §6.2.2 step 3) with the variables renamed instead of shifted:
/// `d` receives the new `e` and `h` the new `a`. `bc` holds b ^ c on entry and a ^ b on exit,
/// which is the next round's b ^ c, so Maj(a, b, c) = b ^ ((a ^ b) & (b ^ c)) costs three operations.
@inline(__always)
private func round(
    _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
    _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32, _ k: UInt32, _ w: UInt32, _ bc: inout UInt32
) {
    let t1 = h &+ k &+ w &+ (g ^ (e & (f ^ g))) &+ (rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25))
    let ab = a ^ b
    let t2 = (rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22)) &+ (b ^ (ab & bc))
    bc = ab
    d = d &+ t1
    h = t1 &+ t2
}

extension SHA256 {
    /// Compresses `blockCount` consecutive 64-byte blocks at `blocks` into `state`.
    ///
    /// This is FIPS 180-4 §6.2.2 written out: the 64 rounds are unrolled so that the eight working
    /// variables rotate by name (round t uses the names shifted t places) and the message schedule
    /// is a rolling window of 16 locals `w0`...`w15` (W[t] lives in `w(t mod 16)`, computed by
    /// `expand` just before round t uses it) instead of a 64-word array. Written this way the
    /// compiler keeps the state in registers, folds the round constants into the instructions and
    /// has no array to index or bounds-check (the earlier loop over a 64-word array measured about
    /// 25 % slower).
    @usableFromInline
    static func compress(_ state: inout State, _ blocks: UnsafeRawPointer, blockCount: Int) {
        sha256RoundConstants.withUnsafeBufferPointer { k in
            var (h0, h1, h2, h3, h4, h5, h6, h7) = state
            var block = blocks
            for _ in 0..<blockCount {
                var w0 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
                var w1 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
                var w2 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
                var w3 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
                var w4 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 16, as: UInt32.self))
                var w5 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 20, as: UInt32.self))
                var w6 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 24, as: UInt32.self))
                var w7 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 28, as: UInt32.self))
                var w8 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 32, as: UInt32.self))
                var w9 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 36, as: UInt32.self))
                var w10 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 40, as: UInt32.self))
                var w11 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 44, as: UInt32.self))
                var w12 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 48, as: UInt32.self))
                var w13 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 52, as: UInt32.self))
                var w14 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 56, as: UInt32.self))
                var w15 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 60, as: UInt32.self))
                var a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7
                var bc = b ^ c

                // Rounds 0...15 take the message words as loaded.
                round(a, b, c, &d, e, f, g, &h, k[0], w0, &bc)
                round(h, a, b, &c, d, e, f, &g, k[1], w1, &bc)
                round(g, h, a, &b, c, d, e, &f, k[2], w2, &bc)
                round(f, g, h, &a, b, c, d, &e, k[3], w3, &bc)
                round(e, f, g, &h, a, b, c, &d, k[4], w4, &bc)
                round(d, e, f, &g, h, a, b, &c, k[5], w5, &bc)
                round(c, d, e, &f, g, h, a, &b, k[6], w6, &bc)
                round(b, c, d, &e, f, g, h, &a, k[7], w7, &bc)
                round(a, b, c, &d, e, f, g, &h, k[8], w8, &bc)
                round(h, a, b, &c, d, e, f, &g, k[9], w9, &bc)
                round(g, h, a, &b, c, d, e, &f, k[10], w10, &bc)
                round(f, g, h, &a, b, c, d, &e, k[11], w11, &bc)
                round(e, f, g, &h, a, b, c, &d, k[12], w12, &bc)
                round(d, e, f, &g, h, a, b, &c, k[13], w13, &bc)
                round(c, d, e, &f, g, h, a, &b, k[14], w14, &bc)
                round(b, c, d, &e, f, g, h, &a, k[15], w15, &bc)

                // Rounds 16...63 extend the schedule one word ahead of each round.
                expand(&w0, w1, w9, w14)
                round(a, b, c, &d, e, f, g, &h, k[16], w0, &bc)
                expand(&w1, w2, w10, w15)
                round(h, a, b, &c, d, e, f, &g, k[17], w1, &bc)
                expand(&w2, w3, w11, w0)
                round(g, h, a, &b, c, d, e, &f, k[18], w2, &bc)
                expand(&w3, w4, w12, w1)
                round(f, g, h, &a, b, c, d, &e, k[19], w3, &bc)
                expand(&w4, w5, w13, w2)
                round(e, f, g, &h, a, b, c, &d, k[20], w4, &bc)
                expand(&w5, w6, w14, w3)
                round(d, e, f, &g, h, a, b, &c, k[21], w5, &bc)
                expand(&w6, w7, w15, w4)
                round(c, d, e, &f, g, h, a, &b, k[22], w6, &bc)
                expand(&w7, w8, w0, w5)
                round(b, c, d, &e, f, g, h, &a, k[23], w7, &bc)
                expand(&w8, w9, w1, w6)
                round(a, b, c, &d, e, f, g, &h, k[24], w8, &bc)
                expand(&w9, w10, w2, w7)
                round(h, a, b, &c, d, e, f, &g, k[25], w9, &bc)
                expand(&w10, w11, w3, w8)
                round(g, h, a, &b, c, d, e, &f, k[26], w10, &bc)
                expand(&w11, w12, w4, w9)
                round(f, g, h, &a, b, c, d, &e, k[27], w11, &bc)
                expand(&w12, w13, w5, w10)
                round(e, f, g, &h, a, b, c, &d, k[28], w12, &bc)
                expand(&w13, w14, w6, w11)
                round(d, e, f, &g, h, a, b, &c, k[29], w13, &bc)
                expand(&w14, w15, w7, w12)
                round(c, d, e, &f, g, h, a, &b, k[30], w14, &bc)
                expand(&w15, w0, w8, w13)
                round(b, c, d, &e, f, g, h, &a, k[31], w15, &bc)

                expand(&w0, w1, w9, w14)
                round(a, b, c, &d, e, f, g, &h, k[32], w0, &bc)
                expand(&w1, w2, w10, w15)
                round(h, a, b, &c, d, e, f, &g, k[33], w1, &bc)
                expand(&w2, w3, w11, w0)
                round(g, h, a, &b, c, d, e, &f, k[34], w2, &bc)
                expand(&w3, w4, w12, w1)
                round(f, g, h, &a, b, c, d, &e, k[35], w3, &bc)
                expand(&w4, w5, w13, w2)
                round(e, f, g, &h, a, b, c, &d, k[36], w4, &bc)
                expand(&w5, w6, w14, w3)
                round(d, e, f, &g, h, a, b, &c, k[37], w5, &bc)
                expand(&w6, w7, w15, w4)
                round(c, d, e, &f, g, h, a, &b, k[38], w6, &bc)
                expand(&w7, w8, w0, w5)
                round(b, c, d, &e, f, g, h, &a, k[39], w7, &bc)
                expand(&w8, w9, w1, w6)
                round(a, b, c, &d, e, f, g, &h, k[40], w8, &bc)
                expand(&w9, w10, w2, w7)
                round(h, a, b, &c, d, e, f, &g, k[41], w9, &bc)
                expand(&w10, w11, w3, w8)
                round(g, h, a, &b, c, d, e, &f, k[42], w10, &bc)
                expand(&w11, w12, w4, w9)
                round(f, g, h, &a, b, c, d, &e, k[43], w11, &bc)
                expand(&w12, w13, w5, w10)
                round(e, f, g, &h, a, b, c, &d, k[44], w12, &bc)
                expand(&w13, w14, w6, w11)
                round(d, e, f, &g, h, a, b, &c, k[45], w13, &bc)
                expand(&w14, w15, w7, w12)
                round(c, d, e, &f, g, h, a, &b, k[46], w14, &bc)
                expand(&w15, w0, w8, w13)
                round(b, c, d, &e, f, g, h, &a, k[47], w15, &bc)

                expand(&w0, w1, w9, w14)
                round(a, b, c, &d, e, f, g, &h, k[48], w0, &bc)
                expand(&w1, w2, w10, w15)
                round(h, a, b, &c, d, e, f, &g, k[49], w1, &bc)
                expand(&w2, w3, w11, w0)
                round(g, h, a, &b, c, d, e, &f, k[50], w2, &bc)
                expand(&w3, w4, w12, w1)
                round(f, g, h, &a, b, c, d, &e, k[51], w3, &bc)
                expand(&w4, w5, w13, w2)
                round(e, f, g, &h, a, b, c, &d, k[52], w4, &bc)
                expand(&w5, w6, w14, w3)
                round(d, e, f, &g, h, a, b, &c, k[53], w5, &bc)
                expand(&w6, w7, w15, w4)
                round(c, d, e, &f, g, h, a, &b, k[54], w6, &bc)
                expand(&w7, w8, w0, w5)
                round(b, c, d, &e, f, g, h, &a, k[55], w7, &bc)
                expand(&w8, w9, w1, w6)
                round(a, b, c, &d, e, f, g, &h, k[56], w8, &bc)
                expand(&w9, w10, w2, w7)
                round(h, a, b, &c, d, e, f, &g, k[57], w9, &bc)
                expand(&w10, w11, w3, w8)
                round(g, h, a, &b, c, d, e, &f, k[58], w10, &bc)
                expand(&w11, w12, w4, w9)
                round(f, g, h, &a, b, c, d, &e, k[59], w11, &bc)
                expand(&w12, w13, w5, w10)
                round(e, f, g, &h, a, b, c, &d, k[60], w12, &bc)
                expand(&w13, w14, w6, w11)
                round(d, e, f, &g, h, a, b, &c, k[61], w13, &bc)
                expand(&w14, w15, w7, w12)
                round(c, d, e, &f, g, h, a, &b, k[62], w14, &bc)
                expand(&w15, w0, w8, w13)
                round(b, c, d, &e, f, g, h, &a, k[63], w15, &bc)

                h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d; h4 &+= e; h5 &+= f; h6 &+= g; h7 &+= h
                block += 64
            }
            state = (h0, h1, h2, h3, h4, h5, h6, h7)
        }
    }
}
