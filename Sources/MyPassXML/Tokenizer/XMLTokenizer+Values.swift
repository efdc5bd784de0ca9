// Turning complete tokens into values: names, text, attribute values, references.

extension XMLTokenizer {
    /// Validates the name starting at `start` (before `limit`) and returns where it ends.
    /// Throws `.invalidName` when it is empty or starts badly, `.nameTooLong`, `.invalidUTF8`.
    func scanName(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ limit: Int) throws(XMLError) -> Int {
        var i = start
        while i < limit {
            let c = p[i]
            if c < 0x80 {
                let ok = i == start ? isASCIINameStart(c) : isASCIINameChar(c)
                if !ok { break }
                i += 1
            } else {
                switch decodeUTF8(p, i, limit) {
                case .invalid:
                    throw error(.invalidUTF8, at: i, p, "invalid UTF-8 in a name")
                case .scalar(let v, let length):
                    let ok = i == start ? isNameStartScalar(v) : isNameScalar(v)
                    if !ok { throw error(.invalidName, at: i, p, "character U+\(hex(v)) not allowed in a name") }
                    i += length
                }
            }
            if i - start > limits.maxNameBytes {
                throw error(.nameTooLong, at: start, p, "name longer than \(limits.maxNameBytes) bytes")
            }
        }
        if i == start { throw error(.invalidName, at: start, p, "expected a name") }
        return i
    }

    /// Validates characters in `p[start..<end]`: legal XML Chars in well-formed UTF-8.
    /// Returns whether the run needs rewriting (it holds `&` or CR), and checks `]]>` in text.
    @inline(__always)
    func validateCharacters(
        _ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, isText: Bool
    ) throws(XMLError) -> Bool {
        var needsRewrite = false
        var i = start
        while i < end {
            let c = p[i]
            if c >= 0x20 && c < 0x80 {
                if c == ASCII.ampersand {
                    needsRewrite = true
                } else if isText && c == ASCII.greaterThan && i >= start + 2
                    && p[i - 1] == ASCII.rightBracket && p[i - 2] == ASCII.rightBracket
                {
                    throw error(.malformed, at: i - 2, p, "']]>' in text")
                }
                i += 1
            } else if c < 0x20 {
                if c == ASCII.carriageReturn {
                    needsRewrite = true
                } else if c != ASCII.lineFeed && c != ASCII.tab {
                    throw error(.invalidCharacter, at: i, p, "control character U+\(hex(UInt32(c)))")
                }
                i += 1
            } else {
                switch decodeUTF8(p, i, end) {
                case .invalid:
                    throw error(.invalidUTF8, at: i, p, "invalid UTF-8")
                case .scalar(let v, let length):
                    if v >= 0xFFFE && v <= 0xFFFF {
                        throw error(.invalidCharacter, at: i, p, "character U+\(hex(v)) is not allowed in XML")
                    }
                    i += length
                }
            }
        }
        return needsRewrite
    }

    /// Text content: validated, references resolved, line ends normalised.
    mutating func textValue(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) throws(XMLError) -> String {
        if try !validateCharacters(p, start, end, isText: true) {
            return makeString(p, start, end)
        }
        return try rewrite(p, start, end, resolvesReferences: true, normalizesWhitespace: false)
    }

    /// Comment, CDATA or PI content: validated, line ends normalised, no references.
    mutating func plainValue(
        _ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, isComment: Bool
    ) throws(XMLError) -> String {
        var hasCarriageReturn = false
        var i = start
        while i < end {
            let c = p[i]
            if c >= 0x20 && c < 0x80 {
                if isComment && c == ASCII.hyphen && (i + 1 == end || p[i + 1] == ASCII.hyphen) {
                    throw error(.malformed, at: i, p, "'--' inside a comment")
                }
                i += 1
            } else if c < 0x20 {
                if c == ASCII.carriageReturn {
                    hasCarriageReturn = true
                } else if c != ASCII.lineFeed && c != ASCII.tab {
                    throw error(.invalidCharacter, at: i, p, "control character U+\(hex(UInt32(c)))")
                }
                i += 1
            } else {
                switch decodeUTF8(p, i, end) {
                case .invalid:
                    throw error(.invalidUTF8, at: i, p, "invalid UTF-8")
                case .scalar(let v, let length):
                    if v >= 0xFFFE && v <= 0xFFFF {
                        throw error(.invalidCharacter, at: i, p, "character U+\(hex(v)) is not allowed in XML")
                    }
                    i += length
                }
            }
        }
        if !hasCarriageReturn { return makeString(p, start, end) }
        return try rewrite(p, start, end, resolvesReferences: false, normalizesWhitespace: false)
    }

