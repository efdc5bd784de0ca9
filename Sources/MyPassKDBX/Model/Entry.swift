/// An entry (`<Entry>`): string fields, attachments, auto-type, history and the rest of what
/// KeePass stores for one credential.
public struct Entry: Equatable, Sendable, Identifiable {
    /// `UUID`.
    public var uuid: KDBXUUID
    /// `IconID`: a KeePass standard icon index (0-68).
    public var iconID: Int
    /// `CustomIconUUID`: a ``CustomIcon`` of ``Meta/customIcons``, or `nil`.
    public var customIconUUID: KDBXUUID?
    /// `ForegroundColor`: `""` or `#RRGGBB`.
    public var foregroundColor: String
    /// `BackgroundColor`: `""` or `#RRGGBB`.
    public var backgroundColor: String
    /// `OverrideURL` (empty: none).
    public var overrideURL: String
    /// `QualityCheck` (KDBX 4.1): whether the password quality is shown/checked. Default true; false
    /// needs KDBX 4.1.
    public var qualityCheck: Bool
    /// `Tags`, in stored order (written joined with ``tagSeparator``).
    public var tags: [String]
    /// The separator `Tags` is written with: KeePass's `;` by default, or the one the file used
    /// (`,` or `;`; for fewer than two tags, the one seen earlier in the file).
    public var tagSeparator: Character = ";"
    /// `PreviousParentGroup` (KDBX 4.1): the group the entry was in before its last move.
    public var previousParentGroup: KDBXUUID?
    /// `Times`.
    public var times: Times
    /// The `String` fields in stored order, including the standard ones.
    public var fields: [EntryField]
    /// The attachments (`Binary`), in stored order, each owning its content.
    public var attachments: [Attachment]
    /// `AutoType`.
    public var autoType: AutoType
    /// `CustomData` items (KDBX 4).
    public var customData: [CustomDataItem]
    /// `History`: earlier versions of this entry, oldest first. History items have no history.
    public var history: [Entry]
    /// Unknown child elements, kept in place.
    public var unknownElements: [UnknownElement]

    /// The entry UUID (`Identifiable`).
    public var id: KDBXUUID { uuid }

    /// An entry with KeePass's defaults for a new one, and the five standard fields empty
    /// (Password and UserName follow KeePass's default memory protection: Password protected).
    public init(uuid: KDBXUUID = .random(), times: Times = Times(all: .minimum)) {
        self.uuid = uuid
        iconID = 0
        customIconUUID = nil
        foregroundColor = ""
        backgroundColor = ""
        overrideURL = ""
        qualityCheck = true
        tags = []
        previousParentGroup = nil
        self.times = times
        fields = []
        attachments = []
        autoType = AutoType()
        customData = []
        history = []
        unknownElements = []
    }
}
