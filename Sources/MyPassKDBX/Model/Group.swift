/// A group (`<Group>`): a folder of entries and subgroups.
public struct Group: Equatable, Sendable, Identifiable {
    /// `UUID`.
    public var uuid: KDBXUUID
    /// `Name`.
    public var name: String
    /// `Notes`.
    public var notes: String
    /// `IconID`: a KeePass standard icon index (0-68; 48 is a folder, 49 an open folder).
    public var iconID: Int
    /// `CustomIconUUID`, or `nil`.
    public var customIconUUID: KDBXUUID?
    /// `Times`.
    public var times: Times
    /// `IsExpanded` (default true).
    public var isExpanded: Bool
    /// `DefaultAutoTypeSequence` (empty: inherit).
    public var defaultAutoTypeSequence: String
    /// `EnableAutoType`: `nil` inherits from the parent (written as `null`).
    public var enableAutoType: Bool?
    /// `EnableSearching`: `nil` inherits from the parent (written as `null`).
    public var enableSearching: Bool?
    /// `LastTopVisibleEntry` (all-zero when none).
    public var lastTopVisibleEntry: KDBXUUID
    /// `PreviousParentGroup` (KDBX 4.1), or `nil`.
    public var previousParentGroup: KDBXUUID?
    /// `Tags` (KDBX 4.1; a non-empty list needs 4.1).
    public var tags: [String]
    /// The separator the file's `Tags` used (see ``Entry/tagSeparator``).
    public var tagSeparator: Character = ";"
    /// `CustomData` items (KDBX 4).
    public var customData: [CustomDataItem]
    /// The entries, in stored order.
    public var entries: [Entry]
    /// The subgroups, in stored order.
    public var groups: [Group]
    /// Unknown child elements, kept in place.
    public var unknownElements: [UnknownElement]

    /// The group UUID (`Identifiable`).
    public var id: KDBXUUID { uuid }

    /// A group with KeePass's defaults for a new one.
    public init(uuid: KDBXUUID = .random(), name: String, iconID: Int = 48, times: Times = Times(all: .minimum)) {
        self.uuid = uuid
        self.name = name
        notes = ""
        self.iconID = iconID
        customIconUUID = nil
        self.times = times
        isExpanded = true
        defaultAutoTypeSequence = ""
        enableAutoType = nil
        enableSearching = nil
        lastTopVisibleEntry = .zero
        previousParentGroup = nil
        tags = []
        customData = []
        entries = []
        groups = []
        unknownElements = []
    }
}
