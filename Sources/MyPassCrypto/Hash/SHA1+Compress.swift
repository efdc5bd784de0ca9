import MyPassBytes

@inline(__always)
private func rotateLeft(_ x: UInt32, _ n: UInt32) -> UInt32 { (x &<< n) | (x &>> (32 &- n)) }

/// One SHA-1 step (FIPS 180-4 §6.1.2 step 3) with renamed variables: `e` receives the new `a`,
/// `b` the rotated value that becomes the new `c`.
@inline(__always)
private func step(_ f: UInt32, _ kw: UInt32, _ a: UInt32, _ b: inout UInt32, _ e: inout UInt32) {
    e = e &+ rotateLeft(a, 5) &+ f &+ kw
    b = rotateLeft(b, 30)
}

@inline(__always) private func choose(_ x: UInt32, _ y: UInt32, _ z: UInt32) -> UInt32 { z ^ (x & (y ^ z)) }
@inline(__always) private func parity(_ x: UInt32, _ y: UInt32, _ z: UInt32) -> UInt32 { x ^ y ^ z }
@inline(__always) private func majority(_ x: UInt32, _ y: UInt32, _ z: UInt32) -> UInt32 { (x & y) | (z & (x | y)) }

extension SHA1 {
    /// Compresses `blockCount` consecutive 64-byte blocks at `blocks` into `state`.
    @usableFromInline
    static func compress(_ state: inout State, _ blocks: UnsafeRawPointer, blockCount: Int) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { w in
            var (h0, h1, h2, h3, h4) = state
            var block = blocks
            for _ in 0..<blockCount {
                for t in 0..<16 {
                    w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4 * t, as: UInt32.self))
                }
                for t in 16..<80 { w[t] = rotateLeft(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1) }
                var a = h0, b = h1, c = h2, d = h3, e = h4
                var t = 0
                while t < 20 {
                    let k: UInt32 = 0x5a827999
                    step(choose(b, c, d), k &+ w[t], a, &b, &e)
                    step(choose(a, b, c), k &+ w[t + 1], e, &a, &d)
                    step(choose(e, a, b), k &+ w[t + 2], d, &e, &c)
                    step(choose(d, e, a), k &+ w[t + 3], c, &d, &b)
                    step(choose(c, d, e), k &+ w[t + 4], b, &c, &a)
                    t += 5
                }
                while t < 40 {
                    let k: UInt32 = 0x6ed9eba1
                    step(parity(b, c, d), k &+ w[t], a, &b, &e)
                    step(parity(a, b, c), k &+ w[t + 1], e, &a, &d)
                    step(parity(e, a, b), k &+ w[t + 2], d, &e, &c)
                    step(parity(d, e, a), k &+ w[t + 3], c, &d, &b)
                    step(parity(c, d, e), k &+ w[t + 4], b, &c, &a)
                    t += 5
                }
                while t < 60 {
                    let k: UInt32 = 0x8f1bbcdc
                    step(majority(b, c, d), k &+ w[t], a, &b, &e)
                    step(majority(a, b, c), k &+ w[t + 1], e, &a, &d)
                    step(majority(e, a, b), k &+ w[t + 2], d, &e, &c)
                    step(majority(d, e, a), k &+ w[t + 3], c, &d, &b)
                    step(majority(c, d, e), k &+ w[t + 4], b, &c, &a)
                    t += 5
                }
                while t < 80 {
                    let k: UInt32 = 0xca62c1d6
                    step(parity(b, c, d), k &+ w[t], a, &b, &e)
                    step(parity(a, b, c), k &+ w[t + 1], e, &a, &d)
                    step(parity(e, a, b), k &+ w[t + 2], d, &e, &c)
                    step(parity(d, e, a), k &+ w[t + 3], c, &d, &b)
                    step(parity(c, d, e), k &+ w[t + 4], b, &c, &a)
                    t += 5
                }
                h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d; h4 &+= e
                block += 64
            }
            state = (h0, h1, h2, h3, h4)
            secureZero(UnsafeMutableRawPointer(w.baseAddress!), count: 80 * 4)
        }
    }
}
