#if arch(x86_64)
import Builtin
import MyPassCrypto

// SHA-256 with the Intel SHA extensions (Gulley et al., "Intel SHA Extensions", Intel white
// paper, 2013). Runs only after CryptoBackend found `sha_ni` and `sse4_1` in the CPU's flags.

private typealias Words = SIMD4<UInt32>

/// SHA256RNDS2: two rounds; `cdgh` and `abef` hold the state as the instruction wants it
/// (lanes 3...0: C D G H and A B E F), `wk` W+K of the two rounds in lanes 0 and 1. Returns the
/// new A B E F (the new C D G H is the old A B E F).
@inline(__always)
private func rounds2(_ cdgh: Words, _ abef: Words, _ wk: Words) -> Words {
    var out = Words()
    out._storage._value = Builtin.int_x86_sha256rnds2(cdgh._storage._value, abef._storage._value, wk._storage._value)
    return out
}

/// SHA256MSG1 and SHA256MSG2 around the W[t-7] term: the next four message words from the
/// previous sixteen (four quads, oldest first).
@inline(__always)
private func schedule(_ w0: Words, _ w1: Words, _ w2: Words, _ w3: Words) -> Words {
    var partial = Words()
    partial._storage._value = Builtin.int_x86_sha256msg1(w0._storage._value, w1._storage._value)
    // W[t-7...t-4]: lanes 1...3 of w2, then lane 0 of w3.
    partial &+= Words(w2[1], w2[2], w2[3], w3[0])
    var out = Words()
    out._storage._value = Builtin.int_x86_sha256msg2(partial._storage._value, w3._storage._value)
    return out
}

/// Four big-endian message words (PSHUFB).
@inline(__always)
private func messageWords(_ block: UnsafeRawPointer, _ offset: Int) -> Words {
    let bytes = block.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
    let order = SIMD16<UInt8>(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12)
    var swapped = SIMD16<UInt8>()
    swapped._storage._value = Builtin.int_x86_ssse3_pshuf_b_128(bytes._storage._value, order._storage._value)
    return unsafeBitCast(swapped, to: Words.self)
}

/// FIPS 180-4 §6.2.2 on whole blocks, four rounds per pair of SHA256RNDS2.
func shaniSHA256Compress(_ state: UnsafeMutableRawPointer, _ blocks: UnsafeRawPointer, _ blockCount: Int) {
    sha256RoundConstants.withUnsafeBytes { constants in
        let k = constants.baseAddress!
        let h = state.assumingMemoryBound(to: UInt32.self)
        var abef = Words(h[5], h[4], h[1], h[0]), cdgh = Words(h[7], h[6], h[3], h[2])
        for n in 0..<blockCount {
            let block = blocks + 64 * n
            var m0 = messageWords(block, 0), m1 = messageWords(block, 16)
            var m2 = messageWords(block, 32), m3 = messageWords(block, 48)
            let abef0 = abef, cdgh0 = cdgh
            /// Rounds 4g...4g+3 with the quad `w`.
            @inline(__always) func rounds(_ g: Int, _ w: Words) {
                let wk = w &+ k.loadUnaligned(fromByteOffset: 16 * g, as: Words.self)
                cdgh = rounds2(cdgh, abef, wk)
                abef = rounds2(abef, cdgh, Words(wk[2], wk[3], 0, 0))
            }
            for g in stride(from: 0, to: 12, by: 4) {
                rounds(g, m0); m0 = schedule(m0, m1, m2, m3)
                rounds(g + 1, m1); m1 = schedule(m1, m2, m3, m0)
                rounds(g + 2, m2); m2 = schedule(m2, m3, m0, m1)
                rounds(g + 3, m3); m3 = schedule(m3, m0, m1, m2)
            }
            rounds(12, m0); rounds(13, m1); rounds(14, m2); rounds(15, m3)
            abef &+= abef0
            cdgh &+= cdgh0
        }
        h[0] = abef[3]; h[1] = abef[2]; h[4] = abef[1]; h[5] = abef[0]
        h[2] = cdgh[3]; h[3] = cdgh[2]; h[6] = cdgh[1]; h[7] = cdgh[0]
    }
}
#endif
