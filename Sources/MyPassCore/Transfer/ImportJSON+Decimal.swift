extension ImportJSON {
    /// The value of a decimal number as `Double(String)` reads it (`[+-]` digits, `.` digits,
    /// `e[+-]` digits, at least one digit before the exponent), without strtod, which Embedded
    /// Swift's standard library does not have; the parser uses it there.
    ///
    /// Exact (the nearest double, as strtod gives) when the significant digits form an integer of
    /// at most 2^53 and the decimal exponent is at most 22 either way (Clinger's fast path:
    /// W. D. Clinger, "How to read floating point numbers accurately", PLDI 1990): every integer
    /// and every number Bitwarden's export writes. Beyond that the digits past the 19th are cut
    /// and the scaling rounds more than once, so the result may be a few units in the last place
    /// off; an exponent past 400 either way gives infinity or zero.
    ///
    /// - Returns: the value (infinity when it overflows), or nil when the text is not a number.
    package static func decimalValue(_ text: ArraySlice<UInt8>) -> Double? {
        var index = text.startIndex
        var negative = false
        if index < text.endIndex, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") {
            negative = text[index] == UInt8(ascii: "-")
            index += 1
        }
        // The significant digits as an integer (the first 19), and the power of ten to apply.
        var significand: UInt64 = 0, kept = 0, exponent = 0, digits = 0
        var truncated = false
        func digit(_ byte: UInt8) -> UInt64? { byte >= 0x30 && byte <= 0x39 ? UInt64(byte - 0x30) : nil }
        func take(_ value: UInt64, afterPoint: Bool) {
            digits += 1
            if significand == 0 && value == 0 {
                if afterPoint { exponent -= 1 }
                return
            }
            if kept < 19 {
                significand = significand * 10 + value
                kept += 1
                if afterPoint { exponent -= 1 }
            } else {
                truncated = truncated || value != 0
                if !afterPoint { exponent += 1 }
            }
        }
        while index < text.endIndex, let value = digit(text[index]) {
            take(value, afterPoint: false)
            index += 1
        }
        if index < text.endIndex, text[index] == UInt8(ascii: ".") {
            index += 1
            while index < text.endIndex, let value = digit(text[index]) {
                take(value, afterPoint: true)
                index += 1
            }
        }
        guard digits > 0 else { return nil }
        if index < text.endIndex, text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") {
            index += 1
            var exponentNegative = false
            if index < text.endIndex, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") {
                exponentNegative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            var written = 0, exponentDigits = 0
            while index < text.endIndex, let value = digit(text[index]) {
                written = min(written * 10 + Int(value), 100_000)
                exponentDigits += 1
                index += 1
            }
            guard exponentDigits > 0 else { return nil }
            exponent += exponentNegative ? -written : written
        }
        guard index == text.endIndex else { return nil }
        var value: Double
        if significand == 0 {
            value = 0
        } else if exponent > 400 {
            value = .infinity
        } else if exponent < -400 {
            value = 0
        } else if !truncated, significand <= 1 << 53, abs(exponent) <= 22 {
            value = exponent < 0 ? Double(significand) / powersOfTen[-exponent] : Double(significand) * powersOfTen[exponent]
        } else {
            value = Double(significand)
            var rest = exponent
            while rest > 0 { let step = min(rest, 22); value *= powersOfTen[step]; rest -= step }
            while rest < 0 { let step = min(-rest, 22); value /= powersOfTen[step]; rest += step }
        }
        return negative ? -value : value
    }

    /// 10^0 ... 10^22, each exact in a double.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]
}
