import MyPassBytes
import MyPassKDBX

/// A set of changes to one entry, as a form or a command line gives them, with KeePass's rules
/// for applying them (``apply(to:memoryProtection:)``). `nil` members change nothing.
public struct EntryPatch: Sendable {
    /// A change of one string field by name.
    public struct FieldChange: Sendable, Equatable {
        /// The field name (a standard one such as `UserName`, or a custom one).
        public var name: String
        /// The new value; empty removes a custom field (a standard field becomes empty).
        public var value: String

        /// A field change from its parts.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// A change of one protected field by name: stored protected whatever the vault's settings.
    public struct ProtectedFieldChange: Sendable {
        /// The field name.
        public var name: String
        /// The new value.
        public var value: ProtectedString

        /// A protected field change from its parts.
        public init(name: String, value: ProtectedString) {
            self.name = name
            self.value = value
        }
    }

    /// A new title.
    public var title: String?
    /// A new user name.
    public var userName: String?
    /// A new URL.
    public var url: String?
    /// New notes.
    public var notes: String?
    /// A new password (kept protected, as KeePass protects passwords by default).
    public var password: ProtectedString?
    /// A new tag list (replacing the old one).
    public var tags: [String]?
    /// `.some(nil)`: never expires; `.some(time)`: expires then.
    public var expiry: KDBXTime??
    /// Field changes, applied in order after the members above.
    public var fields: [FieldChange]
    /// Protected field changes, applied after ``fields``.
    public var protectedFields: [ProtectedFieldChange]
    /// Attachments to add (replacing one with the same name).
    public var attachments: [Attachment]

    /// A patch that changes nothing yet.
    public init() {
        fields = []
        protectedFields = []
        attachments = []
    }

    /// True when the patch would change nothing.
    public var isEmpty: Bool {
        title == nil && userName == nil && url == nil && notes == nil && password == nil && tags == nil && expiry == nil
            && fields.isEmpty && protectedFields.isEmpty && attachments.isEmpty
    }

    /// Applies the patch: the named members, then field changes (an existing field keeps its
    /// protection; a new one is protected as `memoryProtection` says for its name; an empty value
    /// removes a custom field), protected fields, the password, attachments.
    public func apply(to entry: inout Entry, memoryProtection: MemoryProtection) {
        if let title { entry.title = title }
        if let userName { entry.setValue(userName, for: Entry.StandardField.userName) }
        if let url { entry.url = url }
        if let notes { entry.notes = notes }
        if let tags { entry.setTags(tags) }
        if let expiry { entry.setExpiry(expiry) }
        for change in fields {
            if change.value.isEmpty && !Entry.StandardField.all.contains(change.name) {
                entry.removeField(named: change.name)
            } else if entry.field(named: change.name) != nil {
                entry.setValue(change.value, for: change.name)
            } else {
                entry.setValue(change.value, for: change.name, isProtected: memoryProtection.protects(change.name))
            }
        }
        for change in protectedFields { entry.setProtectedValue(change.value, for: change.name) }
        if let password { entry.password = password }
        for attachment in attachments { entry.setAttachment(attachment) }
    }
}

extension Vault {
    /// Adds a new entry titled `title` to group `groupUUID`: KeePass's defaults for a new entry
    /// (``newEntry()``), then `patch`, then ``addEntry(_:to:now:)`` (times stamped `now`, the
    /// patch's expiry kept). The title the entry ends with (a `Title` field change counts) must
    /// follow ``checkTitle(_:in:excluding:)``, as keepassxc-cli refuses to add an existing path.
    ///
    /// - Returns: the new entry's UUID.
    /// - Throws: ``CoreError/Code/notFound`` when the group does not exist;
    ///   ``CoreError/Code/invalidOperation`` when the title is empty or taken in the group.
    @discardableResult
    public mutating func addEntry(titled title: String, to groupUUID: KDBXUUID, applying patch: EntryPatch,
                                  now: KDBXTime) throws(CoreError) -> KDBXUUID {
        var entry = newEntry()
        entry.title = title
        patch.apply(to: &entry, memoryProtection: meta.memoryProtection)
        try checkTitle(entry.title, in: groupUUID, excluding: nil)
        return try addEntry(entry, to: groupUUID, now: now)
    }

    /// Checks that `title` can name an entry of group `groupUUID` without making a path that
    /// names two entries: it is not empty and no other entry of the group (`excluding` the one
    /// being edited) has it. Case counts, as in path resolution.
    ///
    /// - Throws: ``CoreError/Code/notFound`` when the group does not exist;
    ///   ``CoreError/Code/invalidOperation`` (the reason names the path and the UUID holding it).
    public func checkTitle(_ title: String, in groupUUID: KDBXUUID, excluding: KDBXUUID?) throws(CoreError) {
        guard let located = locatedGroups.first(where: { $0.group.uuid == groupUUID }) else {
            throw CoreError(.notFound, "no such group", location: groupUUID.hexString)
        }
        guard !title.isEmpty else { throw CoreError(.invalidOperation, "an entry's title cannot be empty") }
        if let taken = located.group.entries.first(where: { $0.title == title && $0.uuid != excluding }) {
            throw CoreError(.invalidOperation,
                            "an entry '\(Vault.displayPath(located.path + [title]))' already exists (\(taken.uuid.hexString))")
        }
    }

    /// Applies `patch` to entry `uuid` with ``editEntry(_:now:_:)``'s KeePass semantics (history,
    /// times, trimming). A title change (by `title` or a `Title` field change) must follow
    /// ``checkTitle(_:in:excluding:)``: renaming onto a sibling's title is refused; an entry that
    /// already shares its title with a sibling can still be edited otherwise.
    ///
    /// - Returns: whether the entry changed.
    /// - Throws: ``CoreError/Code/notFound``; ``CoreError/Code/invalidOperation`` for a refused title.
    @discardableResult
    public mutating func editEntry(_ uuid: KDBXUUID, applying patch: EntryPatch, now: KDBXTime) throws(CoreError) -> Bool {
        let protection = meta.memoryProtection
        guard let before = locatedEntry(withUUID: uuid) else {
            throw CoreError(.notFound, "no such entry", location: uuid.hexString)
        }
        var after = before.entry
        patch.apply(to: &after, memoryProtection: protection)
        if after.title != before.entry.title { try checkTitle(after.title, in: before.groupUUID, excluding: uuid) }
        return try editEntry(uuid, now: now) { patch.apply(to: &$0, memoryProtection: protection) }
    }
}
