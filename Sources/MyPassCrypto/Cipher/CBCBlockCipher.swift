/// A 128-bit block cipher that the CBC engine can drive. Implementations chain blocks themselves,
/// so that a bitsliced cipher can decrypt several independent blocks at once.
protocol CBCBlockCipher: Sendable {
    /// CBC-encrypts `blocks` 16-byte blocks from `input` to `output`; `chain` (16 bytes) holds the
    /// previous ciphertext block (the IV at first) and is updated.
    func cbcEncrypt(_ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer, blocks: Int,
                    chain: UnsafeMutableRawPointer)
    /// CBC-decrypts `blocks` blocks; `input` and `output` do not overlap.
    func cbcDecrypt(_ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer, blocks: Int,
                    chain: UnsafeMutableRawPointer)
}

/// XORs 16 bytes of `source` into `target`.
@inline(__always)
func xor16(_ target: UnsafeMutableRawPointer, _ source: UnsafeRawPointer) {
    let a = target.loadUnaligned(as: UInt64.self) ^ source.loadUnaligned(as: UInt64.self)
    let b = target.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        ^ source.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
    target.storeBytes(of: a, as: UInt64.self)
    target.storeBytes(of: b, toByteOffset: 8, as: UInt64.self)
}
