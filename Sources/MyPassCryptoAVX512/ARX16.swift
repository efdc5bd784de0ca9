#if arch(x86_64)
// ChaCha20 and Salsa20 sixteen blocks at a time in ZMM registers (AVX-512F: VPROLD rotates a
// lane in one instruction). Runs only after CryptoBackend found `avx512f` in the CPU's flags.
// Add-rotate-XOR only: constant-time (no table, no branch on the key or the data).

/// Rotates every lane left by `count` bits (a constant: VPROLD).
@inline(__always)
private func rotl(_ x: Lanes, _ count: UInt32) -> Lanes {
    (x &<< count) | (x &>> (32 &- count))
}

/// ChaCha20 (RFC 8439 §2.3) over `blockCount / 16 × 16` blocks: the ``StreamBackend`` kernel
/// contract (state: the 16-word input matrix, counter in word 12 wrapping at 2^32).
package func avx512ChaCha20XOR(_ state: UnsafeRawPointer, _ data: UnsafeMutableRawPointer, _ blockCount: Int) -> Int {
    var s = state.loadUnaligned(as: SIMD16<UInt32>.self)
    let groups = blockCount / 16
    let transpose = TransposeIndices.opaque()
    for group in 0..<groups {
        let input = SixteenBlockLanes(s, counter: 12, highCounter: nil)
        var x = input
        @inline(__always) func qr(_ a: inout Lanes, _ b: inout Lanes, _ c: inout Lanes, _ d: inout Lanes) {
            a &+= b; d = rotl(d ^ a, 16)
            c &+= d; b = rotl(b ^ c, 12)
            a &+= b; d = rotl(d ^ a, 8)
            c &+= d; b = rotl(b ^ c, 7)
        }
        for _ in 0..<10 {
            qr(&x.x0, &x.x4, &x.x8, &x.x12); qr(&x.x1, &x.x5, &x.x9, &x.x13)
            qr(&x.x2, &x.x6, &x.x10, &x.x14); qr(&x.x3, &x.x7, &x.x11, &x.x15)
            qr(&x.x0, &x.x5, &x.x10, &x.x15); qr(&x.x1, &x.x6, &x.x11, &x.x12)
            qr(&x.x2, &x.x7, &x.x8, &x.x13); qr(&x.x3, &x.x4, &x.x9, &x.x14)
        }
        x.xor(adding: input, into: data + 1024 * group, transpose)
        s[12] &+= 16
    }
    return 16 * groups
}

/// Salsa20/20 over `blockCount / 16 × 16` blocks: the ``StreamBackend`` kernel contract (state:
/// the 16-word input matrix, 64-bit counter in words 8 and 9).
package func avx512Salsa20XOR(_ state: UnsafeRawPointer, _ data: UnsafeMutableRawPointer, _ blockCount: Int) -> Int {
    var s = state.loadUnaligned(as: SIMD16<UInt32>.self)
    let groups = blockCount / 16
    let transpose = TransposeIndices.opaque()
    for group in 0..<groups {
        let input = SixteenBlockLanes(s, counter: 8, highCounter: 9)
        var x = input
        @inline(__always) func qr(_ a: inout Lanes, _ b: inout Lanes, _ c: inout Lanes, _ d: inout Lanes) {
            b ^= rotl(a &+ d, 7)
            c ^= rotl(b &+ a, 9)
            d ^= rotl(c &+ b, 13)
            a ^= rotl(d &+ c, 18)
        }
        for _ in 0..<10 {
            qr(&x.x0, &x.x4, &x.x8, &x.x12); qr(&x.x5, &x.x9, &x.x13, &x.x1)
            qr(&x.x10, &x.x14, &x.x2, &x.x6); qr(&x.x15, &x.x3, &x.x7, &x.x11)
            qr(&x.x0, &x.x1, &x.x2, &x.x3); qr(&x.x5, &x.x6, &x.x7, &x.x4)
            qr(&x.x10, &x.x11, &x.x8, &x.x9); qr(&x.x15, &x.x12, &x.x13, &x.x14)
        }
        x.xor(adding: input, into: data + 1024 * group, transpose)
        let counter = (UInt64(s[9]) << 32 | UInt64(s[8])) &+ 16
        s[8] = UInt32(truncatingIfNeeded: counter)
        s[9] = UInt32(truncatingIfNeeded: counter >> 32)
    }
    return 16 * groups
}
#endif
