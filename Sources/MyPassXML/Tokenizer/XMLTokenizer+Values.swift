import MyPassBytes

// Turning complete tokens into values: names, text, attribute values, references.

extension XMLTokenizer {
    /// Validates the name starting at `start` (before `limit`) and returns where it ends.
    /// Throws `.invalidName` when it is empty or starts badly, `.nameTooLong`, `.invalidUTF8`.
    func scanName(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ limit: Int) throws(XMLError) -> Int {
        var i = start
        if i < limit && p[i] < 0x80 {
            // ASCII fast path: the first character, then a bitmap test per byte.
            guard isASCIINameStart(p[i]) else { throw error(.invalidName, at: start, p, "expected a name") }
            i += 1
            while i < limit {
                let c = p[i]
                guard isASCIINameCharFast(c) else { break }
                i += 1
            }
            if i == limit || p[i] < 0x80 {
                if i - start > limits.maxNameBytes {
                    throw error(.nameTooLong, at: start, p, "name longer than \(limits.maxNameBytes) bytes")
                }
                return i
            }
        }
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

    /// The String for the (validated) name `p[start..<end]`, from the name cache when it was seen before.
    @inline(__always)
    mutating func makeName(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        // Hash of the length, the first and the last eight bytes (a collision only costs a String).
        let length = end - start
        var mixed = UInt64(truncatingIfNeeded: length)
        if let base = p.baseAddress, start &+ 8 <= p.count {
            var first = loadWord(base, start)
            if length < 8 { first &= (1 &<< UInt64(8 &* length)) &- 1 }
            mixed ^= first
            if length > 8 { mixed ^= loadWord(base, end &- 8) >> 1 }
        } else {
            var k = start
            while k < end {
                mixed = (mixed &<< 8) | UInt64(p[k])
                k &+= 1
            }
        }
        let slot = Int(truncatingIfNeeded: (mixed &* 0x9E37_79B9_7F4A_7C15) >> 55)  // 0..<512
        let cached = nameCache[slot]
        if bytesEqual(cached, p, start, end) { return cached }
        let name = makeString(p, start, end)
        nameCache[slot] = name
        return name
    }

    /// Validates characters in `p[start..<end]`: legal XML Chars in well-formed UTF-8.
    /// Returns whether the run needs rewriting (it holds `&` or CR), and checks `]]>` in text.
    @inline(__always)
    func validateCharacters(
        _ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, isText: Bool
    ) throws(XMLError) -> Bool {
        var needsRewrite = false
        var i = start
        let base = p.baseAddress
        while i < end {
            if i &+ 8 <= end, let base, isPlainASCIIWord(loadWord(base, i)) {
                i &+= 8
                continue
            }
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
    /// `p[start..<validatedUpTo]` is known to be white space, with a CR when `hasCarriageReturn`.
    mutating func textValue(
        _ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, validatedUpTo: Int, hasCarriageReturn: Bool
    ) throws(XMLError) -> String {
        let needsRewrite = try validateCharacters(p, validatedUpTo, end, isText: true)
        if !needsRewrite && !hasCarriageReturn {
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
        // The value may be a secret's text: zero it before the buffer is kept for the next value.
        defer {
            wipe(&out)
            out.removeAll(keepingCapacity: true)
            scratch = out
        }
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
        if end > start, let base = p.baseAddress { out.append(contentsOf: UnsafeBufferPointer(start: base + start, count: end - start)) }
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
            // The name is not quoted: after a stray '&' it is whatever text follows, which may be a secret.
            throw error(.unknownEntity, at: amp, p, "unknown entity reference (only &lt; &gt; &amp; &apos; &quot; are defined)")
        }
        return (value, semicolon + 1)
    }
}

/// Uppercase hex of a code point, for error reasons.
func hex(_ v: UInt32) -> String {
    let s = String(v, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - s.count)) + s
}
