#if arch(x86_64)
import Builtin

/// Sixteen 32-bit lanes: one ZMM register.
typealias Lanes = SIMD16<UInt32>

/// The sixteen words of sixteen consecutive ChaCha20 or Salsa20 blocks, one block per lane (the
/// AVX-512 layout of OpenSSL's `ChaCha20_16x`: every quarter-round is plain lane-wise ARX, no
/// shuffle, and the blocks are transposed back only when they are XORed into the data).
struct SixteenBlockLanes {
    var x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15: Lanes

    /// Blocks n ... n + 15 of the input matrix `s`: every word in all lanes, the counter word
    /// `counter` plus 0 ... 15 lane by lane (wrapping at 2^32), and with `highCounter` (Salsa20's
    /// word 9) a 64-bit counter whose high word takes each lane's carry.
    @inline(__always)
    init(_ s: SIMD16<UInt32>, counter: Int, highCounter: Int?) {
        x0 = Lanes(repeating: s[0]); x1 = Lanes(repeating: s[1]); x2 = Lanes(repeating: s[2]); x3 = Lanes(repeating: s[3])
        x4 = Lanes(repeating: s[4]); x5 = Lanes(repeating: s[5]); x6 = Lanes(repeating: s[6]); x7 = Lanes(repeating: s[7])
        x8 = Lanes(repeating: s[8]); x9 = Lanes(repeating: s[9]); x10 = Lanes(repeating: s[10]); x11 = Lanes(repeating: s[11])
        x12 = Lanes(repeating: s[12]); x13 = Lanes(repeating: s[13]); x14 = Lanes(repeating: s[14]); x15 = Lanes(repeating: s[15])
        let first = Lanes(repeating: s[counter])
        let low = first &+ Lanes(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
        if counter == 8 { x8 = low } else { x12 = low }
        if highCounter != nil {
            x9 &+= Lanes(repeating: 0).replacing(with: 1, where: low .< first)
        }
    }

    /// Adds `input` word by word (the feed-forward), transposes the sixteen blocks back to memory
    /// order and XORs them into 1,024 bytes at `target`.
    @inline(__always)
    func xor(adding input: SixteenBlockLanes, into target: UnsafeMutableRawPointer, _ t: TransposeIndices) {
        var y0 = x0 &+ input.x0, y1 = x1 &+ input.x1, y2 = x2 &+ input.x2, y3 = x3 &+ input.x3
        var y4 = x4 &+ input.x4, y5 = x5 &+ input.x5, y6 = x6 &+ input.x6, y7 = x7 &+ input.x7
        var y8 = x8 &+ input.x8, y9 = x9 &+ input.x9, y10 = x10 &+ input.x10, y11 = x11 &+ input.x11
        var y12 = x12 &+ input.x12, y13 = x13 &+ input.x13, y14 = x14 &+ input.x14, y15 = x15 &+ input.x15
        // A 16 × 16 transpose: register w, lane b holds word w of block b; each stage swaps one
        // bit of the register number with the same bit of the lane number (pairs of registers
        // `distance` apart), so after the four stages register b, lane w holds it.
        swapBit(t.low0, t.high0, &y0, &y1); swapBit(t.low0, t.high0, &y2, &y3); swapBit(t.low0, t.high0, &y4, &y5); swapBit(t.low0, t.high0, &y6, &y7)
        swapBit(t.low0, t.high0, &y8, &y9); swapBit(t.low0, t.high0, &y10, &y11); swapBit(t.low0, t.high0, &y12, &y13); swapBit(t.low0, t.high0, &y14, &y15)
        swapBit(t.low1, t.high1, &y0, &y2); swapBit(t.low1, t.high1, &y1, &y3); swapBit(t.low1, t.high1, &y4, &y6); swapBit(t.low1, t.high1, &y5, &y7)
        swapBit(t.low1, t.high1, &y8, &y10); swapBit(t.low1, t.high1, &y9, &y11); swapBit(t.low1, t.high1, &y12, &y14); swapBit(t.low1, t.high1, &y13, &y15)
        swapBit(t.low2, t.high2, &y0, &y4); swapBit(t.low2, t.high2, &y1, &y5); swapBit(t.low2, t.high2, &y2, &y6); swapBit(t.low2, t.high2, &y3, &y7)
        swapBit(t.low2, t.high2, &y8, &y12); swapBit(t.low2, t.high2, &y9, &y13); swapBit(t.low2, t.high2, &y10, &y14); swapBit(t.low2, t.high2, &y11, &y15)
        swapBit(t.low3, t.high3, &y0, &y8); swapBit(t.low3, t.high3, &y1, &y9); swapBit(t.low3, t.high3, &y2, &y10); swapBit(t.low3, t.high3, &y3, &y11)
        swapBit(t.low3, t.high3, &y4, &y12); swapBit(t.low3, t.high3, &y5, &y13); swapBit(t.low3, t.high3, &y6, &y14); swapBit(t.low3, t.high3, &y7, &y15)
        @inline(__always) func xor(_ block: Lanes, _ index: Int) {
            let p = target + 64 * index
            p.storeBytes(of: p.loadUnaligned(as: Lanes.self) ^ block, as: Lanes.self)
        }
        xor(y0, 0); xor(y1, 1); xor(y2, 2); xor(y3, 3); xor(y4, 4); xor(y5, 5); xor(y6, 6); xor(y7, 7)
        xor(y8, 8); xor(y9, 9); xor(y10, 10); xor(y11, 11); xor(y12, 12); xor(y13, 13); xor(y14, 14); xor(y15, 15)
    }
}

/// The VPERMI2D index vectors of the four transpose stages: stage `n` swaps bit `n` of the
/// register number with bit `n` of the lane number, between register pairs `2^n` apart. Lane j of
/// a result takes lane `index & 15` of the pair's first register (index < 16) or of its second.
struct TransposeIndices {
    var low0 = Lanes(0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10, 26, 12, 28, 14, 30)
    var high0 = Lanes(1, 17, 3, 19, 5, 21, 7, 23, 9, 25, 11, 27, 13, 29, 15, 31)
    var low1 = Lanes(0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29)
    var high1 = Lanes(2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31)
    var low2 = Lanes(0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27)
    var high2 = Lanes(4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31)
    var low3 = Lanes(0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23)
    var high3 = Lanes(8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31)

    /// The indices, passed through a call the optimiser cannot see into. Seen as constants, LLVM
    /// merges the four stages' 64 permutes into a gather of each output block from sixteen
    /// registers, lane by lane (about 500 instructions instead of 64, which halved the speed);
    /// as data, each stays one VPERMI2D. One call per kernel call, not per block.
    @_optimize(none)
    static func opaque() -> TransposeIndices { TransposeIndices() }
}

/// One transpose stage on registers `a` (the pair's first) and `b`, with that stage's indices.
@inline(__always)
private func swapBit(_ low: Lanes, _ high: Lanes, _ a: inout Lanes, _ b: inout Lanes) {
    let newA = permute(a, low, b)
    b = permute(a, high, b)
    a = newA
}

/// VPERMI2D: lane j of the result is lane `index[j] & 15` of `a` (bit 4 clear) or of `b` (set).
@inline(__always)
private func permute(_ a: Lanes, _ index: Lanes, _ b: Lanes) -> Lanes {
    var out = Lanes()
    out._storage._value = Builtin.int_x86_avx512_vpermi2var_d_512(a._storage._value, index._storage._value,
                                                                  b._storage._value)
    return out
}
#endif
