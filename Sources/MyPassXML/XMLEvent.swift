/// One event of the pull tokenizer (`XMLTokenizer.next()`).
///
/// The XML declaration and the byte-order mark are consumed, not reported. Text outside the root
/// element (only white space is allowed there) is not reported either.
public enum XMLEvent: Equatable, Sendable {
    /// A start tag with its attributes in document order. A self-closing tag `<a/>` gives this
    /// event followed immediately by `.endElement`.
    case startElement(name: String, attributes: [XMLAttribute])
    /// An end tag, or the implicit end of a self-closing tag.
    case endElement(name: String)
    /// Character data between tags: entities and character references resolved, line ends
    /// normalised to `"\n"` (XML 1.0 §2.11). One event per run of text between markup, however
    /// the input was chunked.
    case text(String)
    /// The content of a CDATA section, verbatim (line ends normalised).
    case cdata(String)
    /// The content of a comment, without `<!--` and `-->`.
    case comment(String)
    /// A processing instruction `<?target data?>` (not the XML declaration). `data` has its leading
    /// white space removed.
    case processingInstruction(target: String, data: String)
}
