import MyPassBytes

/// Multi-precision arithmetic for RSA: unsigned integers as a fixed number of 64-bit limbs, least
/// significant first, in storage that is wiped when it goes.
///
/// Constant time where secrets flow: every loop runs a count fixed by the limb counts (public:
/// the key size), carries come from `multipliedFullWidth` and overflow flags turned into
/// integers, conditional subtractions are computed and then chosen by mask, and the exponent's
/// windows pick their table entry by scanning the whole table with masks. Nothing branches on,
/// or indexes memory by, a secret value. Only ``publicPower(_:_:)`` (exponent e) and the parsing
/// of public values look at bits to decide.
final class Limbs: @unchecked Sendable {
    let count: Int
    let words: UnsafeMutablePointer<UInt64>

    /// `count` zero limbs.
    init(count: Int) {
        self.count = count
        words = .allocate(capacity: max(count, 1))
        words.initialize(repeating: 0, count: max(count, 1))
    }

    /// The big-endian `bytes` in `count` limbs; `nil` when the value does not fit.
    convenience init?(bigEndian bytes: some Collection<UInt8>, count: Int) {
        self.init(count: count)
        var index = 0
        for byte in bytes.reversed() {
            let limb = index / 8
            if limb >= count {
                guard byte == 0 else { return nil }
            } else {
                words[limb] |= UInt64(byte) << (8 * UInt64(index % 8))
            }
            index += 1
        }
    }

    deinit {
        secureZero(words, count: max(count, 1) * 8)
        words.deallocate()
    }

    subscript(index: Int) -> UInt64 {
        get { words[index] }
        set { words[index] = newValue }
    }

    /// A copy with `count` limbs (zero-extended or truncated: callers truncate zeros only).
    func resized(to newCount: Int) -> Limbs {
        let copy = Limbs(count: newCount)
        for i in 0..<min(count, newCount) { copy.words[i] = words[i] }
        return copy
    }

    /// The value as `byteCount` big-endian bytes (the caller makes sure it fits).
    func bigEndianBytes(count byteCount: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: byteCount)
        for i in 0..<byteCount {
            let limb = i / 8
            guard limb < count else { break }
            bytes[byteCount - 1 - i] = UInt8(truncatingIfNeeded: words[limb] >> (8 * UInt64(i % 8)))
        }
        return bytes
    }

    /// Bits up to and including the highest set bit (public values only: it looks at the bits).
    var bitLength: Int {
        for i in stride(from: count - 1, through: 0, by: -1) where words[i] != 0 {
            return 64 * i + (64 - words[i].leadingZeroBitCount)
        }
        return 0
    }

    /// All ones when the value is zero, else zero (constant time).
    var isZeroMask: UInt64 {
        var accumulated: UInt64 = 0
        for i in 0..<count { accumulated |= words[i] }
        // (x | -x) has its top bit set exactly when x != 0.
        return ((accumulated | (0 &- accumulated)) >> 63) &- 1
    }

    /// Whether two values of equal limb count are equal (constant time).
    func isEqual(to other: Limbs) -> Bool {
        precondition(count == other.count)
        var difference: UInt64 = 0
        for i in 0..<count { difference |= words[i] ^ other.words[i] }
        return difference == 0
    }

    /// `a < b` for equal limb counts (public values only).
    static func isLess(_ a: Limbs, _ b: Limbs) -> Bool {
        precondition(a.count == b.count)
        var borrow: UInt64 = 0
        for i in 0..<a.count {
            let (d1, o1) = a.words[i].subtractingReportingOverflow(b.words[i])
            let (_, o2) = d1.subtractingReportingOverflow(borrow)
            borrow = carryBit(o1) | carryBit(o2)
        }
        return borrow == 1
    }

    /// `target = a - b` over `count` limbs; the borrow out (0 or 1).
    @discardableResult
    static func subtract(_ a: UnsafePointer<UInt64>, _ b: UnsafePointer<UInt64>, into target: UnsafeMutablePointer<UInt64>,
                         count: Int) -> UInt64 {
        var borrow: UInt64 = 0
        for i in 0..<count {
            let (d1, o1) = a[i].subtractingReportingOverflow(b[i])
            let (d2, o2) = d1.subtractingReportingOverflow(borrow)
            target[i] = d2
            borrow = carryBit(o1) | carryBit(o2)
        }
        return borrow
    }

    /// `target = a + b` over `count` limbs; the carry out (0 or 1).
    @discardableResult
    static func add(_ a: UnsafePointer<UInt64>, _ b: UnsafePointer<UInt64>, into target: UnsafeMutablePointer<UInt64>,
                    count: Int) -> UInt64 {
        var carry: UInt64 = 0
        for i in 0..<count {
            let (s1, o1) = a[i].addingReportingOverflow(b[i])
            let (s2, o2) = s1.addingReportingOverflow(carry)
            target[i] = s2
            carry = carryBit(o1) | carryBit(o2)
        }
        return carry
    }

    /// `target = mask ? a : b`, limb by limb.
    static func select(_ mask: UInt64, _ a: UnsafePointer<UInt64>, _ b: UnsafePointer<UInt64>,
                       into target: UnsafeMutablePointer<UInt64>, count: Int) {
        for i in 0..<count { target[i] = (a[i] & mask) | (b[i] & ~mask) }
    }

    /// The full product `a · b` (a.count + b.count limbs), schoolbook.
    static func multiply(_ a: Limbs, _ b: Limbs) -> Limbs {
        let product = Limbs(count: a.count + b.count)
        for i in 0..<a.count {
            var carry: UInt64 = 0
            for j in 0..<b.count {
                (product.words[i + j], carry) = mac(a.words[i], b.words[j], product.words[i + j], carry)
            }
            product.words[i + b.count] = carry
        }
        return product
    }

    /// `x mod m` for any x and a nonzero m (odd or even) of `m.count` limbs, by binary long
    /// division: each bit of x, from the top, shifted into a remainder kept below m by one
    /// masked subtraction. Costs x.bits × m.count limb operations, independent of the values.
    static func reduce(_ x: Limbs, modulo m: Limbs) -> Limbs {
        let n = m.count
        let remainder = Limbs(count: n + 1)
        let difference = Limbs(count: n + 1)
        let modulus = m.resized(to: n + 1)
        for bit in stride(from: 64 * x.count - 1, through: 0, by: -1) {
            let incoming = (x.words[bit / 64] >> UInt64(bit % 64)) & 1
            // remainder = 2·remainder + bit (< 2m, fits n + 1 limbs since m < 2^(64n))
            var carry = incoming
            for i in 0..<(n + 1) {
                let word = remainder.words[i]
                remainder.words[i] = word << 1 | carry
                carry = word >> 63
            }
            let borrow = subtract(remainder.words, modulus.words, into: difference.words, count: n + 1)
            select(maskFromBit(borrow), remainder.words, difference.words, into: remainder.words, count: n + 1)
        }
        return remainder.resized(to: n)
    }
}

