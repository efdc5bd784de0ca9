/// A point of P-256 (y^2 = x^3 - 3x + b) in homogeneous projective coordinates (X : Y : Z),
/// x = X/Z, y = Y/Z; the point at infinity is (0 : 1 : 0).
///
/// Constant time: addition and doubling are the complete formulas of Renes, Costello and Batina,
/// "Complete addition formulas for prime order elliptic curves" (EUROCRYPT 2016), algorithms 4
/// and 6 for a = -3. They hold for every pair of inputs, the point at infinity and P + P
/// included, so there is no case split at all; the scalar multiplication below uses them with a
/// fixed window and a table read that touches every entry.
@usableFromInline
struct P256Point: Sendable {
    @usableFromInline var x: P256FieldElement
    @usableFromInline var y: P256FieldElement
    @usableFromInline var z: P256FieldElement

    @inlinable @inline(__always)
    init(x: P256FieldElement, y: P256FieldElement, z: P256FieldElement) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The curve constant b, in Montgomery form.
    @inlinable static var b: P256FieldElement {
        P256FieldElement(montgomery: UInt256(
            0xd89c_df62_29c4_bddf, 0xacf0_05cd_7884_3090, 0xe5a2_20ab_f721_2ed6, 0xdc30_061d_0487_4834))
    }

    /// The base point G (SEC 2 §2.4.2).
    @inlinable static var generator: P256Point {
        P256Point(
            x: P256FieldElement(montgomery: UInt256(
                0x79e7_30d4_18a9_143c, 0x75ba_95fc_5fed_b601, 0x79fb_732b_7762_2510, 0x1890_5f76_a537_55c6)),
            y: P256FieldElement(montgomery: UInt256(
                0xddf2_5357_ce95_560a, 0x8b4a_b8e4_ba19_e45c, 0xd2e8_8688_dd21_f325, 0x8571_ff18_2588_5d85)),
            z: .one)
    }

    /// The point at infinity.
    @inlinable static var infinity: P256Point { P256Point(x: .zero, y: .one, z: .zero) }

    /// The affine point (x, y); the caller has checked that it lies on the curve.
    @inlinable
    init(affineX: P256FieldElement, affineY: P256FieldElement) {
        self.init(x: affineX, y: affineY, z: .one)
    }

    /// Whether affine (x, y) satisfies y^2 = x^3 - 3x + b. Public data only (public keys).
    @inlinable
    static func isOnCurve(x: P256FieldElement, y: P256FieldElement) -> Bool {
        let three = P256FieldElement.one + P256FieldElement.one + P256FieldElement.one
        let rightSide = x.squared() * x - three * x + b
        return y.squared() == rightSide
    }

    /// All ones when this is the point at infinity (Z = 0).
    @inlinable @inline(__always)
    var isInfinityMask: UInt64 { z.isZeroMask }

    /// The affine coordinates (x, y) as canonical integers; (0, 0) for the point at infinity.
    /// Runs one inversion by a fixed exponent (constant time).
    @inlinable
    func affine() -> (x: UInt256, y: UInt256) {
        let zInverse = z.inverse()
        return ((x * zInverse).value, (y * zInverse).value)
    }

    /// `self + other` (RCB16 algorithm 4, a = -3; 12 multiplications, 2 by b).
    @inlinable
    func adding(_ q: P256Point) -> P256Point {
        let b = Self.b
        let (x1, y1, z1, x2, y2, z2) = (x, y, z, q.x, q.y, q.z)
        var t0 = x1 * x2
        var t1 = y1 * y2
        var t2 = z1 * z2
        var t3 = x1 + y1
        var t4 = x2 + y2
        t3 = t3 * t4
        t4 = t0 + t1
        t3 = t3 - t4
        t4 = y1 + z1
        var x3 = y2 + z2
        t4 = t4 * x3
        x3 = t1 + t2
        t4 = t4 - x3
        x3 = x1 + z1
        var y3 = x2 + z2
        x3 = x3 * y3
        y3 = t0 + t2
        y3 = x3 - y3
        var z3 = b * t2
        x3 = y3 - z3
        z3 = x3 + x3
        x3 = x3 + z3
        z3 = t1 - x3
        x3 = t1 + x3
        y3 = b * y3
        t1 = t2 + t2
        t2 = t1 + t2
        y3 = y3 - t2
        y3 = y3 - t0
        t1 = y3 + y3
        y3 = t1 + y3
        t1 = t0 + t0
        t0 = t1 + t0
        t0 = t0 - t2
        t1 = t4 * y3
        t2 = t0 * y3
        y3 = x3 * z3
        y3 = y3 + t2
        x3 = t3 * x3
        x3 = x3 - t1
        z3 = t4 * z3
        t1 = t3 * t0
        z3 = z3 + t1
        return P256Point(x: x3, y: y3, z: z3)
    }

    /// `2 * self` (RCB16 algorithm 6, a = -3; 8 multiplications, 3 squarings, 2 by b).
    @inlinable
    func doubled() -> P256Point {
        let b = Self.b
        var t0 = x.squared()
        let t1 = y.squared()
        var t2 = z.squared()
        var t3 = x * y
        t3 = t3 + t3
        var z3 = x * z
        z3 = z3 + z3
        var y3 = b * t2
        y3 = y3 - z3
        var x3 = y3 + y3
        y3 = x3 + y3
        x3 = t1 - y3
        y3 = t1 + y3
        y3 = x3 * y3
        x3 = x3 * t3
        t3 = t2 + t2
        t2 = t2 + t3
        z3 = b * z3
        z3 = z3 - t2
        z3 = z3 - t0
        t3 = z3 + z3
        z3 = z3 + t3
        t3 = t0 + t0
        t0 = t3 + t0
        t0 = t0 - t2
        t0 = t0 * z3
        y3 = y3 + t0
        t0 = y * z
        t0 = t0 + t0
        z3 = t0 * z3
        x3 = x3 - z3
        z3 = t0 * t1
        z3 = z3 + z3
        z3 = z3 + z3
        return P256Point(x: x3, y: y3, z: z3)
    }

    /// `a` where `mask` is all ones, else `b`.
    @inlinable @inline(__always)
    static func select(_ mask: UInt64, _ a: P256Point, _ b: P256Point) -> P256Point {
        P256Point(
            x: .select(mask, a.x, b.x), y: .select(mask, a.y, b.y), z: .select(mask, a.z, b.z))
    }

    /// `scalar * self` for a 256-bit scalar (any value; may be secret).
    ///
    /// Fixed 4-bit window from the top: 64 rounds of four doublings and one addition, always,
    /// with the multiple read from a 16-entry table by scanning all entries under a mask (no
    /// secret index). Adding the identity for a zero window goes through the same complete
    /// formula, so zero windows cost the same as any other.
    @inlinable
    func multiplied(by scalar: UInt256) -> P256Point {
        var table = [P256Point](repeating: .infinity, count: 16)
        table[1] = self
        for index in 2..<16 {
            table[index] = index % 2 == 0 ? table[index / 2].doubled() : table[index - 1].adding(self)
        }
        var result = P256Point.infinity
        for window in stride(from: 252, through: 0, by: -4) {
            if window != 252 {
                result = result.doubled().doubled().doubled().doubled()
            }
            let digit = scalar.nibble(window)
            var chosen = P256Point.infinity
            for index in 0..<16 {
                // mask = all ones exactly when index == digit.
                let difference = UInt64(index) ^ digit
                let mask = ((difference | (0 &- difference)) &>> 63) &- 1
                chosen = .select(mask, table[index], chosen)
            }
            result = result.adding(chosen)
        }
        return result
    }
}
