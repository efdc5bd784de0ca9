// The scanner: finds where the token at `position` ends (resuming across chunks), then hands the
// complete token to the parsing functions.

extension XMLTokenizer {
    /// Reads one token at `position`.
    mutating func step(_ p: UnsafeBufferPointer<UInt8>) throws(XMLError) -> Step {
        let end = p.count
        let start = position
        if start >= end { return try endOfInput() }
        switch phase {
        case .byteOrderMark:
            let bom: (UInt8, UInt8, UInt8) = (0xEF, 0xBB, 0xBF)
            let available = end - start
            if p[start] == bom.0 && (available < 2 || p[start + 1] == bom.1)
                && (available < 3 || p[start + 2] == bom.2)
            {
                if available < 3 {
                    if !isFinished { return .needMoreInput }
                    throw error(.invalidUTF8, at: start, p, "truncated byte-order mark")
                }
                consume(to: start + 3, p)
                currentLineStart = bufferBase + position  // the BOM takes no column
            }
            phase = .declaration
            return .skipped
        case .declaration:
            let pattern: [UInt8] = [0x3C, 0x3F, 0x78, 0x6D, 0x6C]  // "<?xml"
            let available = end - start
            var matches = true
            for k in 0..<min(available, 5) where p[start + k] != pattern[k] {
                matches = false
                break
            }
            if matches && available < 6 && !isFinished { return .needMoreInput }
            phase = .prolog
            if matches && available >= 6 && (isXMLWhitespace(p[start + 5]) || p[start + 5] == ASCII.question) {
                guard let q = try findTerminator(p, start, contentStart: start + 5, 0x3F, 0x3E, 0)
                else {
                    phase = .declaration
                    return isFinished ? try truncated(p) : .needMoreInput
                }
                try parseDeclaration(p, start + 5, q)
                consume(to: q + 2, p)
            }
            return .skipped
        default:
            break
        }
        if p[start] == ASCII.lessThan {
            return try markup(p, start, end)
        }
        return try textToken(p, start, end)
    }

    /// What the end of the available input means.
    mutating func endOfInput() throws(XMLError) -> Step {
        guard isFinished else { return .needMoreInput }
        switch phase {
        case .epilog:
            return .endOfDocument
        case .content:
            throw XMLError(
                .unclosedTag, line: currentLine, column: bufferBase + position - currentLineStart + 1,
                "input ended with <\(openElements.last ?? "")> still open")
        case .byteOrderMark, .declaration, .prolog:
            throw XMLError(
                .unexpectedEndOfInput, line: currentLine, column: bufferBase + position - currentLineStart + 1,
                "no root element")
        }
    }

    /// The incomplete token at `position` can never be completed.
    func truncated(_ p: UnsafeBufferPointer<UInt8>) throws(XMLError) -> Step {
        throw error(.unexpectedEndOfInput, at: position, p, "input ended inside markup")
    }

    /// Dispatches on the bytes after `<`.
    mutating func markup(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) throws(XMLError) -> Step {
        guard start + 1 < end else { return isFinished ? try truncated(p) : .needMoreInput }
        switch p[start + 1] {
        case ASCII.slash:
            return try endTagToken(p, start, end)
        case ASCII.question:
            return try processingInstructionToken(p, start, end)
        case ASCII.exclamation:
            guard start + 2 < end else { return isFinished ? try truncated(p) : .needMoreInput }
            switch p[start + 2] {
            case ASCII.hyphen:
                guard start + 3 < end else { return isFinished ? try truncated(p) : .needMoreInput }
                guard p[start + 3] == ASCII.hyphen else { throw error(.malformed, at: start, p, "expected <!--") }
                return try commentToken(p, start, end)
            case ASCII.leftBracket:
                let pattern: [UInt8] = Array("<![CDATA[".utf8)
                for k in 3..<9 {
                    guard start + k < end else { return isFinished ? try truncated(p) : .needMoreInput }
                    guard p[start + k] == pattern[k] else { throw error(.malformed, at: start, p, "expected <![CDATA[") }
                }
                return try cdataToken(p, start, end)
            case 0x44:  // "D"
                throw error(.doctypeNotAllowed, at: start, p, "DOCTYPE declarations are not processed")
            default:
                throw error(.malformed, at: start, p, "unexpected markup after <!")
            }
        default:
            return try startTagToken(p, start, end)
        }
    }

    // MARK: - Tokens