/// An odd modulus m of n limbs with its Montgomery constants (R = 2^(64n)); for secret moduli
/// (the primes) every constant is computed in constant time, and all of it is wiped.
final class MontgomeryModulusLimbs: @unchecked Sendable {
    let modulus: Limbs
    var n: Int { modulus.count }
    /// -m^-1 mod 2^64.
    let inverseNegated: UInt64
    /// R mod m: one in Montgomery form.
    let one: Limbs
    /// R^2 mod m.
    let rSquared: Limbs

    /// The constants of `modulus`, which must be odd and have its top limb nonzero.
    init(_ modulus: Limbs) {
        self.modulus = modulus
        // Newton's iteration for m0^-1 mod 2^64: each step doubles the correct low bits.
        let m0 = modulus.words[0]
        var inverse: UInt64 = 1
        for _ in 0..<6 { inverse = inverse &* (2 &- m0 &* inverse) }
        inverseNegated = 0 &- inverse
        // R mod m and R^2 mod m by doubling 1 (2·64n and 4·64n times), one masked subtraction each.
        let n = modulus.count
        let value = Limbs(count: n)
        value.words[0] = 1
        let scratch = Limbs(count: n)
        var r: Limbs?
        for step in 1...(128 * n) {
            var carry: UInt64 = 0
            for i in 0..<n {
                let word = value.words[i]
                value.words[i] = word << 1 | carry
                carry = word >> 63
            }
            let borrow = Limbs.subtract(value.words, modulus.words, into: scratch.words, count: n)
            // Keep the doubled value only when it did not overflow and stayed below m.
            Limbs.select(maskFromBit(borrow & ~carry & 1), value.words, scratch.words, into: value.words, count: n)
            if step == 64 * n { r = value.resized(to: n) }
        }
        one = r!
        rSquared = value
    }

