#if arch(x86_64)
@_spi(Kernels) import MyPassCrypto
import MyPassBytes

// SHA-512 (FIPS 180-4 §6.4.2) with the message schedules of eight blocks at a time in ZMM
// registers and the rounds in scalar registers with RORX and ANDN.
//
// A block's message schedule depends on its 128 bytes only, never on the chaining state, so the
// schedules of eight consecutive blocks are eight independent lanes of one computation (AVX-512F:
// VPRORQ rotates a 64-bit lane in one instruction, so σ0 and σ1 cost four instructions for eight
// words). The rounds, serial from block to block, then only read W[t] + K[t]. And the schedules of
// the next eight blocks are computed while the rounds of these run, one word after every eight
// rounds, so that the vector instructions fill the gaps of the scalar ones instead of running as
// a phase of their own. Runs only after CryptoBackend found `avx512f`, `bmi1` and `bmi2` in the
// CPU's flags (this module is compiled with all three). Add, shift, rotate and the bitwise Ch and
// Maj only, no table and no branch on the data: constant-time, as the portable code.

/// Word t of eight blocks, block n in lane n: one ZMM register.
typealias WordLanes = SIMD8<UInt64>

/// Rotates every lane right by `count` bits (a constant: VPRORQ).
@inline(__always)
private func rotateRight(_ x: WordLanes, _ count: UInt64) -> WordLanes {
    (x &>> count) | (x &<< (64 &- count))
}

/// Rotates right by `count` bits (a constant: RORX).
@inline(__always)
private func rotateRight(_ x: UInt64, _ count: UInt64) -> UInt64 {
    (x &>> count) | (x &<< (64 &- count))
}

/// The scratch memory of one kernel call, 240 ZMM-sized slots (15 KiB, on the stack where the
/// thread's stack has room): the W + K of the eight blocks being compressed (`current`) and of the
/// next eight (`next`), and the W of the schedule being computed (`words`), 80 slots each (a ring
/// of sixteen for `words` measured 2 to 4 % slower: its index arithmetic competes with the rounds).
private struct Schedules {
    var current: UnsafeMutablePointer<WordLanes>
    var next: UnsafeMutablePointer<WordLanes>
    let words: UnsafeMutablePointer<WordLanes>
    /// K0...K79 (FIPS 180-4 §4.2.3).
    let roundConstants: UnsafePointer<UInt64>

    /// Computes word `t` (0...79) of the message schedules of the eight 128-byte blocks at
    /// `blocks` (FIPS 180-4 §6.4.2 step 1: the big-endian message words for t < 16, then
    /// W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16]) and stores W[t] + K[t] in `next[t]`.
    /// The words must come in order, t = 0 first.
    @inline(__always)
    func scheduleWord(_ t: Int, of blocks: UnsafeRawPointer) {
        let word: WordLanes
        if t < 16 {
            @inline(__always) func load(_ block: Int) -> UInt64 {
                UInt64(bigEndian: blocks.loadUnaligned(fromByteOffset: 128 * block + 8 * t, as: UInt64.self))
            }
            word = WordLanes(load(0), load(1), load(2), load(3), load(4), load(5), load(6), load(7))
        } else {
            let w15 = words[t - 15], w2 = words[t - 2]
            let sigma0 = rotateRight(w15, 1) ^ rotateRight(w15, 8) ^ (w15 &>> 7)
            let sigma1 = rotateRight(w2, 19) ^ rotateRight(w2, 61) ^ (w2 &>> 6)
            let w16 = words[t - 16], w7 = words[t - 7]
            word = (w16 &+ sigma0) &+ (w7 &+ sigma1)
        }
        words[t] = word
        next[t] = word &+ WordLanes(repeating: roundConstants[t])
    }
}

