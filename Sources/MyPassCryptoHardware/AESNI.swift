#if arch(x86_64)
import Builtin

// AES-256 with AES-NI (Intel, "Advanced Encryption Standard (AES) New Instructions Set", 2010).
// Each function runs only after CryptoBackend found `aes` and `sse4_1` in the CPU's flags.

private typealias Block = SIMD2<UInt64>

/// AESENC: ShiftRows, SubBytes, MixColumns, AddRoundKey.
@inline(__always)
private func aesenc(_ state: Block, _ key: Block) -> Block {
    var out = Block()
    out._storage._value = Builtin.int_x86_aesni_aesenc(state._storage._value, key._storage._value)
    return out
}

/// AESENCLAST: the last round, without MixColumns.
@inline(__always)
private func aesenclast(_ state: Block, _ key: Block) -> Block {
    var out = Block()
    out._storage._value = Builtin.int_x86_aesni_aesenclast(state._storage._value, key._storage._value)
    return out
}

/// AESDEC: one round of the equivalent inverse cipher.
@inline(__always)
private func aesdec(_ state: Block, _ key: Block) -> Block {
    var out = Block()
    out._storage._value = Builtin.int_x86_aesni_aesdec(state._storage._value, key._storage._value)
    return out
}

/// AESDECLAST: its last round, without InvMixColumns.
@inline(__always)
private func aesdeclast(_ state: Block, _ key: Block) -> Block {
    var out = Block()
    out._storage._value = Builtin.int_x86_aesni_aesdeclast(state._storage._value, key._storage._value)
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

    @inline(__always)
    func encrypt(_ s: Block) -> Block {
        var s = s ^ k0
        s = aesenc(s, k1); s = aesenc(s, k2); s = aesenc(s, k3); s = aesenc(s, k4); s = aesenc(s, k5)
        s = aesenc(s, k6); s = aesenc(s, k7); s = aesenc(s, k8); s = aesenc(s, k9); s = aesenc(s, k10)
        s = aesenc(s, k11); s = aesenc(s, k12); s = aesenc(s, k13)
        return aesenclast(s, k14)
    }

    @inline(__always)
    func decrypt(_ s: Block) -> Block {
        var s = s ^ k0
        s = aesdec(s, k1); s = aesdec(s, k2); s = aesdec(s, k3); s = aesdec(s, k4); s = aesdec(s, k5)
        s = aesdec(s, k6); s = aesdec(s, k7); s = aesdec(s, k8); s = aesdec(s, k9); s = aesdec(s, k10)
        s = aesdec(s, k11); s = aesdec(s, k12); s = aesdec(s, k13)
        return aesdeclast(s, k14)
    }
}

/// AES-KDF: both halves' chains interleaved round by round, so that each AESENC's latency is
/// shared by two independent instructions.
func aesniKDF(_ keys: UnsafeRawPointer, _ data: UnsafeMutableRawPointer, _ rounds: UInt64) {
    let k = RoundKeys(keys)
    var a = data.loadUnaligned(as: Block.self), b = data.loadUnaligned(fromByteOffset: 16, as: Block.self)
    var remaining = rounds
    while remaining > 0 {
        a ^= k.k0; b ^= k.k0
        a = aesenc(a, k.k1); b = aesenc(b, k.k1)
        a = aesenc(a, k.k2); b = aesenc(b, k.k2)
        a = aesenc(a, k.k3); b = aesenc(b, k.k3)
        a = aesenc(a, k.k4); b = aesenc(b, k.k4)
        a = aesenc(a, k.k5); b = aesenc(b, k.k5)
        a = aesenc(a, k.k6); b = aesenc(b, k.k6)
        a = aesenc(a, k.k7); b = aesenc(b, k.k7)
        a = aesenc(a, k.k8); b = aesenc(b, k.k8)
        a = aesenc(a, k.k9); b = aesenc(b, k.k9)
        a = aesenc(a, k.k10); b = aesenc(b, k.k10)
        a = aesenc(a, k.k11); b = aesenc(b, k.k11)
        a = aesenc(a, k.k12); b = aesenc(b, k.k12)
        a = aesenc(a, k.k13); b = aesenc(b, k.k13)
        a = aesenclast(a, k.k14); b = aesenclast(b, k.k14)
        remaining &-= 1
    }
    data.storeBytes(of: a, as: Block.self)
    data.storeBytes(of: b, toByteOffset: 16, as: Block.self)
}

