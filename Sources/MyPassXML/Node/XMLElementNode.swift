/// An element kept whole, for elements the KDBX reader does not understand: written back by
/// `XMLWriter.writeNode(_:)` with the same meaning (same names, attributes, text, order).
public struct XMLElementNode: Equatable, Sendable {
    /// The element name.
    public var name: String
    /// The attributes in document order.
    public var attributes: [XMLAttribute]
    /// The child nodes in document order.
    public var children: [XMLNode]

    /// Creates a node.
    public init(name: String, attributes: [XMLAttribute] = [], children: [XMLNode] = []) {
        self.name = name
        self.attributes = attributes
        self.children = children
    }

    /// Reads the rest of a subtree whose start tag was just returned by `tokenizer`, pulling events
    /// up to and including the matching end tag.
    ///
    /// This needs the whole subtree to be available: call it after the tokenizer was fed the
    /// complete document (or at least up to the subtree's end tag). With incremental feeding, where
    /// `next()` may return `nil` in the middle, use `XMLNodeBuilder`, which can resume.
    /// - Parameters:
    ///   - startName: the name from the `.startElement` event just returned.
    ///   - attributes: its attributes.
    ///   - tokenizer: the tokenizer positioned right after that start event.
    /// - Returns: the element with all its descendants; `tokenizer` is positioned after its end tag.
    /// - Throws: the tokenizer's errors, or `.unexpectedEndOfInput` when `next()` returns `nil`
    ///   before the subtree ends.
    public static func read(
        startName: String, attributes: [XMLAttribute], from tokenizer: inout XMLTokenizer
    ) throws(XMLError) -> XMLElementNode {
        var builder = XMLNodeBuilder(startName: startName, attributes: attributes)
        if let node = try builder.read(from: &tokenizer) { return node }
        throw XMLError(
            .unexpectedEndOfInput, line: tokenizer.line, column: tokenizer.column,
            "input ended inside <\(startName)>; feed more input or use XMLNodeBuilder")
    }
}

/// One node of a captured subtree.
public indirect enum XMLNode: Equatable, Sendable {
    case element(XMLElementNode)
    case text(String)
    case cdata(String)
    case comment(String)
    case processingInstruction(target: String, data: String)
}
