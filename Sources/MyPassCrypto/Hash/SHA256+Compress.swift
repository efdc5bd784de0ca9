import MyPassBytes

/// SHA-256 round constants (FIPS 180-4 §4.2.2).
private let sha256RoundConstants: [UInt32] = [
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

/// One SHA-256 round (FIPS 180-4 §6.2.2 step 3) with the variables renamed instead of shifted:
/// `d` receives the new `e` and `h` the new `a`. `bc` holds b ^ c on entry and a ^ b on exit,
/// which is the next round's b ^ c, so Maj(a, b, c) = b ^ ((a ^ b) & (b ^ c)) costs three operations.
@inline(__always)
private func round(
    _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
    _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32, _ kw: UInt32, _ bc: inout UInt32
) {
    let t1 = h &+ (rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25)) &+ (g ^ (e & (f ^ g))) &+ kw
    let ab = a ^ b
    let t2 = (rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22)) &+ (b ^ (ab & bc))
    bc = ab
    d = d &+ t1
    h = t1 &+ t2
}

extension SHA256 {
    /// Compresses `blockCount` consecutive 64-byte blocks at `blocks` into `state`.
    @usableFromInline
    static func compress(_ state: inout State, _ blocks: UnsafeRawPointer, blockCount: Int) {
        sha256RoundConstants.withUnsafeBufferPointer { k in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                var (h0, h1, h2, h3, h4, h5, h6, h7) = state
                var block = blocks
                for _ in 0..<blockCount {
                    for t in 0..<16 {
                        w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4 * t, as: UInt32.self))
                    }
                    for t in 16..<64 {
                        let x = w[t - 15], y = w[t - 2]
                        let s0 = rotateRight(x, 7) ^ rotateRight(x, 18) ^ (x &>> 3)
                        let s1 = rotateRight(y, 17) ^ rotateRight(y, 19) ^ (y &>> 10)
                        w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
                    }
                    for t in 0..<64 { w[t] &+= k[t] }
                    var a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7
                    var bc = b ^ c
                    var t = 0
                    while t < 64 {
                        round(a, b, c, &d, e, f, g, &h, w[t], &bc)
                        round(h, a, b, &c, d, e, f, &g, w[t + 1], &bc)
                        round(g, h, a, &b, c, d, e, &f, w[t + 2], &bc)
                        round(f, g, h, &a, b, c, d, &e, w[t + 3], &bc)
                        round(e, f, g, &h, a, b, c, &d, w[t + 4], &bc)
                        round(d, e, f, &g, h, a, b, &c, w[t + 5], &bc)
                        round(c, d, e, &f, g, h, a, &b, w[t + 6], &bc)
                        round(b, c, d, &e, f, g, h, &a, w[t + 7], &bc)
                        t += 8
                    }
                    h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d; h4 &+= e; h5 &+= f; h6 &+= g; h7 &+= h
                    block += 64
                }
                state = (h0, h1, h2, h3, h4, h5, h6, h7)
                secureZero(UnsafeMutableRawPointer(w.baseAddress!), count: 64 * 4)
            }
        }
    }
}
