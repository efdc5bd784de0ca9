// Finding where a token ends (resumably, with limits checked on the way), positions and errors.

extension XMLTokenizer {
    // MARK: - Finding token ends

    /// Finds the `>` ending the start tag at `start`, skipping quoted attribute values; resumes
    /// where the previous call stopped. Checks limits on the way so that hostile input fails early.
    mutating func findStartTagEnd(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) throws(XMLError) -> Int? {
        // Fast path for a tag that is complete and has no quotes (most KeePass tags): the first '>'.
        if scanOffset == 0, let gt = findByte(p, ASCII.greaterThan, from: start + 1) {
            var k = start + 1
            while k < gt {
                let c = p[k]
                if c == ASCII.quote || c == ASCII.apostrophe || c == ASCII.lessThan { break }
                k += 1
            }
            if k == gt { return gt }
        }
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

    /// Index of the first `byte` at or after `from`, or `nil`. Tests eight bytes at a time.
    @inline(__always)
    func findByte(_ p: UnsafeBufferPointer<UInt8>, _ byte: UInt8, from: Int) -> Int? {
        var i = from
        let end = p.count
        if let base = p.baseAddress {
            let pattern = UInt64(byte) &* 0x0101_0101_0101_0101
            while i &+ 8 <= end {
                let zeroes = zeroByteMask(loadWord(base, i) ^ pattern)
                if zeroes != 0 {
                    return i &+ (zeroes.trailingZeroBitCount >> 3)
                }
                i &+= 8
            }
        }
        while i < end {
            if p[i] == byte { return i }
            i &+= 1
        }
        return nil
    }

    // MARK: - Positions

    /// Marks the token at `position` as the position of the event about to be returned.
    @inline(__always)
    mutating func markEvent() {
        lastEventWasStart = false
        line = currentLine
        column = bufferBase + position - currentLineStart + 1
    }

    /// Consumes the bytes up to `end`, keeping the line count.
    @inline(__always)
    mutating func consume(to end: Int, _ p: UnsafeBufferPointer<UInt8>) {
        let lines = countLineFeeds(p, position, end)
        if lines > 0 {
            var last = end - 1
            while p[last] != ASCII.lineFeed { last -= 1 }
            currentLine += lines
            currentLineStart = bufferBase + last + 1
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
        let utf8 = string.utf8
        let count = end - start
        guard utf8.count == count else { return false }
        guard count > 0, let base = p.baseAddress else { return true }
        if let equal = utf8.withContiguousStorageIfAvailable({ u in
            guard let stringBase = u.baseAddress else { return false }
            return memoryEqual(stringBase, base + start, count: count)
        }) {
            return equal
        }
        var k = start
        for byte in utf8 {
            if byte != p[k] { return false }
            k &+= 1
        }
        return true
    }
}
