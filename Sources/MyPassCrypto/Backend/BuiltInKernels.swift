#if arch(arm64)
import Builtin
#endif

/// The hardware kernels compiled into this module: the ARMv8 Cryptographic Extension on arm64
/// (AES everywhere; SHA-256 where the compiler targets a CPU with the SHA-2 instructions: Apple
/// platforms, or an embedded build that sets `MYPASS_ARM64_SHA2` and the `sha2` target feature).
/// Elsewhere none: x86_64's kernels live in `MyPassCryptoHardware`.
enum BuiltInKernels {
    #if arch(arm64)
    static let aes = [AESBackend(name: "armv8", requiredCPUFeatures: ["aes"], kdf: armv8AESKDF,
                                 cbcEncrypt: armv8AESCBCEncrypt, cbcDecrypt: armv8AESCBCDecrypt)]
    #else
    static let aes: [AESBackend] = []
    #endif

    #if arch(arm64) && (os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS) || MYPASS_ARM64_SHA2)
    static let sha256 = [HashBackend(name: "armv8", requiredCPUFeatures: ["sha2"], compress: armv8SHA256Compress)]
    #else
    static let sha256: [HashBackend] = []
    #endif

    static let sha512: [HashBackend] = []
}

#if arch(arm64)
// MARK: - ARMv8 AES (AESE/AESMC, AESD/AESIMC)

private typealias Block = SIMD16<UInt8>

/// AESE: AddRoundKey, ShiftRows, SubBytes.
@inline(__always)
private func aese(_ state: Block, _ key: Block) -> Block {
    var out = Block()
    out._storage._value = Builtin.int_aarch64_crypto_aese(state._storage._value, key._storage._value)
    return out
}

/// AESMC: MixColumns.
@inline(__always)
private func aesmc(_ state: Block) -> Block {
    var out = Block()
    out._storage._value = Builtin.int_aarch64_crypto_aesmc(state._storage._value)
    return out
}

/// AESD: AddRoundKey, InvShiftRows, InvSubBytes.
@inline(__always)
private func aesd(_ state: Block, _ key: Block) -> Block {
    var out = Block()
    out._storage._value = Builtin.int_aarch64_crypto_aesd(state._storage._value, key._storage._value)
    return out
}

/// AESIMC: InvMixColumns.
@inline(__always)
private func aesimc(_ state: Block) -> Block {
    var out = Block()
    out._storage._value = Builtin.int_aarch64_crypto_aesimc(state._storage._value)
    return out
}

/// The 15 round keys, held in registers by the loops that use them.
private struct RoundKeys {
    var k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k10, k11, k12, k13, k14: Block

    @inline(__always)
    init(_ keys: UnsafeRawPointer) {
        func key(_ i: Int) -> Block { keys.loadUnaligned(fromByteOffset: 16 * i, as: Block.self) }
        k0 = key(0); k1 = key(1); k2 = key(2); k3 = key(3); k4 = key(4); k5 = key(5); k6 = key(6); k7 = key(7)
        k8 = key(8); k9 = key(9); k10 = key(10); k11 = key(11); k12 = key(12); k13 = key(13); k14 = key(14)
    }

    /// FIPS 197 Cipher: 13 full rounds, the last without MixColumns, the last key XORed.
    @inline(__always)
    func encrypt(_ s: Block) -> Block {
        var s = aesmc(aese(s, k0))
        s = aesmc(aese(s, k1)); s = aesmc(aese(s, k2)); s = aesmc(aese(s, k3)); s = aesmc(aese(s, k4))
        s = aesmc(aese(s, k5)); s = aesmc(aese(s, k6)); s = aesmc(aese(s, k7)); s = aesmc(aese(s, k8))
        s = aesmc(aese(s, k9)); s = aesmc(aese(s, k10)); s = aesmc(aese(s, k11)); s = aesmc(aese(s, k12))
        return aese(s, k13) ^ k14
    }

    /// FIPS 197 §5.3.5 equivalent inverse cipher, with its keys.
    @inline(__always)
    func decrypt(_ s: Block) -> Block {
        var s = aesimc(aesd(s, k0))
        s = aesimc(aesd(s, k1)); s = aesimc(aesd(s, k2)); s = aesimc(aesd(s, k3)); s = aesimc(aesd(s, k4))
        s = aesimc(aesd(s, k5)); s = aesimc(aesd(s, k6)); s = aesimc(aesd(s, k7)); s = aesimc(aesd(s, k8))
        s = aesimc(aesd(s, k9)); s = aesimc(aesd(s, k10)); s = aesimc(aesd(s, k11)); s = aesimc(aesd(s, k12))
        return aesd(s, k13) ^ k14
    }
}

/// AES-KDF: both halves' chains interleaved, so that each instruction's latency is shared.
private func armv8AESKDF(_ keys: UnsafeRawPointer, _ data: UnsafeMutableRawPointer, _ rounds: UInt64) {
    let k = RoundKeys(keys)
    var a = data.loadUnaligned(as: Block.self), b = data.loadUnaligned(fromByteOffset: 16, as: Block.self)
    var remaining = rounds
    while remaining > 0 {
        a = k.encrypt(a)
        b = k.encrypt(b)
        remaining &-= 1
    }
    data.storeBytes(of: a, as: Block.self)
    data.storeBytes(of: b, toByteOffset: 16, as: Block.self)
    a = Block(); b = Block()
}

/// CBC encryption: serial by definition, one block after the other.
private func armv8AESCBCEncrypt(_ keys: UnsafeRawPointer, _ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer,
                                _ blocks: Int, _ chain: UnsafeMutableRawPointer) {
    let k = RoundKeys(keys)
    var c = chain.loadUnaligned(as: Block.self)
    for i in 0..<blocks {
        c = k.encrypt(c ^ input.loadUnaligned(fromByteOffset: 16 * i, as: Block.self))
        output.storeBytes(of: c, toByteOffset: 16 * i, as: Block.self)
    }
    chain.storeBytes(of: c, as: Block.self)
}

