// Start tags and the XML declaration (XML 1.0 §3.1, §2.8).

extension XMLTokenizer {
    /// Parses the complete start tag `p[start...gt]` (`p[gt]` is `>`).
    mutating func parseStartTag(
        _ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ gt: Int
    ) throws(XMLError) -> (String, [XMLAttribute], Bool) {
        let nameEnd = try scanName(p, start + 1, gt)
        let name = makeName(p, start + 1, nameEnd)
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
            let attributeName = makeName(p, attributeNameStart, attributeNameEnd)
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
