/// A 256-bit unsigned integer as four 64-bit limbs, least significant first, for the elliptic
/// curve code (P-256, Ed25519).
///
/// Constant time: every operation here runs the same instructions whatever the values. Carries
/// come from `addingReportingOverflow` and `multipliedFullWidth` (adc/sbb/mul on x86-64 and
/// arm64); a carry flag becomes 0 or 1 through `carryBit`, and choices are masks, never branches
/// or indices that depend on a value.
@usableFromInline
struct UInt256: Sendable, Equatable {
    @usableFromInline var l0: UInt64
    @usableFromInline var l1: UInt64
    @usableFromInline var l2: UInt64
    @usableFromInline var l3: UInt64

    @inlinable @inline(__always)
    init(_ l0: UInt64, _ l1: UInt64, _ l2: UInt64, _ l3: UInt64) {
        self.l0 = l0
        self.l1 = l1
        self.l2 = l2
        self.l3 = l3
    }

    @usableFromInline static let zero = UInt256(0, 0, 0, 0)

    /// Reads 32 bytes, big-endian (SEC 1 §2.3.7, RFC 6979 §2.3.2); `bytes` must hold exactly 32.
    @inlinable
    init<C: Collection>(bigEndian bytes: C) where C.Element == UInt8 {
        precondition(bytes.count == 32, "UInt256 needs 32 bytes")
        var limbs: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        for (index, byte) in bytes.enumerated() {
            let word = 3 - index / 8
            let value = UInt64(byte)
            switch word {
            case 3: limbs.3 = limbs.3 << 8 | value
            case 2: limbs.2 = limbs.2 << 8 | value
            case 1: limbs.1 = limbs.1 << 8 | value
            default: limbs.0 = limbs.0 << 8 | value
            }
        }
        self.init(limbs.0, limbs.1, limbs.2, limbs.3)
    }

    /// Reads 32 bytes, little-endian (RFC 8032 §5.1.2); `bytes` must hold exactly 32.
    @inlinable
    init<C: Collection>(littleEndian bytes: C) where C.Element == UInt8 {
        self.init(bigEndian: bytes.reversed())
    }

    /// The 32 bytes, big-endian.
    @inlinable
    var bigEndianBytes: [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(32)
        for limb in [l3, l2, l1, l0] {
            for shift in stride(from: 56, through: 0, by: -8) {
                out.append(UInt8(truncatingIfNeeded: limb &>> UInt64(shift)))
            }
        }
        return out
    }

    /// The 32 bytes, little-endian.
    @inlinable
    var littleEndianBytes: [UInt8] { bigEndianBytes.reversed() }

    /// Bit `index` (0 is the least significant). The index is public; the bit may be secret and
    /// is returned as a value, never branched on here.
    @inlinable @inline(__always)
    func bit(_ index: Int) -> UInt64 {
        let limb: UInt64
        switch index >> 6 {
        case 0: limb = l0
        case 1: limb = l1
        case 2: limb = l2
        default: limb = l3
        }
        return (limb &>> UInt64(index & 63)) & 1
    }

    /// Four bits starting at `index` (a multiple of 4), as 0...15.
    @inlinable @inline(__always)
    func nibble(_ index: Int) -> UInt64 {
        let limb: UInt64
        switch index >> 6 {
        case 0: limb = l0
        case 1: limb = l1
        case 2: limb = l2
        default: limb = l3
        }
        return (limb &>> UInt64(index & 63)) & 0xF
    }

    /// All ones when the value is zero, else zero (no branch).
    @inlinable @inline(__always)
    var isZeroMask: UInt64 {
        let any = l0 | l1 | l2 | l3
        // (any | -any) has its top bit set exactly when any != 0.
        return ((any | (0 &- any)) &>> 63) &- 1
    }
}

/// 0 or 1 from an overflow flag, without a branch (compiles to setc).
@inlinable @inline(__always)
func carryBit(_ flag: Bool) -> UInt64 {
    UInt64(truncatingIfNeeded: unsafeBitCast(flag, to: UInt8.self))
}

/// All ones when `bit` is 1, zero when it is 0.
@inlinable @inline(__always)
func maskFromBit(_ bit: UInt64) -> UInt64 { 0 &- bit }

