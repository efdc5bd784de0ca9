/// A point of edwards25519 (-x^2 + y^2 = 1 + d·x^2·y^2) in extended coordinates (X : Y : Z : T),
/// x = X/Z, y = Y/Z, x·y = T/Z (Hisil, Wong, Carter, Dawson 2008; RFC 8032 §5.1.4).
///
/// Constant time: the addition formula (RFC 8032 §5.1.4, "add-2008-hwcd-3") is complete on this
/// curve (d is not a square), so it has no special cases; doubling uses "dbl-2008-hwcd"; the
/// scalar multiplication is a fixed 4-bit window with a masked scan of the whole table.
@usableFromInline
struct Ed25519Point: Sendable {
    @usableFromInline var x: Ed25519FieldElement
    @usableFromInline var y: Ed25519FieldElement
    @usableFromInline var z: Ed25519FieldElement
    @usableFromInline var t: Ed25519FieldElement

    @inlinable @inline(__always)
    init(x: Ed25519FieldElement, y: Ed25519FieldElement, z: Ed25519FieldElement, t: Ed25519FieldElement) {
        self.x = x
        self.y = y
        self.z = z
        self.t = t
    }

    /// The neutral element (0, 1).
    @inlinable static var identity: Self { Self(x: .zero, y: .one, z: .one, t: .zero) }

    /// The base point B (RFC 8032 §5.1).
    @inlinable static var base: Self {
        Self(
            x: Ed25519FieldElement(UInt256(
                0xc956_2d60_8f25_d51a, 0x692c_c760_9525_a7b2, 0xc0a4_e231_fdd6_dc5c, 0x2169_36d3_cd6e_53fe)),
            y: Ed25519FieldElement(UInt256(
                0x6666_6666_6666_6658, 0x6666_6666_6666_6666, 0x6666_6666_6666_6666, 0x6666_6666_6666_6666)),
            z: .one,
            t: Ed25519FieldElement(UInt256(
                0x6dde_8ab3_a5b7_dda3, 0x20f0_9f80_7751_52f5, 0x66ea_4e8e_64ab_e37d, 0x6787_5f0f_d78b_7665)))
    }

    /// `self + q` (RFC 8032 §5.1.4, complete).
    @inlinable
    func adding(_ q: Self) -> Self {
        let a = (y - x) * (q.y - q.x)
        let b = (y + x) * (q.y + q.x)
        let c = t * Ed25519FieldElement.d2 * q.t
        let zz = z * q.z
        let d = zz + zz
        let e = b - a, f = d - c, g = d + c, h = b + a
        return Self(x: e * f, y: g * h, z: f * g, t: e * h)
    }

    /// `2 · self` (RFC 8032 §5.1.4).
    @inlinable
    func doubled() -> Self {
        let a = x.squared()
        let b = y.squared()
        let zz = z.squared()
        let c = zz + zz
        let h = a + b
        let e = h - (x + y).squared()
        let g = a - b
        let f = c + g
        return Self(x: e * f, y: g * h, z: f * g, t: e * h)
    }

    /// `-self`.
    @inlinable
    var negated: Self { Self(x: -x, y: y, z: z, t: -t) }

    @inlinable @inline(__always)
    static func select(_ mask: UInt64, _ a: Self, _ b: Self) -> Self {
        Self(x: .select(mask, a.x, b.x), y: .select(mask, a.y, b.y), z: .select(mask, a.z, b.z), t: .select(mask, a.t, b.t))
    }

    /// `scalar · self` for any 256-bit scalar (may be secret): 64 rounds of four doublings and
    /// one complete addition of a table entry read by a masked scan of all 16 entries.
    @inlinable
    func multiplied(by scalar: UInt256) -> Self {
        var table = [Self](repeating: .identity, count: 16)
        table[1] = self
        for index in 2..<16 {
            table[index] = index % 2 == 0 ? table[index / 2].doubled() : table[index - 1].adding(self)
        }
        var result = Self.identity
        for window in stride(from: 252, through: 0, by: -4) {
            if window != 252 {
                result = result.doubled().doubled().doubled().doubled()
            }
            let digit = scalar.nibble(window)
            var chosen = Self.identity
            for index in 0..<16 {
                let difference = UInt64(index) ^ digit
                let mask = ((difference | (0 &- difference)) &>> 63) &- 1
                chosen = .select(mask, table[index], chosen)
            }
            result = result.adding(chosen)
        }
        return result
    }

    /// The 32-byte encoding: y little-endian with the sign of x in bit 255 (RFC 8032 §5.1.2).
    /// One inversion by a public exponent.
    @inlinable
    var encoded: [UInt8] {
        let zInverse = z.inverse()
        let affineX = x * zInverse
        var bytes = (y * zInverse).bytes
        bytes[31] |= UInt8(truncatingIfNeeded: affineX.isNegative) << 7
        return bytes
    }

    /// Decodes a point (RFC 8032 §5.1.3): y must be below p, x is recovered from the curve
    /// equation and its sign bit; `nil` when there is no such point. Public data only.
    @inlinable
    init?(encoded bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        let sign = UInt64(bytes[31] >> 7)
        var yBytes = bytes
        yBytes[31] &= 0x7F
        let yValue = UInt256(littleEndian: yBytes)
        guard UInt256.lessThan(yValue, Ed25519FieldElement.p) == 1 else { return nil }
        let y = Ed25519FieldElement(yValue)
        let yy = y.squared()
        let u = yy - .one
        let v = Ed25519FieldElement.d * yy + .one
        let v3 = v.squared() * v
        let v7 = v3.squared() * v
        var x = u * v3 * (u * v7).powerP58()
        let check = v * x.squared()
        if check == u {
            // x is a root.
        } else if check == -u {
            x = x * Ed25519FieldElement.sqrtMinusOne
        } else {
            return nil
        }
        if x.isZeroMask != 0 && sign == 1 { return nil }
        if x.isNegative != sign { x = -x }
        self.init(x: x, y: y, z: .one, t: x * y)
    }
}