/// CBC encryption: serial by definition, one block after the other.
func aesniCBCEncrypt(_ keys: UnsafeRawPointer, _ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer,
                     _ blocks: Int, _ chain: UnsafeMutableRawPointer) {
    let k = RoundKeys(keys)
    var c = chain.loadUnaligned(as: Block.self)
    for i in 0..<blocks {
        c = k.encrypt(c ^ input.loadUnaligned(fromByteOffset: 16 * i, as: Block.self))
        output.storeBytes(of: c, toByteOffset: 16 * i, as: Block.self)
    }
    chain.storeBytes(of: c, as: Block.self)
}

/// CBC decryption: eight independent blocks at a time, round by round, so that the AESDEC units
/// stay busy.
func aesniCBCDecrypt(_ keys: UnsafeRawPointer, _ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer,
                     _ blocks: Int, _ chain: UnsafeMutableRawPointer) {
    var c = chain.loadUnaligned(as: Block.self)
    var i = 0
    if blocks >= 8 {
        let k0 = keys.loadUnaligned(as: Block.self), k14 = keys.loadUnaligned(fromByteOffset: 224, as: Block.self)
        while i + 8 <= blocks {
            let source = input + 16 * i, target = output + 16 * i
            let x0 = source.loadUnaligned(as: Block.self), x1 = source.loadUnaligned(fromByteOffset: 16, as: Block.self)
            let x2 = source.loadUnaligned(fromByteOffset: 32, as: Block.self)
            let x3 = source.loadUnaligned(fromByteOffset: 48, as: Block.self)
            let x4 = source.loadUnaligned(fromByteOffset: 64, as: Block.self)
            let x5 = source.loadUnaligned(fromByteOffset: 80, as: Block.self)
            let x6 = source.loadUnaligned(fromByteOffset: 96, as: Block.self)
            let x7 = source.loadUnaligned(fromByteOffset: 112, as: Block.self)
            var s0 = x0 ^ k0, s1 = x1 ^ k0, s2 = x2 ^ k0, s3 = x3 ^ k0
            var s4 = x4 ^ k0, s5 = x5 ^ k0, s6 = x6 ^ k0, s7 = x7 ^ k0
            var round = 1
            while round < 14 {
                let k = keys.loadUnaligned(fromByteOffset: 16 * round, as: Block.self)
                s0 = aesdec(s0, k); s1 = aesdec(s1, k); s2 = aesdec(s2, k); s3 = aesdec(s3, k)
                s4 = aesdec(s4, k); s5 = aesdec(s5, k); s6 = aesdec(s6, k); s7 = aesdec(s7, k)
                round += 1
            }
            target.storeBytes(of: aesdeclast(s0, k14) ^ c, as: Block.self)
            target.storeBytes(of: aesdeclast(s1, k14) ^ x0, toByteOffset: 16, as: Block.self)
            target.storeBytes(of: aesdeclast(s2, k14) ^ x1, toByteOffset: 32, as: Block.self)
            target.storeBytes(of: aesdeclast(s3, k14) ^ x2, toByteOffset: 48, as: Block.self)
            target.storeBytes(of: aesdeclast(s4, k14) ^ x3, toByteOffset: 64, as: Block.self)
            target.storeBytes(of: aesdeclast(s5, k14) ^ x4, toByteOffset: 80, as: Block.self)
            target.storeBytes(of: aesdeclast(s6, k14) ^ x5, toByteOffset: 96, as: Block.self)
            target.storeBytes(of: aesdeclast(s7, k14) ^ x6, toByteOffset: 112, as: Block.self)
            c = x7
            i += 8
        }
    }
    if i < blocks {
        let k = RoundKeys(keys)
        while i < blocks {
            let x = input.loadUnaligned(fromByteOffset: 16 * i, as: Block.self)
            output.storeBytes(of: k.decrypt(x) ^ c, toByteOffset: 16 * i, as: Block.self)
            c = x
            i += 1
        }
    }
    chain.storeBytes(of: c, as: Block.self)
}
#endif