/// CBC decryption: four independent blocks at a time.
private func armv8AESCBCDecrypt(_ keys: UnsafeRawPointer, _ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer,
                                _ blocks: Int, _ chain: UnsafeMutableRawPointer) {
    let k = RoundKeys(keys)
    var c = chain.loadUnaligned(as: Block.self)
    var i = 0
    while i + 4 <= blocks {
        let x0 = input.loadUnaligned(fromByteOffset: 16 * i, as: Block.self)
        let x1 = input.loadUnaligned(fromByteOffset: 16 * i + 16, as: Block.self)
        let x2 = input.loadUnaligned(fromByteOffset: 16 * i + 32, as: Block.self)
        let x3 = input.loadUnaligned(fromByteOffset: 16 * i + 48, as: Block.self)
        let p0 = k.decrypt(x0), p1 = k.decrypt(x1), p2 = k.decrypt(x2), p3 = k.decrypt(x3)
        output.storeBytes(of: p0 ^ c, toByteOffset: 16 * i, as: Block.self)
        output.storeBytes(of: p1 ^ x0, toByteOffset: 16 * i + 16, as: Block.self)
        output.storeBytes(of: p2 ^ x1, toByteOffset: 16 * i + 32, as: Block.self)
        output.storeBytes(of: p3 ^ x2, toByteOffset: 16 * i + 48, as: Block.self)
        c = x3
        i += 4
    }
    while i < blocks {
        let x = input.loadUnaligned(fromByteOffset: 16 * i, as: Block.self)
        output.storeBytes(of: k.decrypt(x) ^ c, toByteOffset: 16 * i, as: Block.self)
        c = x
        i += 1
    }
    chain.storeBytes(of: c, as: Block.self)
}
#endif

#if arch(arm64) && (os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS) || MYPASS_ARM64_SHA2)
// MARK: - ARMv8 SHA-256 (SHA256H, SHA256H2, SHA256SU0, SHA256SU1)

private typealias Words = SIMD4<UInt32>

@inline(__always)
private func sha256h(_ abcd: Words, _ efgh: Words, _ wk: Words) -> Words {
    var out = Words()
    out._storage._value = Builtin.int_aarch64_crypto_sha256h(abcd._storage._value, efgh._storage._value, wk._storage._value)
    return out
}

@inline(__always)
private func sha256h2(_ efgh: Words, _ abcd: Words, _ wk: Words) -> Words {
    var out = Words()
    out._storage._value = Builtin.int_aarch64_crypto_sha256h2(efgh._storage._value, abcd._storage._value, wk._storage._value)
    return out
}

/// The next four message words W[t...t+3] from W[t-16...t-1] (four quads, oldest first).
@inline(__always)
private func schedule(_ w0: Words, _ w1: Words, _ w2: Words, _ w3: Words) -> Words {
    var partial = Words()
    partial._storage._value = Builtin.int_aarch64_crypto_sha256su0(w0._storage._value, w1._storage._value)
    var out = Words()
    out._storage._value = Builtin.int_aarch64_crypto_sha256su1(partial._storage._value, w2._storage._value, w3._storage._value)
    return out
}

/// Four big-endian message words.
@inline(__always)
private func messageWords(_ block: UnsafeRawPointer, _ offset: Int) -> Words {
    Words(UInt32(bigEndian: block.loadUnaligned(fromByteOffset: offset, as: UInt32.self)),
          UInt32(bigEndian: block.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)),
          UInt32(bigEndian: block.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)),
          UInt32(bigEndian: block.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)))
}

/// FIPS 180-4 §6.2.2 on whole blocks, four rounds per SHA256H/SHA256H2 pair.
private func armv8SHA256Compress(_ state: UnsafeMutableRawPointer, _ blocks: UnsafeRawPointer, _ blockCount: Int) {
    sha256RoundConstants.withUnsafeBytes { constants in
        let k = constants.baseAddress!
        var abcd = state.loadUnaligned(as: Words.self), efgh = state.loadUnaligned(fromByteOffset: 16, as: Words.self)
        for n in 0..<blockCount {
            let block = blocks + 64 * n
            var m0 = messageWords(block, 0), m1 = messageWords(block, 16)
            var m2 = messageWords(block, 32), m3 = messageWords(block, 48)
            let abcd0 = abcd, efgh0 = efgh
            /// Rounds 4g...4g+3 with the quad `w`.
            @inline(__always) func rounds(_ g: Int, _ w: Words) {
                let wk = w &+ k.loadUnaligned(fromByteOffset: 16 * g, as: Words.self)
                let previous = abcd
                abcd = sha256h(abcd, efgh, wk)
                efgh = sha256h2(efgh, previous, wk)
            }
            for g in stride(from: 0, to: 12, by: 4) {
                rounds(g, m0); m0 = schedule(m0, m1, m2, m3)
                rounds(g + 1, m1); m1 = schedule(m1, m2, m3, m0)
                rounds(g + 2, m2); m2 = schedule(m2, m3, m0, m1)
                rounds(g + 3, m3); m3 = schedule(m3, m0, m1, m2)
            }
            rounds(12, m0); rounds(13, m1); rounds(14, m2); rounds(15, m3)
            abcd &+= abcd0
            efgh &+= efgh0
        }
        state.storeBytes(of: abcd, as: Words.self)
        state.storeBytes(of: efgh, toByteOffset: 16, as: Words.self)
    }
}
#endif
