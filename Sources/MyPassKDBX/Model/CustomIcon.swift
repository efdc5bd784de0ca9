/// A custom icon from `Meta/CustomIcons/Icon`: an image (PNG as KeePass stores it) referred to by
/// groups and entries through its UUID.
public struct CustomIcon: Equatable, Sendable {
    /// `UUID`.
    public var uuid: KDBXUUID
    /// `Data`: the image bytes (base64 in the XML).
    public var data: [UInt8]
    /// `Name` (KDBX 4.1; empty when unset).
    public var name: String
    /// `LastModificationTime` (KDBX 4.1).
    public var lastModification: KDBXTime?
    /// Unknown child elements and comments, kept in place.
    public var unknownElements: [UnknownElement] = []

    /// An icon; `name` and `lastModification` are KDBX 4.1 fields.
    public init(uuid: KDBXUUID, data: [UInt8], name: String = "", lastModification: KDBXTime? = nil) {
        self.uuid = uuid
        self.data = data
        self.name = name
        self.lastModification = lastModification
    }
}