extension UInt256 {
    /// `a + b` and the carry out (0 or 1).
    @inlinable @inline(__always)
    static func add(_ a: UInt256, _ b: UInt256) -> (sum: UInt256, carry: UInt64) {
        let (s0, c0) = a.l0.addingReportingOverflow(b.l0)
        let (t1, c1a) = a.l1.addingReportingOverflow(b.l1)
        let (s1, c1b) = t1.addingReportingOverflow(carryBit(c0))
        let (t2, c2a) = a.l2.addingReportingOverflow(b.l2)
        let (s2, c2b) = t2.addingReportingOverflow(carryBit(c1a) | carryBit(c1b))
        let (t3, c3a) = a.l3.addingReportingOverflow(b.l3)
        let (s3, c3b) = t3.addingReportingOverflow(carryBit(c2a) | carryBit(c2b))
        return (UInt256(s0, s1, s2, s3), carryBit(c3a) | carryBit(c3b))
    }

    /// `a - b` modulo 2^256 and the borrow out (0 or 1).
    @inlinable @inline(__always)
    static func subtract(_ a: UInt256, _ b: UInt256) -> (difference: UInt256, borrow: UInt64) {
        let (s0, c0) = a.l0.subtractingReportingOverflow(b.l0)
        let (t1, c1a) = a.l1.subtractingReportingOverflow(b.l1)
        let (s1, c1b) = t1.subtractingReportingOverflow(carryBit(c0))
        let (t2, c2a) = a.l2.subtractingReportingOverflow(b.l2)
        let (s2, c2b) = t2.subtractingReportingOverflow(carryBit(c1a) | carryBit(c1b))
        let (t3, c3a) = a.l3.subtractingReportingOverflow(b.l3)
        let (s3, c3b) = t3.subtractingReportingOverflow(carryBit(c2a) | carryBit(c2b))
        return (UInt256(s0, s1, s2, s3), carryBit(c3a) | carryBit(c3b))
    }

    /// `a` where `mask` is all ones, `b` where it is zero.
    @inlinable @inline(__always)
    static func select(_ mask: UInt64, _ a: UInt256, _ b: UInt256) -> UInt256 {
        UInt256(
            (a.l0 & mask) | (b.l0 & ~mask), (a.l1 & mask) | (b.l1 & ~mask),
            (a.l2 & mask) | (b.l2 & ~mask), (a.l3 & mask) | (b.l3 & ~mask))
    }

    /// 1 when `a < b`, else 0 (the borrow of `a - b`).
    @inlinable @inline(__always)
    static func lessThan(_ a: UInt256, _ b: UInt256) -> UInt64 { subtract(a, b).borrow }

    /// The full 512-bit product, as (low, high) halves. Schoolbook, 16 multiplications.
    @inlinable @inline(__always)
    static func multiplyFull(_ a: UInt256, _ b: UInt256) -> (low: UInt256, high: UInt256) {
        var r0: UInt64 = 0, r1: UInt64 = 0, r2: UInt64 = 0, r3: UInt64 = 0
        var r4: UInt64 = 0, r5: UInt64 = 0, r6: UInt64 = 0, r7: UInt64 = 0
        var carry: UInt64 = 0
        // Row 0.
        (r0, carry) = mac(a.l0, b.l0, 0, 0)
        (r1, carry) = mac(a.l1, b.l0, 0, carry)
        (r2, carry) = mac(a.l2, b.l0, 0, carry)
        (r3, r4) = mac(a.l3, b.l0, 0, carry)
        // Row 1.
        (r1, carry) = mac(a.l0, b.l1, r1, 0)
        (r2, carry) = mac(a.l1, b.l1, r2, carry)
        (r3, carry) = mac(a.l2, b.l1, r3, carry)
        (r4, r5) = mac(a.l3, b.l1, r4, carry)
        // Row 2.
        (r2, carry) = mac(a.l0, b.l2, r2, 0)
        (r3, carry) = mac(a.l1, b.l2, r3, carry)
        (r4, carry) = mac(a.l2, b.l2, r4, carry)
        (r5, r6) = mac(a.l3, b.l2, r5, carry)
        // Row 3.
        (r3, carry) = mac(a.l0, b.l3, r3, 0)
        (r4, carry) = mac(a.l1, b.l3, r4, carry)
        (r5, carry) = mac(a.l2, b.l3, r5, carry)
        (r6, r7) = mac(a.l3, b.l3, r6, carry)
        return (UInt256(r0, r1, r2, r3), UInt256(r4, r5, r6, r7))
    }
}

/// `a * b + c + carry` as (low, high); cannot overflow 128 bits.
@inlinable @inline(__always)
func mac(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ carry: UInt64) -> (low: UInt64, high: UInt64) {
    let (high, low) = a.multipliedFullWidth(by: b)
    let (l1, o1) = low.addingReportingOverflow(c)
    let (l2, o2) = l1.addingReportingOverflow(carry)
    return (l2, high &+ carryBit(o1) &+ carryBit(o2))
}