    /// `target = a · b · R^-1 mod m`, fully reduced, for a, b < m (CIOS, Koç, Acar and Kaliski
    /// 1996). `scratch` holds 2n + 2 limbs; `target` may be `a` or `b`.
    func multiply(_ a: UnsafePointer<UInt64>, _ b: UnsafePointer<UInt64>, into target: UnsafeMutablePointer<UInt64>,
                  scratch t: UnsafeMutablePointer<UInt64>) {
        let n = self.n
        let m = UnsafePointer(modulus.words)
        let k = inverseNegated
        t.update(repeating: 0, count: n + 2)
        for i in 0..<n {
            let bi = b[i]
            var carry: UInt64 = 0
            for j in 0..<n { (t[j], carry) = mac(a[j], bi, t[j], carry) }
            let (sum, overflow) = t[n].addingReportingOverflow(carry)
            t[n] = sum
            t[n + 1] = carryBit(overflow)
            let u = t[0] &* k
            (_, carry) = mac(u, m[0], t[0], 0)
            for j in 1..<max(n, 1) { (t[j - 1], carry) = mac(u, m[j], t[j], carry) }
            let (top, overflowTop) = t[n].addingReportingOverflow(carry)
            t[n - 1] = top
            t[n] = t[n + 1] &+ carryBit(overflowTop)
        }
        // t < 2m: subtract m unless t (with its limb n) was already below m.
        let difference = t + (n + 2)
        let borrow = Limbs.subtract(t, m, into: difference, count: n)
        Limbs.select(maskFromBit(borrow & ~t[n] & 1), t, difference, into: target, count: n)
    }
}

extension MontgomeryModulusLimbs {
    /// All ones when `a == b`, else zero (constant time).
    @inline(__always)
    static func equalMask(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let difference = a ^ b
        return ((difference | (0 &- difference)) >> 63) &- 1
    }

    /// `base^exponent mod m` for base < m, constant time in both: Montgomery multiplication
    /// with a fixed 4-bit window over all `exponent.count × 64` bits (leading zero bits cost
    /// the same as any others), each window's table entry chosen by a masked scan of all 16.
    func power(_ base: Limbs, _ exponent: Limbs) -> Limbs {
        let n = self.n
        let scratch = Limbs(count: 2 * n + 2)
        let table = Limbs(count: 16 * n)
        let selected = Limbs(count: n)
        let result = Limbs(count: n)
        let t = table.words
        for i in 0..<n { t[i] = one.words[i] }
        multiply(base.words, rSquared.words, into: t + n, scratch: scratch.words)
        for entry in 2..<16 {
            multiply(t + (entry - 1) * n, t + n, into: t + entry * n, scratch: scratch.words)
        }
        for i in 0..<n { result.words[i] = one.words[i] }
        for window in stride(from: exponent.count * 16 - 1, through: 0, by: -1) {
            for _ in 0..<4 { multiply(result.words, result.words, into: result.words, scratch: scratch.words) }
            let digit = (exponent.words[window / 16] >> UInt64(4 * (window % 16))) & 0xF
            for i in 0..<n { selected.words[i] = 0 }
            for entry in 0..<16 {
                let mask = Self.equalMask(UInt64(entry), digit)
                let row = t + entry * n
                for i in 0..<n { selected.words[i] |= row[i] & mask }
            }
            multiply(result.words, selected.words, into: result.words, scratch: scratch.words)
        }
        return fromMontgomery(result)
    }

    /// `base^exponent mod m` for a public exponent (e): square and multiply, whose pattern shows
    /// the exponent's bits and nothing else.
    func publicPower(_ base: Limbs, _ exponent: Limbs) -> Limbs {
        let n = self.n
        let scratch = Limbs(count: 2 * n + 2)
        let montgomeryBase = Limbs(count: n)
        multiply(base.words, rSquared.words, into: montgomeryBase.words, scratch: scratch.words)
        let result = Limbs(count: n)
        for i in 0..<n { result.words[i] = one.words[i] }
        for bit in stride(from: exponent.bitLength - 1, through: 0, by: -1) {
            multiply(result.words, result.words, into: result.words, scratch: scratch.words)
            if (exponent.words[bit / 64] >> UInt64(bit % 64)) & 1 == 1 {
                multiply(result.words, montgomeryBase.words, into: result.words, scratch: scratch.words)
            }
        }
        return fromMontgomery(result)
    }

    /// `a · b mod m` for a, b < m (plain values in and out).
    func multiplyPlain(_ a: Limbs, _ b: Limbs) -> Limbs {
        let scratch = Limbs(count: 2 * n + 2)
        let montgomeryA = Limbs(count: n)
        multiply(a.words, rSquared.words, into: montgomeryA.words, scratch: scratch.words)
        let product = Limbs(count: n)
        multiply(montgomeryA.words, b.words, into: product.words, scratch: scratch.words)
        return product
    }

    /// The plain value of a Montgomery-form `x` (x · R^-1 mod m).
    func fromMontgomery(_ x: Limbs) -> Limbs {
        let scratch = Limbs(count: 2 * n + 2)
        let unit = Limbs(count: n)
        unit.words[0] = 1
        let plain = Limbs(count: n)
        multiply(x.words, unit.words, into: plain.words, scratch: scratch.words)
        return plain
    }
}
