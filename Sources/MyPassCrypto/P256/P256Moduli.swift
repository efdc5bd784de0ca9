/// The P-256 field prime p = 2^256 - 2^224 + 2^192 + 2^96 - 1 (SEC 2 §2.4.2, FIPS 186-5 / SP 800-186 §3.2.1.3).
@usableFromInline
enum P256FieldModulus: MontgomeryModulus {
    @inlinable static var modulus: UInt256 {
        UInt256(0xffff_ffff_ffff_ffff, 0x0000_0000_ffff_ffff, 0x0000_0000_0000_0000, 0xffff_ffff_0000_0001)
    }
    @inlinable static var inverseNegated: UInt64 { 1 }
    @inlinable static var rSquared: UInt256 {
        UInt256(0x0000_0000_0000_0003, 0xffff_fffb_ffff_ffff, 0xffff_ffff_ffff_fffe, 0x0000_0004_ffff_fffd)
    }
    @inlinable static var rModulus: UInt256 {
        UInt256(0x0000_0000_0000_0001, 0xffff_ffff_0000_0000, 0xffff_ffff_ffff_ffff, 0x0000_0000_ffff_fffe)
    }
}

/// The order n of the P-256 base point (SEC 2 §2.4.2).
@usableFromInline
enum P256OrderModulus: MontgomeryModulus {
    @inlinable static var modulus: UInt256 {
        UInt256(0xf3b9_cac2_fc63_2551, 0xbce6_faad_a717_9e84, 0xffff_ffff_ffff_ffff, 0xffff_ffff_0000_0000)
    }
    @inlinable static var inverseNegated: UInt64 { 0xccd1_c8aa_ee00_bc4f }
    @inlinable static var rSquared: UInt256 {
        UInt256(0x8324_4c95_be79_eea2, 0x4699_799c_49bd_6fa6, 0x2845_b239_2b6b_ec59, 0x66e1_2d94_f3d9_5620)
    }
    @inlinable static var rModulus: UInt256 {
        UInt256(0x0c46_353d_039c_daaf, 0x4319_0552_58e8_617b, 0x0000_0000_0000_0000, 0x0000_0000_ffff_ffff)
    }
}

/// An element of the P-256 base field, in Montgomery form.
@usableFromInline typealias P256FieldElement = MontgomeryResidue<P256FieldModulus>
/// A scalar modulo the P-256 group order n, in Montgomery form.
@usableFromInline typealias P256Scalar = MontgomeryResidue<P256OrderModulus>
