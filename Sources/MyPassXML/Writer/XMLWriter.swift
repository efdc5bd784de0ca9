/// Writes XML in the exact shape KeePass 2.x writes (its .NET `XmlWriter` with `Indent = true`,
/// `IndentChars = "\t"`, as in `/work/shared/fixtures/keepass/rich-export.xml`):
///
/// - UTF-8 without byte-order mark; the declaration `<?xml version="1.0" encoding="utf-8" standalone="yes"?>`;
/// - `"\n"` line ends, one tab per nesting level, each element on its own line, no newline at the end;
/// - `<Name>text</Name>` for leaves (also `<Name></Name>` for empty text), `<Name />` for an element with no content;
/// - text escapes `&lt; &gt; &amp;` and turns CR and CR LF into LF (as .NET's `NewLineHandling.Replace`);
///   attribute values escape `&lt; &gt; &amp; &quot;` and `&#x9; &#xA; &#xD;`;
/// - once text is written in an element, its later children are not indented (.NET's mixed-content rule);
/// - characters XML 1.0 forbids (U+0000-U+0008, U+000B, U+000C, U+000E-U+001F, U+FFFE, U+FFFF) are
///   dropped, as KeePass does, so the file always reads back.
///
/// Output is produced incrementally: `takeOutput()` drains what is ready, `finish()` closes every
/// open element and drains the rest. Names are written as given (the caller passes valid XML names).
public struct XMLWriter: Sendable {
    struct Frame {
        var name: String
        var hasChildMarkup = false
        var parentWasMixed: Bool
    }

    var output = XMLOutputBuffer()
    var stack: [Frame] = []
    var isStartTagOpen = false
    var isMixed = false
    var hasWritten = false

    /// Creates an empty writer.
    public init() {}

