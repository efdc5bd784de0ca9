// TEMPORARY: the MyPassXML node types from CONTRACTS.md, declared here only until the `xml` branch
// lands; this file is deleted when it is merged (the real types then come from MyPassXML).

/// (Temporary stand-in, see CONTRACTS.md) one attribute of a start tag.
public struct XMLAttribute: Equatable, Sendable {
    public var name: String
    public var value: String
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// (Temporary stand-in, see CONTRACTS.md) a lossless XML element subtree.
public struct XMLElementNode: Equatable, Sendable {
    public var name: String
    public var attributes: [XMLAttribute]
    public var children: [XMLNode]
    public init(name: String, attributes: [XMLAttribute] = [], children: [XMLNode] = []) {
        self.name = name
        self.attributes = attributes
        self.children = children
    }
}

/// (Temporary stand-in, see CONTRACTS.md) a node of a captured subtree.
public indirect enum XMLNode: Equatable, Sendable {
    case element(XMLElementNode)
    case text(String)
    case cdata(String)
    case comment(String)
    case processingInstruction(target: String, data: String)
}
