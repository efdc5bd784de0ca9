/// Punycode, the Bootstring encoding of Unicode labels into ASCII for internationalised domain
/// names (RFC 3492 §6.3, parameters of §5).
///
/// Only encoding is needed: hosts are compared in their ASCII form, and labels that already are
/// ASCII (including `xn--` labels) are compared as they are.
public enum Punycode {
    private static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700
    private static let initialBias = 72, initialN: UInt32 = 0x80

    /// Encodes `label`'s Unicode scalars as Punycode (without the `xn--` prefix), or `nil` when the
    /// encoding would overflow (only for absurdly long labels).
    ///
    /// - Parameter label: one domain label; the caller lower-cases it first.
    /// - Returns: the basic code points in order, a `-` when there were any, then the deltas
    ///   (RFC 3492 §6.3). `"bücher"` gives `"bcher-kva"`.
    public static func encode(_ label: String) -> String? {
        let input = label.unicodeScalars.map { $0.value }
        var output: [UInt8] = input.filter { $0 < 0x80 }.map { UInt8($0) }
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append(UInt8(ascii: "-")) }
        var n = initialN, delta = 0, bias = initialBias
        while handled < input.count {
            guard let m = input.filter({ $0 >= n }).min() else { break }
            let (step, overflow1) = Int(m - n).multipliedReportingOverflow(by: handled + 1)
            let (sum, overflow2) = delta.addingReportingOverflow(step)
            guard !overflow1, !overflow2, sum < Int(Int32.max) else { return nil }
            delta = sum
            n = m
            for c in input {
                if c < n {
                    delta += 1
                    guard delta < Int(Int32.max) else { return nil }
                }
                if c == n {
                    var q = delta
                    var k = base
                    while true {
                        let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                        if q < t { break }
                        output.append(digit(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output.append(digit(q))
                    bias = adapt(delta: delta, pointCount: handled + 1, isFirst: handled == basicCount)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1
            n += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bias adaptation function (RFC 3492 §6.1).
    private static func adapt(delta: Int, pointCount: Int, isFirst: Bool) -> Int {
        var delta = isFirst ? delta / damp : delta / 2
        delta += delta / pointCount
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }

    /// The basic code point for digit `d` (0-25 -> a-z, 26-35 -> 0-9).
    private static func digit(_ d: Int) -> UInt8 {
        d < 26 ? UInt8(97 + d) : UInt8(22 + d)
    }
}
