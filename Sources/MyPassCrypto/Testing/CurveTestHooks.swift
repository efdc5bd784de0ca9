/// Entry points into the curve internals for the test suite (package access: not part of the
/// public API). The tests run in release builds, where `@testable import` is not available, so
/// they reach the readable reference paths through these.
extension P256 {
    /// The RFC 6979 §3.2 nonce k (32 bytes, big-endian) for a 32-byte private key and a SHA-256 digest.
    package static func rfc6979NonceForTesting(privateKey: [UInt8], digest: [UInt8]) -> [UInt8] {
        RFC6979.nonce(privateKey: privateKey, digest: digest).bigEndianBytes
    }

    /// Whether the fixed-base table and the generic window ladder give the same multiple of G for
    /// a 32-byte big-endian scalar.
    package static func generatorTableMatchesLadderForTesting(scalar: [UInt8]) -> Bool {
        let value = UInt256(bigEndian: scalar)
        let table = P256Point.multipliedGenerator(by: value)
        let ladder = P256Point.generator.multiplied(by: value)
        guard table.isInfinityMask == ladder.isInfinityMask else { return false }
        return ladder.isInfinityMask != 0 || table.affine() == ladder.affine()
    }
}

extension Ed25519 {
    /// Whether the fixed-base table and the generic window ladder give the same multiple of B for
    /// a 32-byte little-endian scalar.
    package static func baseTableMatchesLadderForTesting(scalar: [UInt8]) -> Bool {
        let value = UInt256(littleEndian: scalar)
        return Ed25519Point.multipliedBase(by: value).encoded == Ed25519Point.base.multiplied(by: value).encoded
    }
}

extension P256 {
    /// The x coordinate (32 bytes, big-endian) of `scalar`·G computed by the generic window ladder,
    /// the variable-base scalar multiplication, for the timing tests (`ConstantTimeTests`).
    package static func ladderMultipleForTesting(scalar: [UInt8]) -> [UInt8] {
        let point = P256Point.generator.multiplied(by: UInt256(bigEndian: scalar))
        return point.affine().x.bigEndianBytes
    }
}
