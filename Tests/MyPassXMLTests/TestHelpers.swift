import MyPassXML
import MyPassTestSupport

/// Tokenizes `bytes` fed as the given chunks; returns all events (throws the tokenizer's error).
func events(
    chunks: [ArraySlice<UInt8>], skipsWhitespaceText: Bool = false, limits: XMLLimits = XMLLimits()
) throws(XMLError) -> [XMLEvent] {
    var tokenizer = XMLTokenizer(limits: limits, skipsWhitespaceText: skipsWhitespaceText)
    var result: [XMLEvent] = []
    for chunk in chunks {
        tokenizer.feed(chunk)
        while let event = try tokenizer.next() { result.append(event) }
    }
    tokenizer.finish()
    while let event = try tokenizer.next() { result.append(event) }
    return result
}

/// Tokenizes a whole document given as text.
func events(_ text: String, skipsWhitespaceText: Bool = false, limits: XMLLimits = XMLLimits()) throws(XMLError) -> [XMLEvent] {
    try events(chunks: [Array(text.utf8)[...]], skipsWhitespaceText: skipsWhitespaceText, limits: limits)
}

/// Tokenizes `bytes` as one chunk.
func events(bytes: [UInt8], skipsWhitespaceText: Bool = false, limits: XMLLimits = XMLLimits()) throws(XMLError) -> [XMLEvent] {
    try events(chunks: [bytes[...]], skipsWhitespaceText: skipsWhitespaceText, limits: limits)
}

/// The error a document ends in, or nil when it is well-formed.
func xmlError(_ bytes: [UInt8], limits: XMLLimits = XMLLimits()) -> XMLError? {
    do {
        _ = try events(bytes: bytes, limits: limits)
        return nil
    } catch {
        return error
    }
}

func errorCode(_ bytes: [UInt8], limits: XMLLimits = XMLLimits()) -> XMLError.Code? {
    xmlError(bytes, limits: limits)?.code
}

func errorCode(_ text: String, limits: XMLLimits = XMLLimits()) -> XMLError.Code? {
    errorCode(Array(text.utf8), limits: limits)
}

/// Drops whitespace-only text events (for comparing documents that differ only in indentation).
func withoutWhitespaceText(_ events: [XMLEvent]) -> [XMLEvent] {
    events.filter {
        if case .text(let t) = $0 { return !t.utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D } }
        return true
    }
}

/// Replays events into a writer (the way a KDBX writer would) and returns the document.
func write(_ events: [XMLEvent], declaration: Bool = true) -> [UInt8] {
    var writer = XMLWriter()
    if declaration { writer.writeDeclaration() }
    replay(events, into: &writer)
    return writer.finish()
}

func start(_ name: String, _ attributes: [(String, String)] = []) -> XMLEvent {
    .startElement(name: name, attributes: attributes.map { XMLAttribute($0.0, $0.1) })
}

func end(_ name: String) -> XMLEvent { .endElement(name: name) }

/// The first index where two byte arrays differ (or the shorter length), `nil` when equal; keeps
/// test failure messages short for large documents.
func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> Int? {
    let n = min(a.count, b.count)
    for i in 0..<n where a[i] != b[i] { return i }
    return a.count == b.count ? nil : n
}

/// Rewrites every `<X></X>` as `<X />`: the one difference an event stream cannot carry (both are
/// an element with no content), so a document written from events has the second form.
func collapsingEmptyElements(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var i = 0
    while i < bytes.count {
        if bytes[i] == 0x3C, i + 1 < bytes.count, bytes[i + 1] != 0x2F, bytes[i + 1] != 0x3F, bytes[i + 1] != 0x21 {
            var nameEnd = i + 1
            while nameEnd < bytes.count, bytes[nameEnd] != 0x3E, bytes[nameEnd] != 0x20, bytes[nameEnd] != 0x2F { nameEnd += 1 }
            var j = nameEnd
            while j < bytes.count, bytes[j] != 0x3E { j += 1 }
            if j < bytes.count, bytes[j - 1] != 0x2F {
                let name = bytes[(i + 1)..<nameEnd]
                let close = [0x3C, 0x2F] + name + [0x3E]
                let after = j + 1
                if after + close.count <= bytes.count, Array(bytes[after..<(after + close.count)]) == close {
                    out.append(contentsOf: bytes[i..<j])
                    out.append(contentsOf: [0x20, 0x2F, 0x3E])
                    i = after + close.count
                    continue
                }
            }
        }
        out.append(bytes[i])
        i += 1
    }
    return out
}