    /// An attribute value (between the quotes): validated, references resolved, normalised (§3.3.3).
    mutating func attributeValue(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) throws(XMLError) -> String {
        var needsRewrite = try validateCharacters(p, start, end, isText: false)
        if !needsRewrite {
            var i = start
            while i < end {
                let c = p[i]
                if c == ASCII.tab || c == ASCII.lineFeed { needsRewrite = true; break }
                i += 1
            }
        }
        if !needsRewrite { return makeString(p, start, end) }
        return try rewrite(p, start, end, resolvesReferences: true, normalizesWhitespace: true)
    }

    /// Copies an already validated run into `scratch`, resolving references and normalising line
    /// ends (and, in attribute values, white space), and makes the String.
    mutating func rewrite(
        _ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, resolvesReferences: Bool, normalizesWhitespace: Bool
    ) throws(XMLError) -> String {
        var out = scratch
        scratch = []
        out.removeAll(keepingCapacity: true)
        out.reserveCapacity(end - start)
        defer { scratch = out }
        var i = start
        var runStart = start
        while i < end {
            let c = p[i]
            if c >= 0x20 && c != ASCII.ampersand {
                i += 1
                continue
            }
            if c == ASCII.ampersand && resolvesReferences {
                appendRun(p, runStart, i, &out)
                let (value, next) = try resolveReference(p, i, end)
                appendUTF8(value, to: &out)
                i = next
                runStart = i
            } else if c == ASCII.carriageReturn {
                appendRun(p, runStart, i, &out)
                out.append(normalizesWhitespace ? ASCII.space : ASCII.lineFeed)
                i += 1
                if i < end && p[i] == ASCII.lineFeed { i += 1 }
                runStart = i
            } else if normalizesWhitespace && (c == ASCII.lineFeed || c == ASCII.tab) {
                appendRun(p, runStart, i, &out)
                out.append(ASCII.space)
                i += 1
                runStart = i
            } else {
                i += 1
            }
        }
        appendRun(p, runStart, end, &out)
        return out.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
    }

    @inline(__always)
    func appendRun(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ out: inout [UInt8]) {
        if end > start { out.append(contentsOf: UnsafeBufferPointer(rebasing: p[start..<end])) }
    }

    /// Resolves the reference starting with `&` at `amp`: one of the five predefined entities or a
    /// character reference (§4.1, §4.6). Returns the scalar value and the index after `;`.
    func resolveReference(_ p: UnsafeBufferPointer<UInt8>, _ amp: Int, _ end: Int) throws(XMLError) -> (UInt32, Int) {
        var semicolon = amp + 1
        let limit = min(end, amp + 64)
        while semicolon < limit && p[semicolon] != ASCII.semicolon { semicolon += 1 }
        guard semicolon < limit else { throw error(.malformed, at: amp, p, "'&' not starting a reference") }
        let nameStart = amp + 1
        let length = semicolon - nameStart
        guard length > 0 else { throw error(.malformed, at: amp, p, "empty reference '&;'") }
        if p[nameStart] == ASCII.hash {
            var k = nameStart + 1
            var radix: UInt32 = 10
            if k < semicolon && p[k] == 0x78 {  // "x"
                radix = 16
                k += 1
            }
            guard k < semicolon else { throw error(.malformed, at: amp, p, "empty character reference") }
            var value: UInt32 = 0
            while k < semicolon {
                let c = p[k]
                let digit: UInt32
                switch c {
                case 0x30...0x39: digit = UInt32(c - 0x30)
                case 0x61...0x66 where radix == 16: digit = UInt32(c - 0x57)
                case 0x41...0x46 where radix == 16: digit = UInt32(c - 0x37)
                default: throw error(.malformed, at: k, p, "bad digit in a character reference")
                }
                value = value &* radix &+ digit
                if value > 0x10FFFF {
                    throw error(.invalidCharacter, at: amp, p, "character reference above U+10FFFF")
                }
                k += 1
            }
            guard isXMLChar(value) else {
                throw error(.invalidCharacter, at: amp, p, "character reference to U+\(hex(value)), which XML forbids")
            }
            return (value, semicolon + 1)
        }
        let value: UInt32
        switch length {
        case 2 where p[nameStart] == 0x6C && p[nameStart + 1] == 0x74: value = 0x3C  // lt
        case 2 where p[nameStart] == 0x67 && p[nameStart + 1] == 0x74: value = 0x3E  // gt
        case 3 where p[nameStart] == 0x61 && p[nameStart + 1] == 0x6D && p[nameStart + 2] == 0x70: value = 0x26  // amp
        case 4 where p[nameStart] == 0x61 && p[nameStart + 1] == 0x70 && p[nameStart + 2] == 0x6F
            && p[nameStart + 3] == 0x73: value = 0x27  // apos
        case 4 where p[nameStart] == 0x71 && p[nameStart + 1] == 0x75 && p[nameStart + 2] == 0x6F
            && p[nameStart + 3] == 0x74: value = 0x22  // quot
        default:
            throw error(.unknownEntity, at: amp, p, "unknown entity &\(makeString(p, nameStart, semicolon));")
        }
        return (value, semicolon + 1)
    }

