/// Resource limits of `XMLTokenizer`. Each is checked while input arrives, so a hostile document
/// fails early and the tokenizer's memory stays bounded by roughly the largest allowed token.
public struct XMLLimits: Sendable, Equatable {
    /// Maximum element nesting depth (the root element is depth 1). Exceeding it throws `.depthLimitExceeded`.
    public var maxDepth: Int
    /// Maximum length of an element, attribute or processing-instruction target name, in UTF-8 bytes (`.nameTooLong`).
    public var maxNameBytes: Int
    /// Maximum number of attributes on one start tag (`.tooManyAttributes`).
    public var maxAttributes: Int
    /// Maximum size of one value in UTF-8 bytes as written in the document (before entity
    /// resolution): a run of text, an attribute value, a CDATA section, a comment or a
    /// processing instruction (`.valueTooLarge`).
    public var maxValueBytes: Int
    /// Maximum size of the whole document in bytes, as fed (`.documentTooLarge`).
    public var maxDocumentBytes: Int

    /// Creates limits; the defaults suit KeePass databases (values up to 512 MiB for large attachments).
    public init(
        maxDepth: Int = 256, maxNameBytes: Int = 1024, maxAttributes: Int = 256,
        maxValueBytes: Int = 512 << 20, maxDocumentBytes: Int = .max
    ) {
        self.maxDepth = maxDepth
        self.maxNameBytes = maxNameBytes
        self.maxAttributes = maxAttributes
        self.maxValueBytes = maxValueBytes
        self.maxDocumentBytes = maxDocumentBytes
    }
}