    /// Writes `<?xml version="1.0" encoding="utf-8" standalone="yes"?>` (KeePass's declaration).
    public mutating func writeDeclaration() {
        output.append(contentsOf: #"<?xml version="1.0" encoding="utf-8" standalone="yes"?>"#.utf8)
        hasWritten = true
    }

    /// Opens an element on a new, indented line (unless in mixed content).
    /// - Parameters:
    ///   - name: the element name, written verbatim.
    ///   - attributes: written in order as ` name="value"`, values escaped and sanitised.
    public mutating func startElement(_ name: String, attributes: [XMLAttribute] = []) {
        beginMarkup()
        output.append(ASCII.lessThan)
        output.append(contentsOf: name.utf8)
        for attribute in attributes {
            output.append(ASCII.space)
            output.append(contentsOf: attribute.name.utf8)
            output.append(contentsOf: #"=""#.utf8)
            appendEscaped(attribute.value, inAttribute: true)
            output.append(ASCII.quote)
        }
        stack.append(Frame(name: name, parentWasMixed: isMixed))
        isStartTagOpen = true
    }

    /// Closes the innermost open element: `<X />` when nothing was written inside it, otherwise
    /// `</X>`, on its own indented line when the element holds child elements (and no text).
    /// Does nothing when no element is open.
    public mutating func endElement() {
        guard let frame = stack.popLast() else { return }
        if isStartTagOpen {
            output.append(contentsOf: " />".utf8)
            isStartTagOpen = false
        } else {
            if frame.hasChildMarkup && !isMixed { newLineAndIndent(stack.count) }
            output.append(contentsOf: "</".utf8)
            output.append(contentsOf: frame.name.utf8)
            output.append(ASCII.greaterThan)
        }
        isMixed = frame.parentWasMixed
    }

    /// Writes escaped, sanitised text inside the current element, with no indentation. Even empty
    /// text closes the start tag, so the element is written `<X></X>` (as KeePass does).
    public mutating func writeText(_ text: String) {
        closeStartTag()
        isMixed = true
        hasWritten = true
        appendEscaped(text, inAttribute: false)
    }

    /// Writes a leaf element `<name attributes>text</name>` (`<name></name>` for empty text).
    public mutating func writeElement(_ name: String, text: String, attributes: [XMLAttribute] = []) {
        startElement(name, attributes: attributes)
        writeText(text)
        endElement()
    }

    /// Writes a CDATA section; `]]>` inside is split across two sections. Counts as text for indentation.
    public mutating func writeCDATA(_ text: String) {
        closeStartTag()
        isMixed = true
        hasWritten = true
        output.append(contentsOf: "<![CDATA[".utf8)
        let clean = xmlSanitized(text)
        var bytes = Array(clean.utf8)
        var k = 0
        var pieces: [UInt8] = []
        pieces.reserveCapacity(bytes.count)
        while k < bytes.count {
            if k + 2 < bytes.count && bytes[k] == ASCII.rightBracket && bytes[k + 1] == ASCII.rightBracket
                && bytes[k + 2] == ASCII.greaterThan
            {
                pieces.append(contentsOf: "]]]]><![CDATA[>".utf8)
                k += 3
            } else {
                pieces.append(bytes[k])
                k += 1
            }
        }
        bytes = pieces
        output.append(contentsOf: bytes)
        output.append(contentsOf: "]]>".utf8)
    }

    /// Writes a comment on its own indented line (unless in mixed content); `--` inside becomes
    /// `- -` and a trailing `-` gets a space, as .NET does.
    public mutating func writeComment(_ text: String) {
        beginMarkup()
        output.append(contentsOf: "<!--".utf8)
        output.append(contentsOf: separated(xmlSanitized(text), ASCII.hyphen, ASCII.hyphen))
        output.append(contentsOf: "-->".utf8)
    }

    /// Writes a processing instruction `<?target data?>`; `?>` inside the data becomes `? >`.
    public mutating func writeProcessingInstruction(target: String, data: String) {
        beginMarkup()
        output.append(contentsOf: "<?".utf8)
        output.append(contentsOf: target.utf8)
        if !data.isEmpty {
            output.append(ASCII.space)
            output.append(contentsOf: separated(xmlSanitized(data), ASCII.question, ASCII.greaterThan))
        }
        output.append(contentsOf: "?>".utf8)
    }

    /// Writes a captured subtree (see `XMLElementNode`) with the same shape rules.
    public mutating func writeNode(_ node: XMLElementNode) {
        startElement(node.name, attributes: node.attributes)
        for child in node.children {
            switch child {
            case .element(let element): writeNode(element)
            case .text(let text): writeText(text)
            case .cdata(let text): writeCDATA(text)
            case .comment(let text): writeComment(text)
            case .processingInstruction(let target, let data): writeProcessingInstruction(target: target, data: data)
            }
        }
        endElement()
    }

    /// How many bytes are waiting for ``takeOutput()``.
    public var bufferedByteCount: Int { output.count }

    /// Returns the bytes produced so far and forgets them (for streaming the output).
    /// The writer's own buffer is zeroed whenever it grows; the caller wipes what it takes.
    public mutating func takeOutput() -> [UInt8] {
        output.take()
    }

    /// Closes every open element and returns the remaining bytes.
    public mutating func finish() -> [UInt8] {
        while !stack.isEmpty { endElement() }
        return takeOutput()
    }

    // MARK: - Helpers

    mutating func closeStartTag() {
        if isStartTagOpen {
            output.append(ASCII.greaterThan)
            isStartTagOpen = false
        }
    }

    /// Before an element, comment or PI: close the parent's start tag and indent.
    mutating func beginMarkup() {
        closeStartTag()
        if hasWritten && !isMixed { newLineAndIndent(stack.count) }
        if !stack.isEmpty { stack[stack.count - 1].hasChildMarkup = true }
        hasWritten = true
    }

    mutating func newLineAndIndent(_ depth: Int) {
        output.append(ASCII.lineFeed)
        for _ in 0..<depth { output.append(ASCII.tab) }
    }

    /// Inserts a space between `a` and `b` wherever they are adjacent, and after a trailing `a`
    /// (for `--` in comments; for `?>` in PIs the trailing rule does not matter).
    func separated(_ text: String, _ a: UInt8, _ b: UInt8) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var previous: UInt8 = 0
        for c in text.utf8 {
            if previous == a && c == b { out.append(ASCII.space) }
            out.append(c)
            previous = c
        }
        if a == ASCII.hyphen && previous == ASCII.hyphen { out.append(ASCII.space) }
        return out
    }

    /// Appends `text` escaped for content or a double-quoted attribute, dropping forbidden characters.
    mutating func appendEscaped(_ text: String, inAttribute: Bool) {
        var text = text
        text.withUTF8 { u in
            var runStart = 0
            var i = 0
            let n = u.count
            while i < n {
                let c = u[i]
                let replacement: StaticString?
                var skip = 1
                if c >= 0x3F && c != 0xEF {  // fast: no special ASCII at or above '?' except 0xEF lead
                    i += 1
                    continue
                }
                switch c {
                case ASCII.lessThan: replacement = "&lt;"
                case ASCII.greaterThan: replacement = "&gt;"
                case ASCII.ampersand: replacement = "&amp;"
                case ASCII.quote: replacement = inAttribute ? "&quot;" : nil
                case ASCII.tab: replacement = inAttribute ? "&#x9;" : nil
                case ASCII.lineFeed: replacement = inAttribute ? "&#xA;" : nil
                case ASCII.carriageReturn:
                    if inAttribute {
                        replacement = "&#xD;"
                    } else {
                        replacement = "\n"
                        if i + 1 < n && u[i + 1] == ASCII.lineFeed { skip = 2 }
                    }
                case 0xEF:
                    // U+FFFE and U+FFFF are EF BF BE and EF BF BF: dropped.
                    if i + 2 < n && u[i + 1] == 0xBF && (u[i + 2] == 0xBE || u[i + 2] == 0xBF) {
                        replacement = ""
                        skip = 3
                    } else {
                        replacement = nil
                    }
                case 0..<0x20:
                    replacement = ""  // forbidden control character: dropped
                default:
                    replacement = nil
                }
                guard let replacement else {
                    i += 1
                    continue
                }
                if i > runStart { output.append(contentsOf: UnsafeBufferPointer(rebasing: u[runStart..<i])) }
                replacement.withUTF8Buffer { output.append(contentsOf: $0) }
                i += skip
                runStart = i
            }
            if n > runStart { output.append(contentsOf: UnsafeBufferPointer(rebasing: u[runStart..<n])) }
        }
    }
}
