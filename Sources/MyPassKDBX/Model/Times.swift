/// The time stamps of a group or entry (`<Times>`; KeePass `ITimeLogger`).
public struct Times: Equatable, Sendable {
    /// `CreationTime`.
    public var creation: KDBXTime
    /// `LastModificationTime`.
    public var lastModification: KDBXTime
    /// `LastAccessTime`.
    public var lastAccess: KDBXTime
    /// `ExpiryTime` (meaningful only when ``expires`` is true).
    public var expiry: KDBXTime
    /// `Expires`.
    public var expires: Bool
    /// `UsageCount` (KeePass `ulong`).
    public var usageCount: UInt64
    /// `LocationChanged`: when the object last moved to another group.
    public var locationChanged: KDBXTime
    /// Unknown child elements of `<Times>`, kept in place.
    public var unknownElements: [UnknownElement]

    /// All stamps set to `time`, not expiring, used zero times.
    public init(all time: KDBXTime) {
        creation = time
        lastModification = time
        lastAccess = time
        expiry = time
        expires = false
        usageCount = 0
        locationChanged = time
        unknownElements = []
    }

    /// Times with every field given.
    public init(
        creation: KDBXTime, lastModification: KDBXTime, lastAccess: KDBXTime, expiry: KDBXTime,
        expires: Bool = false, usageCount: UInt64 = 0, locationChanged: KDBXTime
    ) {
        self.creation = creation
        self.lastModification = lastModification
        self.lastAccess = lastAccess
        self.expiry = expiry
        self.expires = expires
        self.usageCount = usageCount
        self.locationChanged = locationChanged
        unknownElements = []
    }

    /// Times for an object created at `now` (what KeePass sets for a new group or entry).
    public static func created(at now: KDBXTime) -> Times { Times(all: now) }
}