    mutating func textToken(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) throws(XMLError) -> Step {
        let textEnd: Int
        if let lt = findByte(p, ASCII.lessThan, from: start + scanOffset) {
            textEnd = lt
        } else if isFinished {
            textEnd = end
        } else {
            scanOffset = end - start
            if scanOffset > limits.maxValueBytes {
                throw error(.valueTooLarge, at: start, p, "text longer than \(limits.maxValueBytes) bytes")
            }
            return .needMoreInput
        }
        if textEnd - start > limits.maxValueBytes {
            throw error(.valueTooLarge, at: start, p, "text longer than \(limits.maxValueBytes) bytes")
        }
        var i = start
        while i < textEnd && isXMLWhitespace(p[i]) { i += 1 }
        let isWhitespace = i == textEnd
        if phase != .content {
            if !isWhitespace {
                _ = try validateCharacters(p, i, textEnd, isText: true)  // report broken UTF-8 first
                if phase == .epilog { throw error(.contentAfterRoot, at: i, p, "text after the root element") }
                throw error(.malformed, at: i, p, "text before the root element")
            }
            consume(to: textEnd, p)
            return .skipped
        }
        if isWhitespace && skipsWhitespaceText {
            consume(to: textEnd, p)
            return .skipped
        }
        let text = try textValue(p, start, textEnd)
        markEvent()
        consume(to: textEnd, p)
        return .event(.text(text))
    }

    mutating func commentToken(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) throws(XMLError) -> Step {
        guard let close = try findTerminator(p, start, contentStart: start + 4, ASCII.hyphen, ASCII.hyphen, ASCII.greaterThan)
        else { return isFinished ? try truncated(p) : .needMoreInput }
        let text = try plainValue(p, start + 4, close, isComment: true)
        markEvent()
        consume(to: close + 3, p)
        return .event(.comment(text))
    }

    mutating func cdataToken(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) throws(XMLError) -> Step {
        guard phase == .content else { throw error(.malformed, at: start, p, "CDATA section outside the root element") }
        guard let close = try findTerminator(
            p, start, contentStart: start + 9, ASCII.rightBracket, ASCII.rightBracket, ASCII.greaterThan)
        else { return isFinished ? try truncated(p) : .needMoreInput }
        let text = try plainValue(p, start + 9, close, isComment: false)
        markEvent()
        consume(to: close + 3, p)
        return .event(.cdata(text))
    }

    mutating func processingInstructionToken(
        _ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int
    ) throws(XMLError) -> Step {
        guard let close = try findTerminator(p, start, contentStart: start + 2, ASCII.question, ASCII.greaterThan, 0)
        else { return isFinished ? try truncated(p) : .needMoreInput }
        let targetEnd = try scanName(p, start + 2, close)
        if targetEnd - (start + 2) == 3 {
            let x = p[start + 2] | 0x20, m = p[start + 3] | 0x20, l = p[start + 4] | 0x20
            if x == 0x78 && m == 0x6D && l == 0x6C {
                throw error(.malformed, at: start, p, "XML declaration not at the start of the document")
            }
        }
        var dataStart = targetEnd
        if dataStart < close {
            guard isXMLWhitespace(p[dataStart]) else {
                throw error(.malformed, at: dataStart, p, "white space required after the PI target")
            }
            while dataStart < close && isXMLWhitespace(p[dataStart]) { dataStart += 1 }
        }
        let target = makeString(p, start + 2, targetEnd)
        let data = try plainValue(p, dataStart, close, isComment: false)
        markEvent()
        consume(to: close + 2, p)
        return .event(.processingInstruction(target: target, data: data))
    }

    mutating func endTagToken(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) throws(XMLError) -> Step {
        guard let gt = findByte(p, ASCII.greaterThan, from: start + max(2, scanOffset)) else {
            if isFinished { return try truncated(p) }
            scanOffset = end - start
            if scanOffset > limits.maxNameBytes + 4096 {
                throw error(.nameTooLong, at: start, p, "end tag longer than the name limit")
            }
            return .needMoreInput
        }
        let nameEnd = try scanName(p, start + 2, gt)
        var i = nameEnd
        while i < gt && isXMLWhitespace(p[i]) { i += 1 }
        guard i == gt else { throw error(.malformed, at: i, p, "unexpected character in end tag") }
        guard let open = openElements.last else {
            throw error(.mismatchedTag, at: start, p, "end tag with no open element")
        }
        guard bytesEqual(open, p, start + 2, nameEnd) else {
            throw error(
                .mismatchedTag, at: start, p,
                "</\(makeString(p, start + 2, nameEnd))> does not close <\(open)>")
        }
        openElements.removeLast()
        if openElements.isEmpty { phase = .epilog }
        markEvent()
        consume(to: gt + 1, p)
        return .event(.endElement(name: open))
    }

    mutating func startTagToken(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) throws(XMLError) -> Step {
        guard let gt = try findStartTagEnd(p, start, end) else {
            return isFinished ? try truncated(p) : .needMoreInput
        }
        if phase == .epilog { throw error(.contentAfterRoot, at: start, p, "a second root element") }
        if openElements.count >= limits.maxDepth {
            throw error(.depthLimitExceeded, at: start, p, "nesting deeper than \(limits.maxDepth)")
        }
        let (name, attributes, selfClosing) = try parseStartTag(p, start, gt)
        phase = .content
        markEvent()
        consume(to: gt + 1, p)
        if selfClosing {
            if openElements.isEmpty { phase = .epilog }
            pendingEndName = name
        } else {
            openElements.append(name)
        }
        return .event(.startElement(name: name, attributes: attributes))
    }

    // MARK: - Finding token ends

