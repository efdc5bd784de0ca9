#if arch(x86_64)
@_spi(Kernels) import MyPassCrypto

/// SHA-512 (FIPS 180-4 §6.4.2) with BMI2: MyPassCrypto's rounds (`SHA512Rounds`, inlined here)
/// with each Σ and σ as three rotations, which this module's `-mbmi2` compiles to RORX (a rotate
/// into another register, so the three run side by side; the portable code, for CPUs without
/// BMI2, nests them instead). Runs only after CryptoBackend found `bmi2` in the CPU's flags. The
/// ``HashBackend`` contract: `state` is eight `UInt64` H0...H7 in native byte order.
/// Add-rotate-XOR only, as the portable code: constant-time.
package func bmi2SHA512Compress(_ state: UnsafeMutableRawPointer, _ blocks: UnsafeRawPointer, _ blockCount: Int) {
    let h = state.assumingMemoryBound(to: UInt64.self)
    var words = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
    SHA512Rounds.compress(&words, blocks, blockCount: blockCount, threeRotations: true)
    h[0] = words.0; h[1] = words.1; h[2] = words.2; h[3] = words.3
    h[4] = words.4; h[5] = words.5; h[6] = words.6; h[7] = words.7
}
#endif
