/// Base64 (RFC 4648 §4, standard alphabet) as KeePass uses it for UUIDs, times, binaries and key
/// files. Stdlib only, so the codec modules need no Foundation.
public enum Base64 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (i, c) in alphabet.enumerated() { table[Int(c)] = UInt8(i) }
        return table
    }()

    /// Encodes `bytes` with `=` padding, no line breaks.
    public static func encode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        let input = Array(bytes)
        var out = [UInt8]()
        out.reserveCapacity((input.count + 2) / 3 * 4)
        var i = 0
        while i + 3 <= input.count {
            let n = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2])
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(alphabet[Int(n >> 6 & 63)])
            out.append(alphabet[Int(n & 63)])
            i += 3
        }
        let rest = input.count - i
        if rest == 1 {
            let n = UInt32(input[i]) << 16
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(UInt8(ascii: "="))
            out.append(UInt8(ascii: "="))
        } else if rest == 2 {
            let n = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(alphabet[Int(n >> 6 & 63)])
            out.append(UInt8(ascii: "="))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes base64 text. ASCII white space is skipped; padding is optional (as .NET's
    /// `Convert.FromBase64String` is lenient about white space, and other writers omit padding).
    /// - Throws: ``BytesError`` `.invalidEncoding` for a character outside the alphabet, data after
    ///   padding, or a length that leaves a single dangling character.
    public static func decode(_ text: some StringProtocol) throws(BytesError) -> [UInt8] {
        try decode(utf8: Array(text.utf8))
    }

    /// Decodes base64 from UTF-8 bytes (see ``decode(_:)``).
    public static func decode(utf8 text: [UInt8]) throws(BytesError) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(text.count / 4 * 3)
        var accumulator: UInt32 = 0
        var bits = 0
        var sextets = 0
        var padding = 0
        for (offset, c) in text.enumerated() {
            switch c {
            case 0x20, 0x09, 0x0A, 0x0D:
                continue
            case UInt8(ascii: "="):
                padding += 1
                guard padding <= 2 else { throw BytesError(.invalidEncoding, offset: offset) }
                continue
            default:
                guard padding == 0 else { throw BytesError(.invalidEncoding, offset: offset) }
                let v = decodeTable[Int(c)]
                guard v != 0xFF else { throw BytesError(.invalidEncoding, offset: offset) }
                accumulator = accumulator << 6 | UInt32(v)
                bits += 6
                sextets += 1
                if bits >= 8 {
                    bits -= 8
                    out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                    accumulator &= (1 << UInt32(bits)) - 1
                }
            }
        }
        if sextets % 4 == 1 { throw BytesError(.invalidEncoding, offset: text.count) }
        return out
    }
}
