/// A `<DeletedObject>`: the UUID of a group or entry that was deleted, and when, so that
/// synchronisation does not bring it back.
public struct DeletedObject: Equatable, Sendable {
    /// `UUID`.
    public var uuid: KDBXUUID
    /// `DeletionTime`.
    public var deletionTime: KDBXTime
    /// Unknown child elements and comments, kept in place.
    public var unknownElements: [UnknownElement] = []

    /// A deleted object record.
    public init(uuid: KDBXUUID, deletionTime: KDBXTime) {
        self.uuid = uuid
        self.deletionTime = deletionTime
    }
}
