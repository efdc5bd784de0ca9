/// The vault's `<Meta>`: settings and metadata that are not groups or entries.
///
/// The binary pool of KDBX 3.x (`Meta/Binaries`) and `HeaderHash` are not kept here: pool items are
/// resolved into the entries' ``Attachment``s when reading and rebuilt when writing, and the header
/// hash belongs to one file (see `VaultBody.headerHash`).
public struct Meta: Equatable, Sendable {
    /// `Generator`: the application that wrote the file.
    public var generator: String
    /// `SettingsChanged` (written for KDBX 4 and later).
    public var settingsChanged: KDBXTime?
    /// `DatabaseName`.
    public var databaseName: String
    /// `DatabaseNameChanged`.
    public var databaseNameChanged: KDBXTime
    /// `DatabaseDescription`.
    public var databaseDescription: String
    /// `DatabaseDescriptionChanged`.
    public var databaseDescriptionChanged: KDBXTime
    /// `DefaultUserName`.
    public var defaultUserName: String
    /// `DefaultUserNameChanged`.
    public var defaultUserNameChanged: KDBXTime
    /// `MaintenanceHistoryDays` (default 365).
    public var maintenanceHistoryDays: Int
    /// `Color`: `""` or `#RRGGBB`.
    public var color: String
    /// `MasterKeyChanged`.
    public var masterKeyChanged: KDBXTime
    /// `MasterKeyChangeRec`: days after which a key change is recommended (-1: never).
    public var masterKeyChangeRec: Int64
    /// `MasterKeyChangeForce`: days after which a key change is forced (-1: never).
    public var masterKeyChangeForce: Int64
    /// `MasterKeyChangeForceOnce` (written only when true).
    public var masterKeyChangeForceOnce: Bool
    /// `MemoryProtection`.
    public var memoryProtection: MemoryProtection
    /// `CustomIcons`, in stored order.
    public var customIcons: [CustomIcon]
    /// `RecycleBinEnabled` (default true).
    public var recycleBinEnabled: Bool
    /// `RecycleBinUUID` (all-zero when there is no recycle bin group yet).
    public var recycleBinUUID: KDBXUUID
    /// `RecycleBinChanged`.
    public var recycleBinChanged: KDBXTime
    /// `EntryTemplatesGroup` (all-zero: none).
    public var entryTemplatesGroup: KDBXUUID
    /// `EntryTemplatesGroupChanged`.
    public var entryTemplatesGroupChanged: KDBXTime
    /// `HistoryMaxItems` (-1: no limit; default 10).
    public var historyMaxItems: Int
    /// `HistoryMaxSize` in bytes (-1: no limit; default 6 MiB).
    public var historyMaxSize: Int64
    /// `LastSelectedGroup`.
    public var lastSelectedGroup: KDBXUUID
    /// `LastTopVisibleGroup`.
    public var lastTopVisibleGroup: KDBXUUID
    /// `CustomData` items, with their 4.1 modification times.
    public var customData: [CustomDataItem]
    /// Unknown child elements of `<Meta>`, kept in place.
    public var unknownElements: [UnknownElement]

    /// The `Generator` a KDBX file written by this library carries: `MyPass`.
    public static let writerName = "MyPass"

    /// KeePass's defaults for a new vault, every time stamp set to `time`.
    public init(time: KDBXTime = .minimum) {
        generator = Meta.writerName
        settingsChanged = time
        databaseName = ""
        databaseNameChanged = time
        databaseDescription = ""
        databaseDescriptionChanged = time
        defaultUserName = ""
        defaultUserNameChanged = time
        maintenanceHistoryDays = 365
        color = ""
        masterKeyChanged = time
        masterKeyChangeRec = -1
        masterKeyChangeForce = -1
        masterKeyChangeForceOnce = false
        memoryProtection = MemoryProtection()
        customIcons = []
        recycleBinEnabled = true
        recycleBinUUID = .zero
        recycleBinChanged = time
        entryTemplatesGroup = .zero
        entryTemplatesGroupChanged = time
        historyMaxItems = 10
        historyMaxSize = 6 * 1024 * 1024
        lastSelectedGroup = .zero
        lastTopVisibleGroup = .zero
        customData = []
        unknownElements = []
    }

    /// The custom icon with `uuid`, or `nil`.
    public func customIcon(withUUID uuid: KDBXUUID) -> CustomIcon? {
        customIcons.first(where: { $0.uuid == uuid })
    }
}

/// `Meta/MemoryProtection`: which standard fields new values of are protected by default.
public struct MemoryProtection: Equatable, Sendable {
    /// `ProtectTitle` (default false).
    public var protectTitle: Bool
    /// `ProtectUserName` (default false).
    public var protectUserName: Bool
    /// `ProtectPassword` (default true).
    public var protectPassword: Bool
    /// `ProtectURL` (default false).
    public var protectURL: Bool
    /// `ProtectNotes` (default false).
    public var protectNotes: Bool
    /// Unknown child elements, kept in place.
    public var unknownElements: [UnknownElement]

    /// KeePass's defaults: only the password is protected.
    public init(protectTitle: Bool = false, protectUserName: Bool = false, protectPassword: Bool = true,
                protectURL: Bool = false, protectNotes: Bool = false) {
        self.protectTitle = protectTitle
        self.protectUserName = protectUserName
        self.protectPassword = protectPassword
        self.protectURL = protectURL
        self.protectNotes = protectNotes
        unknownElements = []
    }

    /// Whether new values of the standard field `key` are protected by default (false for custom
    /// field names).
    public func protects(_ key: String) -> Bool {
        switch key {
        case Entry.StandardField.title: return protectTitle
        case Entry.StandardField.userName: return protectUserName
        case Entry.StandardField.password: return protectPassword
        case Entry.StandardField.url: return protectURL
        case Entry.StandardField.notes: return protectNotes
        default: return false
        }
    }
}
