#if canImport(MyPassXML)
import MyPassXML
#endif

// The properties the fuzz harness checks and `FuzzCorpusTests` replays. Plain Swift (no Testing),
// so the same file builds into a libFuzzer harness together with the module's sources:
//
//   cat > /tmp/FuzzMain.swift <<'END'
//   @_cdecl("LLVMFuzzerTestOneInput")
//   public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
//       let problems = xmlPropertyViolations(Array(UnsafeBufferPointer(start: data, count: size)))
//       precondition(problems.isEmpty, "\(problems)")
//       return 0
//   }
//   END
//   swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name FuzzXML \
//     $(find Sources/MyPassXML -name '*.swift') Tests/MyPassXMLTests/XMLProperties.swift \
//     /tmp/FuzzMain.swift -o /tmp/fuzzxml
//   /tmp/fuzzxml -max_len=512 CORPUS_DIR

/// Small limits, so that the fuzzer also reaches the limit checks.
let fuzzLimits = XMLLimits(maxDepth: 64, maxNameBytes: 64, maxAttributes: 16, maxValueBytes: 4096)

/// Tokenizes `chunks` in order; returns the events read and the error code, if any.
func tokenize(_ chunks: [ArraySlice<UInt8>], limits: XMLLimits = fuzzLimits, skipsWhitespaceText: Bool = false)
    -> ([XMLEvent], XMLError.Code?)
{
    var tokenizer = XMLTokenizer(limits: limits, skipsWhitespaceText: skipsWhitespaceText)
    var out: [XMLEvent] = []
    do {
        for chunk in chunks {
            tokenizer.feed(chunk)
            while let event = try tokenizer.next() { out.append(event) }
        }
        tokenizer.finish()
        while let event = try tokenizer.next() { out.append(event) }
        return (out, nil)
    } catch {
        return (out, error.code)
    }
}

/// Replays events into `writer`, the way a KDBX writer would.
func replay(_ events: [XMLEvent], into writer: inout XMLWriter) {
    for event in events {
        switch event {
        case .startElement(let name, let attributes): writer.startElement(name, attributes: attributes)
        case .endElement: writer.endElement()
        case .text(let text): writer.writeText(text)
        case .cdata(let text): writer.writeCDATA(text)
        case .comment(let text): writer.writeComment(text)
        case .processingInstruction(let target, let data): writer.writeProcessingInstruction(target: target, data: data)
        }
    }
}

/// Replays events into a writer; returns the document (no declaration).
func writeEvents(_ events: [XMLEvent]) -> [UInt8] {
    var writer = XMLWriter()
    replay(events, into: &writer)
    return writer.finish()
}

/// Checks, for any input bytes: (1) splitting the input in two at every 5th position gives the
/// same events and the same error as feeding it whole; (2) when the input is well-formed, the
/// writer's output of its events is well-formed and reads back to the same events (ignoring
/// whitespace-only text), except where XML cannot hold a value verbatim (`--` in comments, `?>`
/// in PIs, `]]>` in CDATA). Returns a description of each violation; empty when all hold.
func xmlPropertyViolations(_ bytes: [UInt8]) -> [String] {
    var problems: [String] = []
    let whole = tokenize([bytes[...]])
    var k = 0
    while k <= bytes.count {
        let split = tokenize([bytes[0..<k], bytes[k...]])
        if split.1 != whole.1 { problems.append("split \(k): error \(String(describing: split.1)) vs \(String(describing: whole.1))") }
        if whole.1 == nil && split.0 != whole.0 { problems.append("split \(k): events differ") }
        k += 5
    }
    guard whole.1 == nil else { return problems }
    let events = tokenize([bytes[...]], skipsWhitespaceText: true).0
    let again = tokenize([writeEvents(events)[...]], skipsWhitespaceText: true)
    if let code = again.1 { problems.append("written document does not read back: \(code)") }
    func significant(_ events: [XMLEvent]) -> [XMLEvent] {
        events.filter {
            if case .text(let text) = $0 { return !text.utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D } }
            return true
        }
    }
    let escapable = events.contains {
        switch $0 {
        case .comment, .processingInstruction, .cdata: return true
        default: return false
        }
    }
    if !escapable && significant(again.0) != significant(events) { problems.append("round trip changed the events") }
    return problems
}
