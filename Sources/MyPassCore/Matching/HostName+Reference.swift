#if !hasFeature(Embedded)
import Foundation
#endif

extension HostName {
    /// The readable reference parser that ``init(_:)`` replaced (Character and Unicode scalar
    /// scanning, `lowercased()`, an array of labels): same results for every input, `nil`s
    /// included. ``init(_:)`` still takes this path for text with a non-ASCII byte (NFC and
    /// Punycode, the full stops U+3002, U+FF0E, U+FF61); the differential tests compare the two
    /// on every other input.
    package init?(referenceParsing text: String) {
        var text = Substring(text)
        if text.hasPrefix("[") && text.hasSuffix("]") {
            guard let ip = HostName.referenceCanonicalIPv6(text.dropFirst().dropLast()) else { return nil }
            self.init(text: ip, isLiteral: true, isIPAddress: true)
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
                      label.utf8.allSatisfy({ HostName.referenceIsASCIIHostByte($0) }) else { return false }
                result.append(label)
            } else {
                // IDNA compares the NFC form (RFC 5891 §5.2): `u` + U+0308 is `ü`. Embedded Swift
                // has no public NFC: there a label is taken as typed (composed, as nearly all are).
                #if hasFeature(Embedded)
                let composed = label
                #else
                let composed = label.precomposedStringWithCanonicalMapping
                #endif
                guard let encoded = Punycode.encode(composed), encoded.utf8.count + 4 <= 63 else { return false }
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
        if let ipv4 = HostName.referenceCanonicalIPv4(result) {
            self.init(text: ipv4, isLiteral: true, isIPAddress: true)
        } else {
            // No top-level domain is numeric: `168.1.1` is an address in the short forms that
            // browsers accept (WHATWG URL §3.5), so it too is compared only exactly.
            self.init(text: result.joined(separator: "."), isLiteral: false,
                      isIPAddress: result[result.count - 1].utf8.allSatisfy { $0 >= 48 && $0 <= 57 })
        }
    }

    /// Letters, digits, `-` and `_` (seen in real host names though not in LDH rules).
    private static func referenceIsASCIIHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"): return true
        default: return false
        }
    }

    /// Four decimal labels 0-255 -> dotted quad without leading zeros; otherwise `nil`.
    private static func referenceCanonicalIPv4(_ labels: [String]) -> String? {
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
    /// Also the production path for bracketed hosts, which are rare in entries.
    static func referenceCanonicalIPv6(_ text: Substring) -> String? {
        let lower = text.lowercased()
        guard !lower.isEmpty, lower.utf8.allSatisfy({ isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") })
        else { return nil }
        // Split on "::" (a loop: String separators need _StringProcessing, which Embedded lacks).
        var halves: [String] = []
        var rest = Substring(lower)
        while let index = rest.indices.first(where: { rest[$0...].hasPrefix("::") }) {
            halves.append(String(rest[..<index]))
            rest = rest[rest.index(index, offsetBy: 2)...]
        }
        halves.append(String(rest))
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String) -> [UInt16]? {
            if part.isEmpty { return [] }
            var out: [UInt16] = []
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if piece.contains(".") {
                    // Embedded IPv4 in the last position.
                    guard index == pieces.count - 1,
                          let v4 = referenceCanonicalIPv4(piece.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
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

    /// The reference ``isSubdomain(of:)``: a label array comparison.
    package func referenceIsSubdomain(of other: HostName) -> Bool {
        !isIPAddress && !other.isIPAddress && labels.count > other.labels.count
            && Array(labels.suffix(other.labels.count)) == other.labels
    }
}
