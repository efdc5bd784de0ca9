import MyPassKDBX

/// What ``VaultMerge/merge(local:remote:)`` returns: the merged vault and what changed in the local
/// vault to make it.
public struct MergeResult: Sendable {
    /// The merged vault: the local vault's format and key settings, with the remote changes merged in.
    public var vault: Vault
    /// The changes relative to the local vault, in order: groups, then entries added, moved or
    /// updated (pre-order of the merged tree), then deleted groups and entries (pre-order of the
    /// local tree), then conflicts, then meta settings and custom icons.
    public var changes: [MergeChange]

    /// A result from its parts.
    public init(vault: Vault, changes: [MergeChange]) {
        self.vault = vault
        self.changes = changes
    }

    /// Whether the merge changed the local vault's data (any change in the log). When false,
    /// ``vault`` can still differ from the local vault in last access times, usage counts, the order
    /// of fields and tags, or one client's bookkeeping (KeePassXC's `_LAST_MODIFIED`) taken from the
    /// remote side, which a caller need not save for.
    public var changedLocal: Bool { !changes.isEmpty }
}

/// One line of the merge's change log. Never carries a secret: a path of group names and a title, a
/// UUID and a fixed note.
public struct MergeChange: Equatable, Sendable, CustomStringConvertible {
    /// What happened.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// The object came from the remote vault only.
        case added
        /// The remote state was newer or as new (or the histories merged, or a history was trimmed):
        /// the object's content changed.
        case updated
        /// The object is in another group (the side with the newer `LocationChanged` decided).
        case moved
        /// A deleted-object record of either side removed the object.
        case deleted
        /// Both sides changed the object in the same second with different content: the remote
        /// state was taken, as KeePass takes it; for an entry, the local state went into its history.
        case conflict
    }

    /// What kind of object the change concerns.
    public enum Object: String, Sendable, Equatable {
        /// An entry (``MergeChange/uuid`` is its UUID).
        case entry
        /// A group.
        case group
        /// A setting of `Meta` (``MergeChange/note`` names it).
        case meta
        /// A custom icon of `Meta/CustomIcons`.
        case customIcon
    }

    /// What happened.
    public var kind: Kind
    /// To what kind of object.
    public var object: Object
    /// The object's UUID (`nil` for a meta setting).
    public var uuid: KDBXUUID?
    /// For an entry, its group path and title (`["Work", "GitHub"]`); for a group, its path; for a
    /// meta setting, `[]`. Deleted objects show their path in the local vault, others their path in
    /// the merged vault.
    public var path: [String]
    /// A short fixed explanation (`"databaseName"`, `"history merged"`), never a value.
    public var note: String

    /// A change from its parts.
    public init(kind: Kind, object: Object, uuid: KDBXUUID?, path: [String], note: String = "") {
        self.kind = kind
        self.object = object
        self.uuid = uuid
        self.path = path
        self.note = note
    }

    /// `kind object path [uuid] (note)`, one line.
    public var description: String {
        var text = kind.rawValue + " " + object.rawValue
        if !path.isEmpty { text += " " + path.joined(separator: "/") }
        if let uuid { text += " [" + uuid.hexString + "]" }
        if !note.isEmpty { text += " (" + note + ")" }
        return text
    }
}
