/// Collects the events of one element's subtree into an `XMLElementNode`, resumably: events can be
/// added one by one (`add(_:)`) or pulled from a tokenizer (`read(from:)`) across several feeds.
///
/// Typical use in a push-style reader: on an unknown `.startElement`, create a builder with its
/// name and attributes; route every following event to `add(_:)` until it returns the finished
/// node. The tokenizer has already checked well-formedness, so the builder only tracks nesting.
public struct XMLNodeBuilder: Sendable {
    /// Open elements, innermost last; the first is the subtree's root.
    var open: [XMLElementNode]
    var finished: XMLElementNode?

    /// Starts a subtree at the start tag `startName` with `attributes`.
    public init(startName: String, attributes: [XMLAttribute]) {
        open = [XMLElementNode(name: startName, attributes: attributes)]
    }

    /// Whether the subtree's end tag was seen.
    public var isComplete: Bool { finished != nil }

    /// Adds the next event of the subtree.
    /// - Returns: the complete subtree when `event` is the end tag of its root, otherwise `nil`.
    ///   Events after completion are ignored (and return the finished node again).
    @discardableResult
    public mutating func add(_ event: XMLEvent) -> XMLElementNode? {
        if let finished { return finished }
        switch event {
        case .startElement(let name, let attributes):
            open.append(XMLElementNode(name: name, attributes: attributes))
        case .endElement:
            let node = open.removeLast()
            if open.isEmpty {
                finished = node
                return node
            }
            open[open.count - 1].children.append(.element(node))
        case .text(let text):
            open[open.count - 1].children.append(.text(text))
        case .cdata(let text):
            open[open.count - 1].children.append(.cdata(text))
        case .comment(let text):
            open[open.count - 1].children.append(.comment(text))
        case .processingInstruction(let target, let data):
            open[open.count - 1].children.append(.processingInstruction(target: target, data: data))
        }
        return nil
    }

    /// Pulls events from `tokenizer` until the subtree is complete or the tokenizer needs more input.
    /// - Returns: the subtree, or `nil` when `next()` returned `nil` first (feed more, then call again).
    /// - Throws: the tokenizer's errors.
    public mutating func read(from tokenizer: inout XMLTokenizer) throws(XMLError) -> XMLElementNode? {
        if let finished { return finished }
        while let event = try tokenizer.next() {
            if let node = add(event) { return node }
        }
        return nil
    }
}
