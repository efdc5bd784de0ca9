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
            // Text running into the end of input: inside the root that means an unclosed element.
            if phase == .content {
                throw error(.unclosedTag, at: end, p, "input ended with <\(openElements.last ?? "")> still open")
            }
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
        // Leading white space (all of it, for indentation) needs no further validation.
        var i = start
        var hasCarriageReturn = false
        while i < textEnd {
            let c = p[i]
            if c == ASCII.space || c == ASCII.tab || c == ASCII.lineFeed {
                i += 1
            } else if c == ASCII.carriageReturn {
                hasCarriageReturn = true
                i += 1
            } else {
                break
            }
        }
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
            // Keep white space that is an element's whole content (`<Value> </Value>`: a password
            // of spaces is data); drop it between elements. That needs the byte after the '<'.
            if lastEventWasStart {
                if textEnd + 1 >= end {
                    if !isFinished {
                        scanOffset = textEnd - start
                        return .needMoreInput
                    }
                } else if p[textEnd + 1] == ASCII.slash {
                    let text = try textValue(p, start, textEnd, validatedUpTo: i, hasCarriageReturn: hasCarriageReturn)
                    markEvent()
                    consume(to: textEnd, p)
                    return .event(.text(text))
                }
            }
            consume(to: textEnd, p)
            return .skipped
        }
        let text = try textValue(p, start, textEnd, validatedUpTo: i, hasCarriageReturn: hasCarriageReturn)
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
        guard let open = openElements.popLast() else {
            throw error(.mismatchedTag, at: start, p, "end tag with no open element")
        }
        // The name must equal the open element's (already validated): compare bytes first.
        let nameEnd = start + 2 + open.utf8.count
        if nameEnd <= gt && bytesEqual(open, p, start + 2, nameEnd) && (nameEnd == gt || isXMLWhitespace(p[nameEnd])) {
            var i = nameEnd
            while i < gt && isXMLWhitespace(p[i]) { i += 1 }
            guard i == gt else { throw error(.malformed, at: i, p, "unexpected character in end tag") }
        } else {
            // Not a match: validate what is there for the most precise error.
            let actualEnd = try scanName(p, start + 2, gt)
            var i = actualEnd
            while i < gt && isXMLWhitespace(p[i]) { i += 1 }
            guard i == gt else { throw error(.malformed, at: i, p, "unexpected character in end tag") }
            throw error(
                .mismatchedTag, at: start, p, "</\(makeString(p, start + 2, actualEnd))> does not close <\(open)>")
        }
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
            lastEventWasStart = true
        }
        return .event(.startElement(name: name, attributes: attributes))
    }
}
