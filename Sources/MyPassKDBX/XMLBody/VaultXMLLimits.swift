import MyPassXML

/// Limits the XML body reader enforces so that no document makes it allocate without bound or
/// recurse without end. Exceeding one throws ``KDBXError`` `.limitExceeded`.
public struct VaultXMLLimits: Sendable {
    /// Tokenizer limits (element depth 256, names, attributes, value and document sizes).
    public var xml: XMLLimits
    /// Deepest group nesting below the root group (the root is depth 0).
    public var maxGroupDepth: Int
    /// Most groups in the whole tree.
    public var maxGroups: Int
    /// Most entries in the whole vault, history items included.
    public var maxEntries: Int
    /// Most string fields in one entry.
    public var maxFieldsPerEntry: Int
    /// Most attachments in one entry.
    public var maxAttachmentsPerEntry: Int
    /// Most history items of one entry.
    public var maxHistoryItemsPerEntry: Int
    /// Largest decoded attachment or pool binary, in bytes; also the most bytes that all the
    /// document's gzip-compressed binaries (KDBX 3.x `Compressed="True"`) may inflate to together.
    public var maxBinaryBytes: Int

    /// Limits far above what a real vault holds (KeePass has no limits; a 1 GiB attachment or a
    /// million entries still open).
    public init(
        xml: XMLLimits = XMLLimits(), maxGroupDepth: Int = 200, maxGroups: Int = 1_000_000,
        maxEntries: Int = 10_000_000, maxFieldsPerEntry: Int = 100_000, maxAttachmentsPerEntry: Int = 100_000,
        maxHistoryItemsPerEntry: Int = 100_000, maxBinaryBytes: Int = 1 << 30
    ) {
        self.xml = xml
        self.maxGroupDepth = maxGroupDepth
        self.maxGroups = maxGroups
        self.maxEntries = maxEntries
        self.maxFieldsPerEntry = maxFieldsPerEntry
        self.maxAttachmentsPerEntry = maxAttachmentsPerEntry
        self.maxHistoryItemsPerEntry = maxHistoryItemsPerEntry
        self.maxBinaryBytes = maxBinaryBytes
    }
}
