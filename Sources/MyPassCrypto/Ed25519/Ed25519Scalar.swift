/// The order L = 2^252 + 27742317777372353535851937790883648493 of the edwards25519 base point
/// (RFC 8032 §5.1).
@usableFromInline
enum Ed25519OrderModulus: MontgomeryModulus {
    @inlinable static var modulus: UInt256 {
        UInt256(0x5812_631a_5cf5_d3ed, 0x14de_f9de_a2f7_9cd6, 0x0000_0000_0000_0000, 0x1000_0000_0000_0000)
    }
    @inlinable static var inverseNegated: UInt64 { 0xd2b5_1da3_1254_7e1b }
    @inlinable static var rSquared: UInt256 {
        UInt256(0xa406_11e3_449c_0f01, 0xd00e_1ba7_6885_9347, 0xceec_73d2_17f5_be65, 0x0399_411b_7c30_9a3d)
    }
    @inlinable static var rModulus: UInt256 {
        // 2^256 mod L.
        UInt256(0xd6ec_3174_8d98_951d, 0xc6ef_5bf4_737d_cf70, 0xffff_ffff_ffff_fffe, 0x0fff_ffff_ffff_ffff)
    }
}

/// A scalar modulo L, in Montgomery form (constant time, see ``MontgomeryResidue``).
@usableFromInline typealias Ed25519Scalar = MontgomeryResidue<Ed25519OrderModulus>

extension Ed25519Scalar {
    /// The residue of a 64-byte little-endian integer (a SHA-512 output, RFC 8032 §5.1.6-7).
    @inlinable
    init(wideLittleEndian bytes: [UInt8]) {
        precondition(bytes.count == 64)
        self.init(reducingHigh: UInt256(littleEndian: bytes[32..<64]), low: UInt256(littleEndian: bytes[0..<32]))
    }
}
