import MyPassXML


/// An XML element or comment the reader does not know, kept so that it is written back in place
/// (KeePass itself drops these; pykeepass and Strongbox keep them).
///
/// Protected values inside it (`Protected="True"`) hold their clear text after reading (the inner
/// random stream was applied in document order) and are masked again when written.
public struct UnknownElement: Equatable, Sendable {
    /// The captured subtree, lossless (an empty element named `""` for a comment).
    public var node: XMLElementNode
    /// The text of a comment (`<!--text-->`) found among known elements; `nil` for an element.
    public var comment: String?
    /// The name of the known sibling element it followed when read (`nil`: it came first). The
    /// writer emits it right after that element, or at the end of the parent when that element is
    /// not written.
    public var precedingElement: String?
    /// Which run of consecutive `precedingElement` siblings it followed: 1 after the first
    /// `<String>` of an entry, 2 after the second, and so on (repeated elements are consecutive in
    /// KDBX), so it goes back after the same one.
    public var precedingOccurrence: Int = 1
    /// The container without a model object of its own that held it, inside the owner's element:
    /// `History` (entry), `CustomData` (meta, group, entry), `CustomIcons` and `Binaries` (meta),
    /// `DeletedObjects` (kept with the root's unknown elements); `nil` when it was a direct child of
    /// the owner's element.
    public var container: String?
    /// When set, this item writes nothing itself: it carries the attributes the reader did not
    /// know (in ``node``'s attributes) of the known element so named (`""`: the owner's own
    /// element, or the ``container`` element), its ``precedingOccurrence``-th in a row. The writer
    /// puts them after the attributes it writes itself.
    public var attributesFor: String?

    /// An unknown element that follows the known element `precedingElement`.
    public init(node: XMLElementNode, precedingElement: String?, container: String? = nil) {
        self.node = node
        self.comment = nil
        self.precedingElement = precedingElement
        self.container = container
    }

    /// Unknown attributes of the known element `element` (`""`: the owner's own element), its
    /// `occurrence`-th in a row.
    public init(attributes: [XMLAttribute], of element: String, occurrence: Int = 1, container: String? = nil) {
        self.node = XMLElementNode(name: "", attributes: attributes)
        self.comment = nil
        self.precedingElement = nil
        self.precedingOccurrence = occurrence
        self.container = container
        self.attributesFor = element
    }

    /// A comment that follows the known element `precedingElement`.
    public init(comment: String, precedingElement: String?, container: String? = nil) {
        self.node = XMLElementNode(name: "")
        self.comment = comment
        self.precedingElement = precedingElement
        self.container = container
    }
}

extension Array where Element == UnknownElement {
    /// The items that were direct children of the container `container` (`nil`: of the owner's element).
    public func inContainer(_ container: String?) -> [UnknownElement] {
        filter { $0.container == container }
    }
}
