import MyPassKDBX

extension Vault {
    /// A new entry as KeePass makes one: the five standard fields present, protected as the vault's
    /// memory protection says, and the user name preset to the vault's default user name. Its
    /// times are set when it is added (``addEntry(_:to:now:)``).
    public func newEntry() -> Entry {
        var entry = Entry(uuid: .random())
        for key in Entry.StandardField.all {
            entry.setValue("", for: key, isProtected: meta.memoryProtection.protects(key))
        }
        entry.setValue(meta.defaultUserName, for: Entry.StandardField.userName)
        return entry
    }

    /// Deletes entry `uuid`: with KeePass's rules (``deleteEntry(_:now:)``: into the recycle bin
    /// when it is enabled), or for good when `permanently`: removed and recorded in
    /// `deletedObjects` with time `now`, wherever it is.
    ///
    /// - Throws: ``CoreError/Code/notFound``.
    @discardableResult
    public mutating func deleteEntry(_ uuid: KDBXUUID, permanently: Bool, now: KDBXTime) throws(CoreError) -> DeletionOutcome {
        guard permanently else { return try deleteEntry(uuid, now: now) }
        guard root.removeEntry(withUUID: uuid) != nil else {
            throw CoreError(.notFound, "no such entry", location: uuid.hexString)
        }
        deletedObjects.append(DeletedObject(uuid: uuid, deletionTime: now))
        return .deletedPermanently
    }

    /// Deletes group `uuid` with its contents: with KeePass's rules (``deleteGroup(_:now:)``), or
    /// for good when `permanently`: the group, its subgroups and every entry in them removed and
    /// recorded in `deletedObjects` with time `now`, wherever it is.
    ///
    /// - Throws: ``CoreError/Code/notFound``; ``CoreError/Code/invalidOperation`` for the root.
    @discardableResult
    public mutating func deleteGroup(_ uuid: KDBXUUID, permanently: Bool, now: KDBXTime) throws(CoreError) -> DeletionOutcome {
        guard permanently else { return try deleteGroup(uuid, now: now) }
        guard uuid != root.uuid else { throw CoreError(.invalidOperation, "the root group cannot be deleted") }
        guard let group = group(withUUID: uuid) else {
            throw CoreError(.notFound, "no such group", location: uuid.hexString)
        }
        removeGroupPermanently(group, now: now)
        return .deletedPermanently
    }

    /// Removes `group` for good, recording a deleted object for each entry and group of its
    /// subtree (KeePass `PwGroup.DeleteAllObjects` order) and for the group itself.
    mutating func removeGroupPermanently(_ group: Group, now: KDBXTime) {
        func record(_ group: Group) {
            for entry in group.entries { deletedObjects.append(DeletedObject(uuid: entry.uuid, deletionTime: now)) }
            for child in group.groups {
                record(child)
                deletedObjects.append(DeletedObject(uuid: child.uuid, deletionTime: now))
            }
        }
        record(group)
        deletedObjects.append(DeletedObject(uuid: group.uuid, deletionTime: now))
        root.removeGroup(withUUID: group.uuid)
        let binUUID = meta.recycleBinUUID
        if !binUUID.isZero && (group.uuid == binUUID || group.group(withUUID: binUUID) != nil) {
            meta.recycleBinUUID = .zero
            meta.recycleBinChanged = now
        }
    }
}
