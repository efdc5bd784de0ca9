/// The constants of an odd 256-bit modulus for Montgomery arithmetic with R = 2^256.
@usableFromInline
protocol MontgomeryModulus: Sendable {
    /// The modulus m (odd, below 2^256).
    static var modulus: UInt256 { get }
    /// -m^-1 mod 2^64.
    static var inverseNegated: UInt64 { get }
    /// R^2 mod m, to enter Montgomery form.
    static var rSquared: UInt256 { get }
    /// R mod m: one in Montgomery form.
    static var rModulus: UInt256 { get }
}

/// An integer modulo `M.modulus`, held in Montgomery form (a·R mod m), always fully reduced.
///
/// Constant time: multiplication is CIOS Montgomery (Koç, Acar, Kaliski 1996) with a fixed
/// sequence of `multipliedFullWidth` and carries and a final subtraction chosen by mask; addition
/// and subtraction always compute both candidates and select by mask; inversion is
/// exponentiation by m - 2 (a public exponent, so its square-and-multiply pattern is public).
/// Nothing here branches on or indexes by a value.
@usableFromInline
struct MontgomeryResidue<M: MontgomeryModulus>: Sendable, Equatable {
    @usableFromInline var montgomery: UInt256

    @inlinable @inline(__always)
    init(montgomery: UInt256) { self.montgomery = montgomery }

    /// The residue of `value`, which must be below the modulus.
    @inlinable
    init(reduced value: UInt256) {
        montgomery = Self.multiply(value, M.rSquared)
    }

    /// The residue of any 256-bit `value` (reduced modulo m first).
    @inlinable
    init(reducing value: UInt256) {
        // value * R^2 / R = value * R mod m; CIOS accepts any a < 2^256 when b < m.
        montgomery = Self.multiply(value, M.rSquared)
    }

    /// The residue of a 512-bit `high * 2^256 + low`.
    @inlinable
    init(reducingHigh high: UInt256, low: UInt256) {
        let highPart = Self.multiply(Self.multiply(high, M.rSquared), M.rSquared)  // high * R * R
        let lowPart = Self.multiply(low, M.rSquared)  // low * R
        montgomery = Self.addReduced(highPart, lowPart)
    }

    @usableFromInline static var zero: Self { Self(montgomery: .zero) }
    @usableFromInline static var one: Self { Self(montgomery: M.rModulus) }

    /// The canonical integer in 0 ..< m.
    @inlinable
    var value: UInt256 { Self.multiply(montgomery, UInt256(1, 0, 0, 0)) }

    /// All ones when zero.
    @inlinable @inline(__always)
    var isZeroMask: UInt64 { montgomery.isZeroMask }

    @inlinable @inline(__always)
    static func * (a: Self, b: Self) -> Self { Self(montgomery: multiply(a.montgomery, b.montgomery)) }

    @inlinable @inline(__always)
    static func + (a: Self, b: Self) -> Self { Self(montgomery: addReduced(a.montgomery, b.montgomery)) }

    @inlinable @inline(__always)
    static func - (a: Self, b: Self) -> Self {
        let (difference, borrow) = UInt256.subtract(a.montgomery, b.montgomery)
        let (corrected, _) = UInt256.add(difference, M.modulus)
        return Self(montgomery: UInt256.select(maskFromBit(borrow), corrected, difference))
    }

    @inlinable @inline(__always)
    static prefix func - (a: Self) -> Self { zero - a }

    @inlinable @inline(__always)
    func squared() -> Self { self * self }

    /// `self` raised to the public exponent `exponent` (left to right square and multiply; the
    /// pattern depends on the exponent only).
    @inlinable
    func power(_ exponent: UInt256) -> Self {
        var result = Self.one
        for index in stride(from: 255, through: 0, by: -1) {
            result = result.squared()
            if exponent.bit(index) == 1 { result = result * self }
        }
        return result
    }

    /// The inverse (Fermat: a^(m-2)); zero for zero. Requires a prime modulus.
    @inlinable
    func inverse() -> Self {
        let (exponent, _) = UInt256.subtract(M.modulus, UInt256(2, 0, 0, 0))
        return power(exponent)
    }

    /// `a` where `mask` is all ones, else `b`.
    @inlinable @inline(__always)
    static func select(_ mask: UInt64, _ a: Self, _ b: Self) -> Self {
        Self(montgomery: UInt256.select(mask, a.montgomery, b.montgomery))
    }

    /// `(a + b) mod m` for a, b < m.
    @inlinable @inline(__always)
    static func addReduced(_ a: UInt256, _ b: UInt256) -> UInt256 {
        let (sum, carry) = UInt256.add(a, b)
        let (reduced, borrow) = UInt256.subtract(sum, M.modulus)
        // Keep the sum only when it did not overflow and was below m.
        return UInt256.select(maskFromBit(borrow & ~carry & 1), sum, reduced)
    }

    /// CIOS Montgomery multiplication: a·b·R^-1 mod m, fully reduced, for a·b < m·R.
    @inlinable @inline(__always)
    static func multiply(_ a: UInt256, _ b: UInt256) -> UInt256 {
        let m = M.modulus
        let k = M.inverseNegated
        var t0: UInt64 = 0, t1: UInt64 = 0, t2: UInt64 = 0, t3: UInt64 = 0, t4: UInt64 = 0
        var carry: UInt64 = 0
        var high: UInt64 = 0
        var u: UInt64 = 0
        var discard: UInt64 = 0

        @inline(__always)
        func round(_ bi: UInt64) {
            // t += a * bi
            (t0, carry) = mac(a.l0, bi, t0, 0)
            (t1, carry) = mac(a.l1, bi, t1, carry)
            (t2, carry) = mac(a.l2, bi, t2, carry)
            (t3, carry) = mac(a.l3, bi, t3, carry)
            let (s4, o4) = t4.addingReportingOverflow(carry)
            high = carryBit(o4)
            t4 = s4
            // t = (t + u * m) / 2^64
            u = t0 &* k
            (discard, carry) = mac(u, m.l0, t0, 0)
            (t0, carry) = mac(u, m.l1, t1, carry)
            (t1, carry) = mac(u, m.l2, t2, carry)
            (t2, carry) = mac(u, m.l3, t3, carry)
            let (s3, o3) = t4.addingReportingOverflow(carry)
            t3 = s3
            t4 = high &+ carryBit(o3)
        }
        round(b.l0)
        round(b.l1)
        round(b.l2)
        round(b.l3)
        _ = discard
        let result = UInt256(t0, t1, t2, t3)
        let (reduced, borrow) = UInt256.subtract(result, m)
        // result + t4·2^256 < 2m: subtract m unless it was already below m.
        return UInt256.select(maskFromBit(borrow & ~t4 & 1), result, reduced)
    }
}
