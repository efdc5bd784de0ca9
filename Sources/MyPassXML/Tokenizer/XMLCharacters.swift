// Character classes of XML 1.0 (Fifth Edition) §2.2 (Char), §2.3 (S, NameStartChar, NameChar),
// and a UTF-8 decoder that rejects what RFC 3629 forbids.

enum ASCII {
    static let tab: UInt8 = 0x09, lineFeed: UInt8 = 0x0A, carriageReturn: UInt8 = 0x0D, space: UInt8 = 0x20
    static let exclamation: UInt8 = 0x21, quote: UInt8 = 0x22, hash: UInt8 = 0x23, ampersand: UInt8 = 0x26
    static let apostrophe: UInt8 = 0x27, hyphen: UInt8 = 0x2D, slash: UInt8 = 0x2F, semicolon: UInt8 = 0x3B
    static let lessThan: UInt8 = 0x3C, equals: UInt8 = 0x3D, greaterThan: UInt8 = 0x3E, question: UInt8 = 0x3F
    static let leftBracket: UInt8 = 0x5B, rightBracket: UInt8 = 0x5D
}

/// XML white space (§2.3 S): space, tab, line feed, carriage return.
@inline(__always)
func isXMLWhitespace(_ c: UInt8) -> Bool {
    c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D
}

/// ASCII NameStartChar: letters, `_`, `:`.
@inline(__always)
func isASCIINameStart(_ c: UInt8) -> Bool {
    let lower = c | 0x20
    return (lower >= 0x61 && lower <= 0x7A) || c == 0x5F || c == 0x3A
}

/// ASCII NameChar: NameStartChar plus digits, `-`, `.`.
@inline(__always)
func isASCIINameChar(_ c: UInt8) -> Bool {
    isASCIINameStart(c) || (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x2E
}

/// Non-ASCII NameStartChar ranges (§2.3 [4]).
func isNameStartScalar(_ v: UInt32) -> Bool {
    switch v {
    case 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2FF, 0x370...0x37D, 0x37F...0x1FFF, 0x200C...0x200D,
        0x2070...0x218F, 0x2C00...0x2FEF, 0x3001...0xD7FF, 0xF900...0xFDCF, 0xFDF0...0xFFFD,
        0x10000...0xEFFFF:
        return true
    default:
        return false
    }
}

/// Non-ASCII NameChar ranges (§2.3 [4a]).
func isNameScalar(_ v: UInt32) -> Bool {
    isNameStartScalar(v) || v == 0xB7 || (0x300...0x36F).contains(v) || (0x203F...0x2040).contains(v)
}

/// Whether a code point is a legal XML 1.0 Char (§2.2 [2]).
@inline(__always)
func isXMLChar(_ v: UInt32) -> Bool {
    if v < 0x20 { return v == 0x09 || v == 0x0A || v == 0x0D }
    if v < 0xD800 { return true }
    if v < 0xE000 { return false }
    if v < 0xFFFE { return true }
    return v >= 0x10000 && v <= 0x10FFFF
}

/// The outcome of decoding one non-ASCII UTF-8 sequence.
enum UTF8Decoding {
    case scalar(UInt32, length: Int)
    case invalid
}

/// Decodes the multi-byte UTF-8 sequence starting at `i` (whose lead byte is >= 0x80) that must end
/// before `end`. Rejects overlong forms, surrogates, values above U+10FFFF and truncation (RFC 3629 §4).
@inline(__always)
func decodeUTF8(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> UTF8Decoding {
    let c0 = UInt32(p[i])
    if c0 < 0xC2 { return .invalid }  // continuation byte or overlong 2-byte lead
    if c0 < 0xE0 {
        guard i + 1 < end else { return .invalid }
        let c1 = UInt32(p[i + 1])
        guard c1 & 0xC0 == 0x80 else { return .invalid }
        return .scalar((c0 & 0x1F) << 6 | (c1 & 0x3F), length: 2)
    }
    if c0 < 0xF0 {
        guard i + 2 < end else { return .invalid }
        let c1 = UInt32(p[i + 1]), c2 = UInt32(p[i + 2])
        guard c1 & 0xC0 == 0x80, c2 & 0xC0 == 0x80 else { return .invalid }
        let v = (c0 & 0x0F) << 12 | (c1 & 0x3F) << 6 | (c2 & 0x3F)
        guard v >= 0x800, v < 0xD800 || v > 0xDFFF else { return .invalid }
        return .scalar(v, length: 3)
    }
    if c0 < 0xF5 {
        guard i + 3 < end else { return .invalid }
        let c1 = UInt32(p[i + 1]), c2 = UInt32(p[i + 2]), c3 = UInt32(p[i + 3])
        guard c1 & 0xC0 == 0x80, c2 & 0xC0 == 0x80, c3 & 0xC0 == 0x80 else { return .invalid }
        let v = (c0 & 0x07) << 18 | (c1 & 0x3F) << 12 | (c2 & 0x3F) << 6 | (c3 & 0x3F)
        guard v >= 0x10000, v <= 0x10FFFF else { return .invalid }
        return .scalar(v, length: 4)
    }
    return .invalid
}

/// Appends the UTF-8 encoding of a valid scalar value.
@inline(__always)
func appendUTF8(_ v: UInt32, to out: inout [UInt8]) {
    if v < 0x80 {
        out.append(UInt8(truncatingIfNeeded: v))
    } else if v < 0x800 {
        out.append(UInt8(truncatingIfNeeded: 0xC0 | v >> 6))
        out.append(UInt8(truncatingIfNeeded: 0x80 | v & 0x3F))
    } else if v < 0x10000 {
        out.append(UInt8(truncatingIfNeeded: 0xE0 | v >> 12))
        out.append(UInt8(truncatingIfNeeded: 0x80 | (v >> 6) & 0x3F))
        out.append(UInt8(truncatingIfNeeded: 0x80 | v & 0x3F))
    } else {
        out.append(UInt8(truncatingIfNeeded: 0xF0 | v >> 18))
        out.append(UInt8(truncatingIfNeeded: 0x80 | (v >> 12) & 0x3F))
        out.append(UInt8(truncatingIfNeeded: 0x80 | (v >> 6) & 0x3F))
        out.append(UInt8(truncatingIfNeeded: 0x80 | v & 0x3F))
    }
}

/// Builds a String from bytes already validated as UTF-8.
@inline(__always)
func makeString(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: p[start..<end]), as: UTF8.self)
}