    /// Finds the `>` ending the start tag at `start`, skipping quoted attribute values; resumes
    /// where the previous call stopped. Checks limits on the way so that hostile input fails early.
    mutating func findStartTagEnd(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) throws(XMLError) -> Int? {
        var i = start + max(1, scanOffset)
        var quote = scanQuote
        var attributes = scanAttributes
        var run = scanRun
        var unquoted = scanUnquoted
        let unquotedLimit = (limits.maxAttributes + 1) &* (limits.maxNameBytes &+ 8) &+ 65536
        while i < end {
            let c = p[i]
            if quote != 0 {
                if c == quote {
                    quote = 0
                } else if c == ASCII.lessThan {
                    throw error(.ltInAttribute, at: i, p, "'<' in an attribute value")
                } else {
                    run += 1
                    if run > limits.maxValueBytes {
                        throw error(.valueTooLarge, at: start, p, "attribute value longer than \(limits.maxValueBytes) bytes")
                    }
                }
            } else if c == ASCII.greaterThan {
                return i
            } else if c == ASCII.quote || c == ASCII.apostrophe {
                quote = c
                run = 0
                attributes += 1
                if attributes > limits.maxAttributes {
                    throw error(.tooManyAttributes, at: start, p, "more than \(limits.maxAttributes) attributes")
                }
            } else if c == ASCII.lessThan {
                throw error(.malformed, at: i, p, "'<' inside a tag")
            } else {
                unquoted += 1
                if unquoted > unquotedLimit {
                    throw error(.nameTooLong, at: start, p, "start tag too long")
                }
            }
            i += 1
        }
        scanOffset = i - start
        scanQuote = quote
        scanAttributes = attributes
        scanRun = run
        scanUnquoted = unquoted
        return nil
    }

    /// Finds the 2- or 3-byte terminator `t0 t1 [t2]` (t2 == 0 for two bytes) at or after
    /// `contentStart`, resuming after the bytes already scanned. Enforces `maxValueBytes`.
    mutating func findTerminator(
        _ p: UnsafeBufferPointer<UInt8>, _ start: Int, contentStart: Int, _ t0: UInt8, _ t1: UInt8, _ t2: UInt8
    ) throws(XMLError) -> Int? {
        let length = t2 == 0 ? 2 : 3
        let end = p.count
        var i = max(contentStart, start + scanOffset)
        while i + length <= end {
            if p[i] == t0 && p[i + 1] == t1 && (length == 2 || p[i + 2] == t2) {
                if i - contentStart > limits.maxValueBytes {
                    throw error(.valueTooLarge, at: start, p, "value longer than \(limits.maxValueBytes) bytes")
                }
                return i
            }
            i += 1
        }
        scanOffset = max(0, i - start)
        if i - contentStart > limits.maxValueBytes {
            throw error(.valueTooLarge, at: start, p, "value longer than \(limits.maxValueBytes) bytes")
        }
        return nil
    }

    /// Index of the first `byte` at or after `from`, or `nil`.
    @inline(__always)
    func findByte(_ p: UnsafeBufferPointer<UInt8>, _ byte: UInt8, from: Int) -> Int? {
        var i = from
        let end = p.count
        while i < end {
            if p[i] == byte { return i }
            i += 1
        }
        return nil
    }

    // MARK: - Positions

    /// Marks the token at `position` as the position of the event about to be returned.
    @inline(__always)
    mutating func markEvent() {
        line = currentLine
        column = bufferBase + position - currentLineStart + 1
    }

    /// Consumes the bytes up to `end`, keeping the line count.
    mutating func consume(to end: Int, _ p: UnsafeBufferPointer<UInt8>) {
        var i = position
        var lines = 0
        var lastLineFeed = -1
        while i < end {
            if p[i] == ASCII.lineFeed {
                lines += 1
                lastLineFeed = i
            }
            i += 1
        }
        if lines > 0 {
            currentLine += lines
            currentLineStart = bufferBase + lastLineFeed + 1
        }
        position = end
        scanOffset = 0
        scanQuote = 0
        scanAttributes = 0
        scanRun = 0
        scanUnquoted = 0
    }

    /// An error located at buffer index `index` (inside the current token).
    func error(_ code: XMLError.Code, at index: Int, _ p: UnsafeBufferPointer<UInt8>, _ reason: String) -> XMLError {
        var line = currentLine
        var lineStart = currentLineStart
        var i = position
        while i < index && i < p.count {
            if p[i] == ASCII.lineFeed {
                line += 1
                lineStart = bufferBase + i + 1
            }
            i += 1
        }
        return XMLError(code, line: line, column: bufferBase + index - lineStart + 1, reason)
    }

    /// Whether the UTF-8 of `string` equals `p[start..<end]`.
    func bytesEqual(_ string: String, _ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        var s = string
        return s.withUTF8 { u in
            guard u.count == end - start else { return false }
            var k = 0
            while k < u.count {
                if u[k] != p[start + k] { return false }
                k += 1
            }
            return true
        }
    }
}