    /// Parses the complete start tag `p[start...gt]` (`p[gt]` is `>`).
    mutating func parseStartTag(
        _ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ gt: Int
    ) throws(XMLError) -> (String, [XMLAttribute], Bool) {
        let nameEnd = try scanName(p, start + 1, gt)
        let name = makeString(p, start + 1, nameEnd)
        var attributes: [XMLAttribute] = []
        var selfClosing = false
        var i = nameEnd
        while true {
            let whitespaceStart = i
            while i < gt && isXMLWhitespace(p[i]) { i += 1 }
            if i == gt { break }
            if p[i] == ASCII.slash {
                guard i + 1 == gt else { throw error(.malformed, at: i, p, "'/' inside a start tag") }
                selfClosing = true
                break
            }
            guard i > whitespaceStart else { throw error(.malformed, at: i, p, "white space required before an attribute") }
            let attributeNameStart = i
            i = try scanName(p, i, gt)
            let attributeNameEnd = i
            while i < gt && isXMLWhitespace(p[i]) { i += 1 }
            guard i < gt && p[i] == ASCII.equals else { throw error(.malformed, at: i, p, "expected '=' after an attribute name") }
            i += 1
            while i < gt && isXMLWhitespace(p[i]) { i += 1 }
            guard i < gt && (p[i] == ASCII.quote || p[i] == ASCII.apostrophe) else {
                throw error(.malformed, at: i, p, "expected a quoted attribute value")
            }
            let quote = p[i]
            let valueStart = i + 1
            guard let valueEnd = findByte(p, quote, from: valueStart), valueEnd < gt else {
                throw error(.malformed, at: i, p, "unterminated attribute value")
            }
            if attributes.count >= limits.maxAttributes {
                throw error(.tooManyAttributes, at: start, p, "more than \(limits.maxAttributes) attributes")
            }
            let attributeName = makeString(p, attributeNameStart, attributeNameEnd)
            for existing in attributes where existing.name == attributeName {
                throw error(.duplicateAttribute, at: attributeNameStart, p, "attribute \(attributeName) repeated")
            }
            let value = try attributeValue(p, valueStart, valueEnd)
            attributes.append(XMLAttribute(attributeName, value))
            i = valueEnd + 1
        }
        return (name, attributes, selfClosing)
    }

    /// Checks the XML declaration's pseudo-attributes in `p[start..<end]` (after `<?xml`, before
    /// `?>`): version 1.x, then optional encoding (must be UTF-8), then optional standalone (§2.8, §4.3.3).
    mutating func parseDeclaration(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) throws(XMLError) {
        var i = start
        var seen: [String] = []
        while true {
            let whitespaceStart = i
            while i < end && isXMLWhitespace(p[i]) { i += 1 }
            if i == end { break }
            guard i > whitespaceStart else { throw error(.malformed, at: i, p, "white space required in the XML declaration") }
            let nameStart = i
            i = try scanName(p, i, end)
            let name = makeString(p, nameStart, i)
            while i < end && isXMLWhitespace(p[i]) { i += 1 }
            guard i < end && p[i] == ASCII.equals else { throw error(.malformed, at: i, p, "expected '=' in the XML declaration") }
            i += 1
            while i < end && isXMLWhitespace(p[i]) { i += 1 }
            guard i < end && (p[i] == ASCII.quote || p[i] == ASCII.apostrophe),
                let valueEnd = findByte(p, p[i], from: i + 1), valueEnd < end
            else { throw error(.malformed, at: i, p, "expected a quoted value in the XML declaration") }
            let value = makeString(p, i + 1, valueEnd)
            switch name {
            case "version" where seen.isEmpty:
                guard value.hasPrefix("1."), value.count > 2, value.utf8.dropFirst(2).allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
                else { throw error(.malformed, at: nameStart, p, "unsupported XML version \(value)") }
            case "encoding" where seen == ["version"]:
                let lower = String(value.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? Character(Unicode.Scalar($0 | 0x20)) : Character(Unicode.Scalar($0)) })
                guard lower == "utf-8" || lower == "utf8" else {
                    throw error(.malformed, at: nameStart, p, "unsupported encoding \(value); only UTF-8 is read")
                }
            case "standalone" where seen.first == "version" && !seen.contains("standalone"):
                guard value == "yes" || value == "no" else { throw error(.malformed, at: nameStart, p, "standalone must be yes or no") }
            default:
                throw error(.malformed, at: nameStart, p, "unexpected \(name) in the XML declaration")
            }
            seen.append(name)
            i = valueEnd + 1
        }
        guard seen.first == "version" else { throw error(.malformed, at: start, p, "XML declaration without version") }
    }
}

/// Uppercase hex of a code point, for error reasons.
func hex(_ v: UInt32) -> String {
    let s = String(v, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - s.count)) + s
}
