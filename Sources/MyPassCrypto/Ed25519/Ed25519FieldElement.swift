/// An element of GF(2^255 - 19) as four 64-bit limbs, kept below 2^256 (reduced modulo 2p
/// lazily) and brought to canonical form only for encoding and comparison.
///
/// Constant time: multiplication is a 4×4-limb schoolbook product folded with 2^256 ≡ 38
/// (three folds, always); addition and subtraction fold their carry or borrow by mask; the
/// canonical reduction subtracts p by mask; inversion and square roots raise to public
/// exponents. No branch or index depends on a value.
@usableFromInline
struct Ed25519FieldElement: Sendable {
    @usableFromInline var limbs: UInt256

    @inlinable @inline(__always)
    init(_ limbs: UInt256) { self.limbs = limbs }

    @usableFromInline static let p = UInt256(
        0xffff_ffff_ffff_ffed, 0xffff_ffff_ffff_ffff, 0xffff_ffff_ffff_ffff, 0x7fff_ffff_ffff_ffff)

    @inlinable static var zero: Self { Self(.zero) }
    @inlinable static var one: Self { Self(UInt256(1, 0, 0, 0)) }

    /// d = -121665/121666 (RFC 8032 §5.1).
    @inlinable static var d: Self {
        Self(UInt256(0x75eb_4dca_1359_78a3, 0x0070_0a4d_4141_d8ab, 0x8cc7_4079_7779_e898, 0x5203_6cee_2b6f_fe73))
    }
    /// 2d.
    @inlinable static var d2: Self {
        Self(UInt256(0xebd6_9b94_26b2_f159, 0x00e0_149a_8283_b156, 0x198e_80f2_eef3_d130, 0x2406_d9dc_56df_fce7))
    }
    /// sqrt(-1) = 2^((p-1)/4).
    @inlinable static var sqrtMinusOne: Self {
        Self(UInt256(0xc4ee_1b27_4a0e_a0b0, 0x2f43_1806_ad2f_e478, 0x2b4d_0099_3dfb_d7a7, 0x2b83_2480_4fc1_df0b))
    }

    /// Folds `value + carry·2^256` (carry small) back below 2^256 using 2^256 ≡ 38.
    @inlinable @inline(__always)
    static func fold(_ value: UInt256, _ carry: UInt64) -> UInt256 {
        let (first, c1) = UInt256.add(value, UInt256(carry &* 38, 0, 0, 0))
        // A second carry leaves a small value, so this add cannot carry again.
        let (second, _) = UInt256.add(first, UInt256(c1 &* 38, 0, 0, 0))
        return second
    }

    @inlinable @inline(__always)
    static func + (a: Self, b: Self) -> Self {
        let (sum, carry) = UInt256.add(a.limbs, b.limbs)
        return Self(fold(sum, carry))
    }

    @inlinable @inline(__always)
    static func - (a: Self, b: Self) -> Self {
        // a - b + borrow·2^256, and 2^256 ≡ 38: subtract 38 per borrow, twice by mask.
        let (difference, borrow) = UInt256.subtract(a.limbs, b.limbs)
        let (first, borrow2) = UInt256.subtract(difference, UInt256(borrow &* 38, 0, 0, 0))
        let (second, _) = UInt256.subtract(first, UInt256(borrow2 &* 38, 0, 0, 0))
        return Self(second)
    }

    @inlinable @inline(__always)
    static prefix func - (a: Self) -> Self { zero - a }

    @inlinable @inline(__always)
    static func * (a: Self, b: Self) -> Self {
        let (low, high) = UInt256.multiplyFull(a.limbs, b.limbs)
        // low + 38·high: high·38 fits in 5 limbs.
        var carry: UInt64 = 0
        var h0: UInt64 = 0, h1: UInt64 = 0, h2: UInt64 = 0, h3: UInt64 = 0
        (h0, carry) = mac(high.l0, 38, 0, 0)
        (h1, carry) = mac(high.l1, 38, 0, carry)
        (h2, carry) = mac(high.l2, 38, 0, carry)
        (h3, carry) = mac(high.l3, 38, 0, carry)
        let (sum, c) = UInt256.add(low, UInt256(h0, h1, h2, h3))
        return Self(fold(sum, carry &+ c))
    }

    @inlinable @inline(__always)
    func squared() -> Self { self * self }

    /// The canonical value in 0 ..< p.
    @inlinable
    var canonical: UInt256 {
        // Below 2^256 = 2p + 38: at most two subtractions of p, each by mask.
        var value = limbs
        for _ in 0..<2 {
            let (reduced, borrow) = UInt256.subtract(value, Self.p)
            value = UInt256.select(maskFromBit(borrow), value, reduced)
        }
        return value
    }

    /// 32 bytes little-endian, canonical (RFC 8032 §5.1.2).
    @inlinable
    var bytes: [UInt8] { canonical.littleEndianBytes }

    /// Whether the canonical value is odd (the sign bit of x in encodings), as 0 or 1.
    @inlinable
    var isNegative: UInt64 { canonical.l0 & 1 }

    /// All ones when the canonical value is zero.
    @inlinable
    var isZeroMask: UInt64 { canonical.isZeroMask }

    /// Canonical equality (for public values or as a 0/1 result).
    @inlinable
    static func == (a: Self, b: Self) -> Bool { (a - b).isZeroMask != 0 }

    /// `self^exponent` for a public exponent.
    @inlinable
    func power(_ exponent: UInt256) -> Self {
        var result = Self.one
        for index in stride(from: 255, through: 0, by: -1) {
            result = result.squared()
            if exponent.bit(index) == 1 { result = result * self }
        }
        return result
    }

    /// The inverse, a^(p-2) (zero for zero).
    @inlinable
    func inverse() -> Self {
        power(UInt256(0xffff_ffff_ffff_ffeb, 0xffff_ffff_ffff_ffff, 0xffff_ffff_ffff_ffff, 0x7fff_ffff_ffff_ffff))
    }

    /// a^((p-5)/8), for square roots (RFC 8032 §5.1.3).
    @inlinable
    func powerP58() -> Self {
        power(UInt256(0xffff_ffff_ffff_fffd, 0xffff_ffff_ffff_ffff, 0xffff_ffff_ffff_ffff, 0x0fff_ffff_ffff_ffff))
    }

    @inlinable @inline(__always)
    static func select(_ mask: UInt64, _ a: Self, _ b: Self) -> Self { Self(UInt256.select(mask, a.limbs, b.limbs)) }
}
