import MyPassKDBX

/// The add/edit model of one entry: a draft the form edits, the group it goes to (always a group
/// of the vault, chosen from ``groupChoices``), and a commit with KeePass's editing semantics.
public struct EntryEditor: Sendable {
    /// Whether the editor creates an entry or changes an existing one.
    public enum Mode: Sendable, Equatable {
        /// A new entry.
        case add
        /// The entry with this UUID.
        case edit(KDBXUUID)
    }

    /// Add or edit.
    public let mode: Mode
    /// The entry as the form shows it; every field, tag, expiry and attachment change goes here.
    public var draft: Entry
    /// Every group of the vault by full path (``GroupPicker/choices(in:)``).
    public let groupChoices: [GroupChoice]
    /// The group the entry will be in.
    public private(set) var groupUUID: KDBXUUID

    /// An editor for a new entry: the five standard fields present and protected as the vault's
    /// memory protection says, the user name preset to the vault's default user name, and the group
    /// from ``GroupPicker/defaultGroup(in:filter:)``.
    public init(adding vault: Vault, filter: GroupFilter) {
        mode = .add
        var entry = Entry()
        for key in Entry.StandardField.all {
            entry.setValue("", for: key, isProtected: vault.meta.memoryProtection.protects(key))
        }
        entry.userName = vault.meta.defaultUserName
        draft = entry
        groupChoices = GroupPicker.choices(in: vault)
        groupUUID = GroupPicker.defaultGroup(in: vault, filter: filter)
    }

    /// An editor for entry `uuid`, in its current group.
    ///
    /// - Throws: ``CoreError/Code/notFound``.
    public init(editing uuid: KDBXUUID, in vault: Vault) throws(CoreError) {
        guard let entry = vault.entry(withUUID: uuid), let parent = vault.root.parentOfEntry(uuid) else {
            throw CoreError(.notFound, "no such entry", location: uuid.hexString)
        }
        mode = .edit(uuid)
        draft = entry
        groupChoices = GroupPicker.choices(in: vault)
        groupUUID = parent.uuid
    }

    /// The chosen group's full path.
    public var groupPath: [String] { groupChoices.first(where: { $0.uuid == groupUUID })?.path ?? [] }

    /// Chooses the group; only groups of ``groupChoices`` are accepted.
    ///
    /// - Throws: ``CoreError/Code/notFound`` for any other UUID (the choice is unchanged).
    public mutating func selectGroup(_ uuid: KDBXUUID) throws(CoreError) {
        guard groupChoices.contains(where: { $0.uuid == uuid }) else {
            throw CoreError(.notFound, "no such group", location: uuid.hexString)
        }
        groupUUID = uuid
    }

    /// Writes the draft into `vault`: a new entry is added to the chosen group; an existing one is
    /// edited (previous state to history, times touched, history trimmed) and moved when the group
    /// changed.
    ///
    /// - Returns: the entry's UUID.
    /// - Throws: ``CoreError/Code/notFound`` when the entry or group has gone from `vault` since.
    @discardableResult
    public func commit(to vault: inout Vault, now: KDBXTime) throws(CoreError) -> KDBXUUID {
        switch mode {
        case .add:
            return try vault.addEntry(draft, to: groupUUID, now: now)
        case .edit(let uuid):
            guard vault.group(withUUID: groupUUID) != nil else {
                throw CoreError(.notFound, "no such group", location: groupUUID.hexString)
            }
            let draft = self.draft
            try vault.editEntry(uuid, now: now) { entry in
                let times = entry.times
                entry = draft
                // The editor may change the expiry; the other stamps are the vault's to keep.
                entry.times = times
                entry.times.expires = draft.times.expires
                entry.times.expiry = draft.times.expiry
            }
            if vault.root.parentOfEntry(uuid)?.uuid != groupUUID {
                try vault.moveEntry(uuid, to: groupUUID, now: now)
            }
            return uuid
        }
    }
}
