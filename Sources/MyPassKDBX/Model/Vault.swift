/// A whole vault: how it is stored (``format``) and what it holds (meta, the group tree, deleted
/// objects), as a value.
///
/// `KDBXCodec.open` fills it and `KDBXCodec.save` writes it; attachments are owned by the entries, so
/// there is no binary pool to maintain while editing.
public struct Vault: Equatable, Sendable {
    /// How the vault is stored: version, cipher, KDF, compression, inner stream.
    public var format: VaultFormat
    /// `Meta`.
    public var meta: Meta
    /// The root group (`Root/Group`).
    public var root: Group
    /// `Root/DeletedObjects`, in stored order.
    public var deletedObjects: [DeletedObject]
    /// Unknown child elements of `<KeePassFile>`, kept in place.
    public var unknownElements: [UnknownElement]
    /// Unknown child elements of `<Root>`, kept in place.
    public var rootUnknownElements: [UnknownElement]

    /// A vault from its parts.
    public init(format: VaultFormat = VaultFormat(), meta: Meta = Meta(), root: Group,
                deletedObjects: [DeletedObject] = []) {
        self.format = format
        self.meta = meta
        self.root = root
        self.deletedObjects = deletedObjects
        unknownElements = []
        rootUnknownElements = []
    }

    /// A vault from the decoded XML body and the outer format.
    package init(format: VaultFormat, body: VaultBody) {
        self.format = format
        meta = body.meta
        root = body.root
        deletedObjects = body.deletedObjects
        unknownElements = body.unknownElements
        rootUnknownElements = body.rootUnknownElements
    }

    /// The XML body part of this vault (everything but the format).
    package var body: VaultBody {
        VaultBody(meta: meta, root: root, deletedObjects: deletedObjects, headerHash: nil,
                  unknownElements: unknownElements, rootUnknownElements: rootUnknownElements)
    }

    /// A new empty vault as KeePass creates one: a root group named `name` (icon 49), default meta
    /// with every time stamp `now`, and the given format.
    public static func new(name: String, now: KDBXTime, format: VaultFormat = VaultFormat()) -> Vault {
        var meta = Meta(time: now)
        meta.databaseName = name
        var root = Group(name: name, iconID: 49, times: Times(all: now))
        root.isExpanded = true
        return Vault(format: format, meta: meta, root: root)
    }
}

extension Vault {
    /// The group with `uuid` anywhere in the tree, or `nil`.
    public func group(withUUID uuid: KDBXUUID) -> Group? { root.group(withUUID: uuid) }

    /// The current entry with `uuid` anywhere in the tree (not history), or `nil`.
    public func entry(withUUID uuid: KDBXUUID) -> Entry? { root.entry(withUUID: uuid) }

    /// Every group, pre-order from the root (the vault manifest's `groups` order).
    public var allGroups: [Group] { root.allGroups }

    /// Every current entry, group by group in pre-order (the vault manifest's `entries` order).
    public var allEntries: [Entry] { root.allEntries }

    /// The names from below the root down to group `uuid` (`[]` for the root), or `nil`.
    public func path(ofGroup uuid: KDBXUUID) -> [String]? {
        root.groupChain(to: uuid).map { $0.dropFirst().map { $0.name } }
    }

    /// The recycle bin group, when enabled and present.
    public var recycleBin: Group? {
        guard meta.recycleBinEnabled, !meta.recycleBinUUID.isZero else { return nil }
        return root.group(withUUID: meta.recycleBinUUID)
    }
}
