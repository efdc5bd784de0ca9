import MyPassXML


/// An XML element the reader does not know, kept so that it is written back in place (KeePass
/// itself drops these; pykeepass and Strongbox keep them).
///
/// Protected values inside it (`Protected="True"`) hold their clear text after reading (the inner
/// random stream was applied in document order) and are masked again when written.
public struct UnknownElement: Equatable, Sendable {
    /// The captured subtree, lossless.
    public var node: XMLElementNode
    /// The name of the known sibling element it followed when read (`nil`: it came first). The
    /// writer emits it right after that element, or at the end of the parent when that element is
    /// not written.
    public var precedingElement: String?

    /// An unknown element that follows the known element `precedingElement`.
    public init(node: XMLElementNode, precedingElement: String?) {
        self.node = node
        self.precedingElement = precedingElement
    }
}
