/// A host name in the ASCII form used for comparison: lower case, IDN labels as `xn--` Punycode,
/// no trailing dot; or an IP address in canonical form.
public struct HostName: Hashable, Sendable, CustomStringConvertible {
    /// The labels, left to right (`["www", "example", "com"]`); a single element for an IP address.
    public let labels: [String]
    /// Whether this is an IPv4 or IPv6 address literal, or a name ending in a numeric label
    /// (compared only exactly).
    public let isIPAddress: Bool

    /// The ASCII host text (`www.example.com`, `192.168.0.1`, `::1`).
    public var description: String { labels.joined(separator: ".") }

    /// Normalises `text` (`"Bücher.Example."` -> `xn--bcher-kva.example`), or `nil` when it is not a
    /// usable host name: empty, an empty label, characters a host cannot have, or a label longer
    /// than 63 bytes in ASCII form. Full stops of other scripts (U+3002, U+FF0E, U+FF61) separate
    /// labels as in IDNA (RFC 3490 §3.1).
    public init?(_ text: String) {
        var text = Substring(text)
        if text.hasPrefix("[") && text.hasSuffix("]") {
            guard let ip = HostName.canonicalIPv6(text.dropFirst().dropLast()) else { return nil }
            labels = [ip]
            isIPAddress = true
            return
        }
        if text.hasSuffix(".") { text = text.dropLast() }
        guard !text.isEmpty else { return nil }
        let dots: Set<Unicode.Scalar> = [".", "\u{3002}", "\u{FF0E}", "\u{FF61}"]
        var result: [String] = []
        var current = String.UnicodeScalarView()
        func finish() -> Bool {
            let label = String(current).lowercased()
            current = String.UnicodeScalarView()
            guard !label.isEmpty else { return false }
            if label.unicodeScalars.allSatisfy({ $0.isASCII }) {
                guard label.utf8.count <= 63,
                      label.utf8.allSatisfy({ HostName.isASCIIHostByte($0) }) else { return false }
                result.append(label)
            } else {
                guard let encoded = Punycode.encode(label), encoded.utf8.count + 4 <= 63 else { return false }
                result.append("xn--" + encoded)
            }
            return true
        }
        for scalar in text.unicodeScalars {
            if dots.contains(scalar) {
                guard finish() else { return nil }
            } else {
                // Controls, white space and URL delimiters never belong in a host.
                if scalar.value < 0x21 || scalar.value == 0x7F || " /\\?#@:[]<>\"{}|^`%".unicodeScalars.contains(scalar) {
                    return nil
                }
                current.append(scalar)
            }
        }
        guard finish() else { return nil }
        if let ipv4 = HostName.canonicalIPv4(result) {
            labels = [ipv4]
            isIPAddress = true
        } else {
            labels = result
            // No top-level domain is numeric: `168.1.1` is an address in the short forms that
            // browsers accept (WHATWG URL §3.5), so it too is compared only exactly.
            isIPAddress = result[result.count - 1].utf8.allSatisfy { $0 >= 48 && $0 <= 57 }
        }
    }

    /// Letters, digits, `-` and `_` (seen in real host names though not in LDH rules).
    private static func isASCIIHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"): return true
        default: return false
        }
    }

    /// Four decimal labels 0-255 -> dotted quad without leading zeros; otherwise `nil`.
    private static func canonicalIPv4(_ labels: [String]) -> String? {
        guard labels.count == 4 else { return nil }
        var parts: [String] = []
        for label in labels {
            guard label.utf8.count <= 3, label.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
                  let value = Int(label), value <= 255 else { return nil }
            parts.append(String(value))
        }
        return parts.joined(separator: ".")
    }

    /// An IPv6 literal (without brackets) -> eight lowercase hex groups without leading zeros
    /// joined by `:` (no `::` compression, so that equal addresses have equal text); else `nil`.
    private static func canonicalIPv6(_ text: Substring) -> String? {
        let lower = text.lowercased()
        guard !lower.isEmpty, lower.utf8.allSatisfy({ isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") })
        else { return nil }
        let halves = lower.split(separator: "::", omittingEmptySubsequences: false).map(String.init)
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String) -> [UInt16]? {
            if part.isEmpty { return [] }
            var out: [UInt16] = []
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if piece.contains(".") {
                    // Embedded IPv4 in the last position.
                    guard index == pieces.count - 1,
                          let v4 = canonicalIPv4(piece.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
                    else { return nil }
                    let bytes = v4.split(separator: ".").compactMap { UInt16($0) }
                    out.append(bytes[0] << 8 | bytes[1])
                    out.append(bytes[2] << 8 | bytes[3])
                } else {
                    guard (1...4).contains(piece.utf8.count), let value = UInt16(piece, radix: 16) else { return nil }
                    out.append(value)
                }
            }
            return out
        }
        guard let head = groups(halves[0]) else { return nil }
        var all = head
        if halves.count == 2 {
            guard let tail = groups(halves[1]), head.count + tail.count <= 7 else { return nil }
            all += [UInt16](repeating: 0, count: 8 - head.count - tail.count) + tail
        }
        guard all.count == 8 else { return nil }
        return all.map { String($0, radix: 16) }.joined(separator: ":")
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (97...102).contains(byte)
    }

    /// Whether `self` is a proper subdomain of `other` (`a.b.example.com` of `example.com`).
    public func isSubdomain(of other: HostName) -> Bool {
        !isIPAddress && !other.isIPAddress && labels.count > other.labels.count
            && Array(labels.suffix(other.labels.count)) == other.labels
    }
}
