/// One attribute of a start tag: its name and its value after entity resolution and XML 1.0
/// attribute-value normalisation (XML 1.0 §3.3.3: each literal white space character becomes a space).
public struct XMLAttribute: Equatable, Sendable {
    /// The attribute's qualified name as written (prefixes are not resolved).
    public var name: String
    /// The attribute's value (entities and character references resolved).
    public var value: String

    /// Creates an attribute.
    /// - Parameters:
    ///   - name: the name as it appears in the tag.
    ///   - value: the value, unescaped.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}
