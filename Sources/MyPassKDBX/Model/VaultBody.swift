/// What the XML body of a KDBX file holds (everything but the outer format), as
/// ``VaultXMLReader`` returns it.
package struct VaultBody: Equatable, Sendable {
    /// `Meta`.
    public var meta: Meta
    /// The root group.
    public var root: Group
    /// `Root/DeletedObjects`.
    public var deletedObjects: [DeletedObject]
    /// KDBX 3.x `Meta/HeaderHash`: the SHA-256 of the outer header bytes (32 bytes) as stored, for
    /// the container to verify; `nil` when absent.
    public var headerHash: [UInt8]?
    /// Unknown child elements of `<KeePassFile>`.
    public var unknownElements: [UnknownElement]
    /// Unknown child elements of `<Root>`.
    public var rootUnknownElements: [UnknownElement]

    /// A body from its parts.
    public init(meta: Meta, root: Group, deletedObjects: [DeletedObject], headerHash: [UInt8]?,
                unknownElements: [UnknownElement] = [], rootUnknownElements: [UnknownElement] = []) {
        self.meta = meta
        self.root = root
        self.deletedObjects = deletedObjects
        self.headerHash = headerHash
        self.unknownElements = unknownElements
        self.rootUnknownElements = rootUnknownElements
    }
}