/// One SHA-512 round (FIPS 180-4 §6.4.2 step 3) with the variables renamed instead of shifted:
/// `d` receives the new `e` and `h` the new `a`; `wk` is W[t] + K[t]; `bc` holds b ^ c on entry
/// and a ^ b on exit (the next round's b ^ c: Maj(a, b, c) = b ^ ((a ^ b) & (b ^ c))).
///
/// Written for the shortest chain from `e` to the new `e`: d + h + W + K does not depend on `e`,
/// Ch(e, f, g) = (e & f) + (~e & g) (ANDN; the two never share a bit) adds into it in two
/// independent steps, and Σ1(e) (three RORX side by side) comes last, one addition before the new
/// `e`; the new `a` is then the new `e` - d + Σ0(a) + Maj(a, b, c), which is T1 + T2.
@inline(__always)
private func round(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: inout UInt64,
                   _ e: UInt64, _ f: UInt64, _ g: UInt64, _ h: inout UInt64, _ wk: UInt64, _ bc: inout UInt64) {
    let bigSigma1 = rotateRight(e, 14) ^ rotateRight(e, 18) ^ rotateRight(e, 41)
    let newE = (h &+ wk &+ d) &+ (e & f) &+ (~e & g) &+ bigSigma1
    let bigSigma0 = rotateRight(a, 28) ^ rotateRight(a, 34) ^ rotateRight(a, 39)
    let ab = a ^ b
    let majority = b ^ (ab & bc)
    bc = ab
    h = (newE &- d) &+ bigSigma0 &+ majority
    d = newE
}

/// Compresses block `lane` of the eight whose W + K are in `schedules.current` into `state`
/// (H0...H7), and computes words `10 × lane` ... `10 × lane + 9` of the schedules of
/// `following` (the next eight blocks), one after every eight rounds.
@inline(__always)
private func compress(_ state: inout (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64),
                      lane: Int, _ schedules: Schedules, following: UnsafeRawPointer?) {
    let scheduled = UnsafeRawPointer(schedules.current) + 8 * lane
    var (a, b, c, d, e, f, g, h) = state
    var bc = b ^ c
    // Rounds 8i ... 8i + 7 (eight rounds bring the names back to where they started).
    @inline(__always) func eightRounds(_ i: Int) {
        @inline(__always) func wk(_ t: Int) -> UInt64 { scheduled.load(fromByteOffset: 64 * (8 * i + t), as: UInt64.self) }
        round(a, b, c, &d, e, f, g, &h, wk(0), &bc)
        round(h, a, b, &c, d, e, f, &g, wk(1), &bc)
        round(g, h, a, &b, c, d, e, &f, wk(2), &bc)
        round(f, g, h, &a, b, c, d, &e, wk(3), &bc)
        if let following { schedules.scheduleWord(10 * lane + i, of: following) }
        round(e, f, g, &h, a, b, c, &d, wk(4), &bc)
        round(d, e, f, &g, h, a, b, &c, wk(5), &bc)
        round(c, d, e, &f, g, h, a, &b, wk(6), &bc)
        round(b, c, d, &e, f, g, h, &a, wk(7), &bc)
    }
    eightRounds(0); eightRounds(1); eightRounds(2); eightRounds(3); eightRounds(4)
    eightRounds(5); eightRounds(6); eightRounds(7); eightRounds(8); eightRounds(9)
    state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h)
}

/// SHA-512 over `blockCount` 128-byte blocks at `blocks`, eight at a time as described above; the
/// blocks left over (fewer than eight) go through MyPassCrypto's rounds (`SHA512Rounds`, inlined
/// here with three RORX for each Σ and σ, as the `bmi2` kernel). The ``HashBackend`` contract:
/// `state` is eight `UInt64` H0...H7 in native byte order. The scratch memory, which holds the
/// message words, is wiped before returning.
package func avx512BMI2SHA512Compress(_ state: UnsafeMutableRawPointer, _ blocks: UnsafeRawPointer, _ blockCount: Int) {
    let h = state.assumingMemoryBound(to: UInt64.self)
    var words = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
    let groups = blockCount / 8
    if groups > 0 {
        withUnsafeTemporaryAllocation(of: WordLanes.self, capacity: 240) { scratch in
            let base = scratch.baseAddress!
            SHA512Rounds.withRoundConstants { roundConstants in
                var schedules = Schedules(current: base, next: base + 80, words: base + 160, roundConstants: roundConstants)
                for t in 0..<80 { schedules.scheduleWord(t, of: blocks) }
                for group in 0..<groups {
                    swap(&schedules.current, &schedules.next)
                    let following = group + 1 < groups ? blocks + 1024 * (group + 1) : nil
                    for lane in 0..<8 { compress(&words, lane: lane, schedules, following: following) }
                }
            }
            secureZero(base, count: 240 * MemoryLayout<WordLanes>.stride)
        }
    }
    SHA512Rounds.compress(&words, blocks + 1024 * groups, blockCount: blockCount - 8 * groups, threeRotations: true)
    h[0] = words.0; h[1] = words.1; h[2] = words.2; h[3] = words.3
    h[4] = words.4; h[5] = words.5; h[6] = words.6; h[7] = words.7
}
#endif
