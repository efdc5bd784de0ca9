extension Array where Element == UInt8 {
    /// Decodes hexadecimal text (either case). White space is not allowed.
    /// - Returns: `nil` for an odd length or a non-hex character.
    public init?(hex: some StringProtocol) {
        let utf8 = Array<UInt8>(hex.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var result = [UInt8]()
        result.reserveCapacity(utf8.count / 2)
        var i = 0
        while i < utf8.count {
            guard let high = hexValue(utf8[i]), let low = hexValue(utf8[i + 1]) else { return nil }
            result.append(high << 4 | low)
            i += 2
        }
        self = result
    }
}

extension Collection where Element == UInt8 {
    /// Lowercase hexadecimal text of the bytes.
    public var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(count * 2)
        for byte in self {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// The value of one ASCII hex digit, or `nil`.
@inlinable
package func hexValue(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
    default: return nil
    }
}
