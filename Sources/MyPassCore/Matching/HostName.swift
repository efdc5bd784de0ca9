/// A host name in the ASCII form used for comparison: lower case, IDN labels as `xn--` Punycode,
/// no trailing dot; or an IP address in canonical form.
///
/// Stored as one ASCII string (``description``); ``labels`` is computed. Two hosts are equal
/// when their ASCII text and kind are, which is when their labels are.
public struct HostName: Hashable, Sendable, CustomStringConvertible {
    /// The ASCII host text (`www.example.com`, `192.168.0.1`, `0:0:0:0:0:0:0:1`).
    let text: String
    /// Whether this is an IPv4 or IPv6 literal in canonical form: one label, ``text`` itself.
    let isLiteral: Bool
    /// Whether this is an IPv4 or IPv6 address literal, or a name ending in a numeric label
    /// (compared only exactly).
    public let isIPAddress: Bool

    /// The labels, left to right (`["www", "example", "com"]`); a single element for an IP
    /// address literal. Computed from ``description`` (one allocation per label).
    public var labels: [String] {
        isLiteral ? [text] : text.utf8.split(separator: HostName.dot).map { String($0)! }
    }

    /// The ASCII host text (`www.example.com`, `192.168.0.1`, `0:0:0:0:0:0:0:1`).
    public var description: String { text }

    /// The number of ``labels``, counted without building them.
    var labelCount: Int {
        if isLiteral { return 1 }
        var count = 1
        for byte in text.utf8 where byte == HostName.dot { count += 1 }
        return count
    }

    init(text: String, isLiteral: Bool, isIPAddress: Bool) {
        self.text = text
        self.isLiteral = isLiteral
        self.isIPAddress = isIPAddress
    }

    /// Normalises `text` (`"Bücher.Example."` -> `xn--bcher-kva.example`: lower case, NFC, Punycode), or `nil` when it is not a
    /// usable host name: empty, an empty label, characters a host cannot have, or a label longer
    /// than 63 bytes in ASCII form. Full stops of other scripts (U+3002, U+FF0E, U+FF61) separate
    /// labels as in IDNA (RFC 3490 §3.1).
    ///
    /// All-ASCII text (the common case) is read as bytes in one pass: a table of the allowed
    /// bytes (letters, digits, `-`, `_`, `.`), ASCII lower-casing, labels split on `.`. Text with
    /// a non-ASCII byte takes the Unicode path (`init(referenceParsing:)`).
    public init?(_ text: String) {
        var copy = text
        let host: HostName? = copy.withUTF8 { bytes in
            HostName.isASCII(bytes) ? HostName.parseASCII(bytes, from: 0, to: bytes.count)
                : HostName(referenceParsing: text)
        }
        guard let host else { return nil }
        self = host
    }

    static let dot = UInt8(ascii: ".")

    /// Whether every byte is below 0x80.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var union: UInt8 = 0
        for byte in bytes { union |= byte }
        return union < 0x80
    }

    /// Bytes 0-63 and 64-127 that a host name may hold: `-` `.` `0`-`9`, `A`-`Z` `_` `a`-`z`.
    /// Every other ASCII byte (controls, white space, delimiters, `%`, `!`...) makes the host unusable.
    private static let lowHostBytes: UInt64 = 1 << 45 | 1 << 46 | 0x3FF << 48
    private static let highHostBytes: UInt64 = 0x3FF_FFFF << 1 | 1 << 31 | 0x3FF_FFFF << 33

    @inline(__always)
    private static func isHostByte(_ byte: UInt8) -> Bool {
        byte < 64 ? (lowHostBytes >> UInt64(byte)) & 1 == 1 : (highHostBytes >> UInt64(byte & 63)) & 1 == 1
    }

    /// The ASCII fast path of ``init(_:)`` for `bytes[start..<end]`, all below 0x80: one pass
    /// that validates, finds labels (1-63 bytes) and notes upper case and dotted-quad form.
    static func parseASCII(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> HostName? {
        var end = end
        if end - start >= 2 && bytes[start] == UInt8(ascii: "[") && bytes[end - 1] == UInt8(ascii: "]") {
            // IPv6 literals are rare in entries: the reference canonicaliser reads them.
            let inner = String(decoding: UnsafeBufferPointer(rebasing: bytes[(start + 1)..<(end - 1)]), as: UTF8.self)
            guard let ip = referenceCanonicalIPv6(Substring(inner)) else { return nil }
            return HostName(text: ip, isLiteral: true, isIPAddress: true)
        }
        if end > start && bytes[end - 1] == dot { end -= 1 }
        guard end > start else { return nil }
        var labelCount = 0, labelLength = 0, labelValue = 0
        var labelIsNumeric = true, hasUpperCase = false
        // Whether every label so far is a decimal 0-255 of at most 3 digits (IPv4 form).
        var quad = true
        for index in start..<end {
            let byte = bytes[index]
            guard isHostByte(byte) else { return nil }
            if byte == dot {
                guard labelLength > 0 else { return nil }
                quad = quad && labelIsNumeric && labelLength <= 3 && labelValue <= 255
                labelCount += 1
                labelLength = 0
                labelValue = 0
                labelIsNumeric = true
                continue
            }
            labelLength += 1
            guard labelLength <= 63 else { return nil }
            let digit = byte &- UInt8(ascii: "0")
            if digit < 10 {
                if labelLength <= 3 { labelValue = labelValue &* 10 &+ Int(digit) }
            } else {
                labelIsNumeric = false
                if byte &- UInt8(ascii: "A") < 26 { hasUpperCase = true }
            }
        }
        guard labelLength > 0 else { return nil }
        quad = quad && labelIsNumeric && labelLength <= 3 && labelValue <= 255
        labelCount += 1
        let length = end - start
        if labelCount == 4 && quad {
            // Dotted quad without leading zeros (`192.168.001.010` -> `192.168.1.10`).
            let parts = UnsafeBufferPointer(rebasing: bytes[start..<end]).split(separator: dot).map { part in
                String(part.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) })
            }
            return HostName(text: parts.joined(separator: "."), isLiteral: true, isIPAddress: true)
        }
        let text: String
        if hasUpperCase {
            text = String(unsafeUninitializedCapacity: length) { out in
                for offset in 0..<length {
                    let byte = bytes[start + offset]
                    out[offset] = byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
                }
                return length
            }
        } else {
            text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
        // No top-level domain is numeric: `168.1.1` is an address in the short forms that
        // browsers accept (WHATWG URL §3.5), so it too is compared only exactly.
        return HostName(text: text, isLiteral: false, isIPAddress: labelIsNumeric)
    }

    /// Whether `self` is a proper subdomain of `other` (`a.b.example.com` of `example.com`): its
    /// text ends with `.` and `other`'s text. No allocation.
    public func isSubdomain(of other: HostName) -> Bool {
        guard !isIPAddress, !other.isIPAddress else { return false }
        let mine = text.utf8, theirs = other.text.utf8
        guard mine.count > theirs.count else { return false }
        let boundary = mine.index(mine.endIndex, offsetBy: -theirs.count - 1)
        return mine[boundary] == HostName.dot && mine[mine.index(after: boundary)...].elementsEqual(theirs)
    }
}
