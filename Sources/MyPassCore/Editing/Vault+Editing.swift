import MyPassKDBX

/// What an edit body of ``Vault/editEntry(_:now:_:)`` and ``Vault/editGroup(_:now:_:)`` may
/// throw: any error in the package build (errors other than ``CoreError`` come wrapped as
/// ``CoreError/Code/invalidOperation``), ``CoreError`` in Embedded Swift, which has no untyped throws.
#if hasFeature(Embedded)
public typealias EditFailure = CoreError
#else
public typealias EditFailure = any Error
#endif

/// What a delete did.
public enum DeletionOutcome: Sendable, Equatable {
    /// The object was moved into the recycle bin (group UUID given).
    case movedToRecycleBin(KDBXUUID)
    /// The object was removed for good and recorded as deleted objects.
    case deletedPermanently
}

extension Vault {
    // MARK: - Entries

    /// Adds `entry` to group `groupUUID` as KeePass adds a new entry: every time stamp set to `now`
    /// (the entry's expiry, part of what is added, is kept), usage count 0, no history, appended
    /// after the group's entries.
    ///
    /// - Returns: the entry's UUID (a fresh one when `entry` carries one already in use).
    /// - Throws: ``CoreError/Code/notFound`` when the group does not exist.
    @discardableResult
    public mutating func addEntry(_ entry: Entry, to groupUUID: KDBXUUID, now: KDBXTime) throws(CoreError) -> KDBXUUID {
        var entry = entry
        if entry.uuid.isZero || self.entry(withUUID: entry.uuid) != nil || group(withUUID: entry.uuid) != nil {
            entry.uuid = .random()
        }
        let expiry = entry.times.expires ? entry.times.expiry : nil
        entry.times = Times.created(at: now)
        if let expiry {
            entry.times.expires = true
            entry.times.expiry = expiry
        }
        entry.history = []
        let added: Bool? = root.modifyGroup(withUUID: groupUUID) { $0.entries.append(entry); return true }
        guard added != nil else { throw CoreError(.notFound, "no such group", location: groupUUID.hexString) }
        return entry.uuid
    }

    /// Edits entry `uuid` with KeePass's semantics: when `body` changes anything, the previous state
    /// goes into the entry's history (KeePass `PwEntry.CreateBackup`), the entry is touched
    /// (modification and access time `now`, usage count + 1) and the history is trimmed to
    /// `Meta.historyMaxItems` and `Meta.historyMaxSize` (-1 = unlimited). `body` cannot change
    /// the UUID or the history.
    ///
    /// - Returns: whether the entry changed.
    /// - Throws: ``CoreError/Code/notFound``, or what `body` throws (the entry is then unchanged;
    ///   errors other than ``CoreError`` come wrapped as ``CoreError/Code/invalidOperation``).
    @discardableResult
    public mutating func editEntry(_ uuid: KDBXUUID, now: KDBXTime,
                                   _ body: (inout Entry) throws(EditFailure) -> Void) throws(CoreError) -> Bool {
        guard let before = entry(withUUID: uuid) else {
            throw CoreError(.notFound, "no such entry", location: uuid.hexString)
        }
        var after = before
        try Vault.run(body, on: &after)
        after.uuid = before.uuid
        after.history = before.history
        guard after != before else { return false }
        var backup = before
        backup.history = []
        after.history.append(backup)
        after.times.lastModification = now
        after.times.lastAccess = now
        after.times.usageCount &+= 1
        after.trimHistory(maxItems: meta.historyMaxItems, maxSize: meta.historyMaxSize)
        let updated = after
        root.modifyEntry(withUUID: uuid) { $0 = updated }
        return true
    }

    /// Records a use of entry `uuid` without changing it (KeePass `Touch(false)`): access time
    /// `now`, usage count + 1.
    public mutating func touchEntry(_ uuid: KDBXUUID, now: KDBXTime) throws(CoreError) {
        let found: Bool? = root.modifyEntry(withUUID: uuid) { entry in
            entry.times.lastAccess = now
            entry.times.usageCount &+= 1
            return true
        }
        guard found != nil else { throw CoreError(.notFound, "no such entry", location: uuid.hexString) }
    }

    /// Moves entry `uuid` to group `target`: appended there, `Times.locationChanged` set to `now`
    /// and `Entry.previousParentGroup` to the group it left (KDBX 4.1). No history item.
    public mutating func moveEntry(_ uuid: KDBXUUID, to target: KDBXUUID, now: KDBXTime) throws(CoreError) {
        guard let parent = root.parentOfEntry(uuid) else {
            throw CoreError(.notFound, "no such entry", location: uuid.hexString)
        }
        guard group(withUUID: target) != nil else {
            throw CoreError(.notFound, "no such group", location: target.hexString)
        }
        guard parent.uuid != target else { return }
        guard var entry = root.removeEntry(withUUID: uuid) else { return }
        entry.times.locationChanged = now
        entry.previousParentGroup = parent.uuid
        let moved = entry
        root.modifyGroup(withUUID: target) { $0.entries.append(moved) }
    }

    /// Deletes entry `uuid` as KeePass does (`MainForm.DeleteSelectedEntries`): into the recycle bin
    /// when it is enabled and the entry is not in it yet (creating the bin if needed), with
    /// `Times.locationChanged` and `Entry.previousParentGroup` set and the entry touched as
    /// KeePass's `Touch(false)` touches it: access time `now` and usage count + 1 for the entry and
    /// for every group above it (the bin and the root); otherwise removed for good and recorded in
    /// `deletedObjects` with time `now`.
    @discardableResult
    public mutating func deleteEntry(_ uuid: KDBXUUID, now: KDBXTime) throws(CoreError) -> DeletionOutcome {
        guard entry(withUUID: uuid) != nil else {
            throw CoreError(.notFound, "no such entry", location: uuid.hexString)
        }
        if meta.recycleBinEnabled && !isEntryInRecycleBin(uuid) {
            let bin = ensureRecycleBin(now: now)
            try moveEntry(uuid, to: bin, now: now)
            root.modifyEntry(withUUID: uuid) { entry in
                entry.times.lastAccess = now
                entry.times.usageCount &+= 1
            }
            touchGroupAndParents(bin, now: now)
            return .movedToRecycleBin(bin)
        }
        root.removeEntry(withUUID: uuid)
        deletedObjects.append(DeletedObject(uuid: uuid, deletionTime: now))
        return .deletedPermanently
    }

    /// KeePass's `PwGroup.Touch(false, true)`: access time `now` and usage count + 1 for group
    /// `uuid` and every group above it up to the root.
    private mutating func touchGroupAndParents(_ uuid: KDBXUUID, now: KDBXTime) {
        func path(_ group: Group) -> [KDBXUUID]? {
            if group.uuid == uuid { return [group.uuid] }
            for child in group.groups {
                if let below = path(child) { return [group.uuid] + below }
            }
            return nil
        }
        for id in path(root) ?? [] {
            root.modifyGroup(withUUID: id) { group in
                group.times.lastAccess = now
                group.times.usageCount &+= 1
            }
        }
    }

    /// Runs an edit body, passing `CoreError` values through and wrapping any other error as
    /// `CoreError.Code.invalidOperation` with the original as its underlying error.
    /// (In Embedded Swift, which has no untyped throws, an edit body throws `CoreError` only.)
    private static func run<T>(_ body: (inout T) throws(EditFailure) -> Void, on value: inout T) throws(CoreError) {
        #if hasFeature(Embedded)
        try body(&value)
        #else
        do {
            try body(&value)
        } catch let error as CoreError {
            throw error
        } catch {
            throw CoreError(.invalidOperation, "the edit failed: \(error)", underlying: error)
        }
        #endif
    }

    // MARK: - Groups

    /// Adds a new group named `name` under `parent` with KeePass's defaults (icon 48 unless given,
    /// every time stamp `now`).
    ///
    /// - Returns: the new group's UUID.
    @discardableResult
    public mutating func addGroup(named name: String, in parent: KDBXUUID, iconID: Int = 48,
                                  now: KDBXTime) throws(CoreError) -> KDBXUUID {
        let group = Group(name: name, iconID: iconID, times: Times.created(at: now))
        let added: Bool? = root.modifyGroup(withUUID: parent) { $0.groups.append(group); return true }
        guard added != nil else { throw CoreError(.notFound, "no such group", location: parent.hexString) }
        return group.uuid
    }

    /// Edits group `uuid`; when `body` changes anything, modification and access times become
    /// `now`. Groups keep no history. `body` cannot change the UUID, entries or subgroups.
    @discardableResult
    public mutating func editGroup(_ uuid: KDBXUUID, now: KDBXTime,
                                   _ body: (inout Group) throws(EditFailure) -> Void) throws(CoreError) -> Bool {
        guard let before = group(withUUID: uuid) else {
            throw CoreError(.notFound, "no such group", location: uuid.hexString)
        }
        var after = before
        try Vault.run(body, on: &after)
        after.uuid = before.uuid
        after.entries = before.entries
        after.groups = before.groups
        guard after != before else { return false }
        after.times.lastModification = now
        after.times.lastAccess = now
        let updated = after
        root.modifyGroup(withUUID: uuid) { $0 = updated }
        return true
    }

    /// Moves group `uuid` (with its subtree) under `target`: `Times.locationChanged` `now`,
    /// `Group.previousParentGroup` the former parent.
    ///
    /// - Throws: ``CoreError/Code/invalidOperation`` for the root or a move into its own subtree;
    ///   ``CoreError/Code/notFound``.
    public mutating func moveGroup(_ uuid: KDBXUUID, to target: KDBXUUID, now: KDBXTime) throws(CoreError) {
        guard uuid != root.uuid else { throw CoreError(.invalidOperation, "the root group cannot move") }
        guard let moving = group(withUUID: uuid), let parent = root.parentOfGroup(uuid) else {
            throw CoreError(.notFound, "no such group", location: uuid.hexString)
        }
        guard group(withUUID: target) != nil else {
            throw CoreError(.notFound, "no such group", location: target.hexString)
        }
        guard moving.group(withUUID: target) == nil else {
            throw CoreError(.invalidOperation, "a group cannot move into its own subtree")
        }
        guard parent.uuid != target, var group = root.removeGroup(withUUID: uuid) else { return }
        group.times.locationChanged = now
        group.previousParentGroup = parent.uuid
        let moved = group
        root.modifyGroup(withUUID: target) { $0.groups.append(moved) }
    }

    /// Deletes group `uuid` with its subtree as KeePass does (`MainForm.DeleteSelectedGroup`): into
    /// the recycle bin when it is enabled and the group is neither in it, nor the bin itself, nor
    /// holds it (location changed, previous parent set, and the group, the bin and the root touched:
    /// access time `now`, usage count + 1); otherwise removed for good, recording a deleted object
    /// for each entry and group of the subtree (KeePass `PwGroup.DeleteAllObjects` order) and the
    /// group itself. Deleting the bin (or a group holding it) also clears `Meta.recycleBinUUID`
    /// and stamps `Meta.recycleBinChanged`, so that no reference to a missing group remains
    /// (KeePassXC warns about one on every open; KeePass would create a new bin on the next delete).
    @discardableResult
    public mutating func deleteGroup(_ uuid: KDBXUUID, now: KDBXTime) throws(CoreError) -> DeletionOutcome {
        guard uuid != root.uuid else { throw CoreError(.invalidOperation, "the root group cannot be deleted") }
        guard let group = group(withUUID: uuid) else {
            throw CoreError(.notFound, "no such group", location: uuid.hexString)
        }
        let binUUID = meta.recycleBinUUID
        let holdsBin = !binUUID.isZero && group.group(withUUID: binUUID) != nil
        if meta.recycleBinEnabled && !holdsBin && !isGroupInRecycleBin(uuid) {
            let bin = ensureRecycleBin(now: now)
            try moveGroup(uuid, to: bin, now: now)
            touchGroupAndParents(uuid, now: now)
            return .movedToRecycleBin(bin)
        }
        removeGroupPermanently(group, now: now)
        return .deletedPermanently
    }

    // MARK: - Recycle bin

    /// The recycle bin's UUID, creating the bin the KeePass way when it does not exist
    /// (`MainForm.EnsureRecycleBin`): a group "Recycle Bin" appended under the root with icon 43
    /// (TrashBin), auto-type and searching disabled, expanded (KeePass's default, its option
    /// "RecycleBinCollapse" being off); `Meta.recycleBinUUID` is set. `Meta.recycleBinChanged`
    /// is left alone, as KeePass stamps it only when the bin setting is changed in its settings.
    @discardableResult
    public mutating func ensureRecycleBin(now: KDBXTime) -> KDBXUUID {
        if !meta.recycleBinUUID.isZero, group(withUUID: meta.recycleBinUUID) != nil { return meta.recycleBinUUID }
        var bin = Group(name: "Recycle Bin", iconID: 43, times: Times.created(at: now))
        bin.enableAutoType = false
        bin.enableSearching = false
        bin.isExpanded = true
        root.groups.append(bin)
        meta.recycleBinUUID = bin.uuid
        return bin.uuid
    }

    /// Whether entry `uuid` is inside the recycle bin (at any depth).
    public func isEntryInRecycleBin(_ uuid: KDBXUUID) -> Bool {
        guard !meta.recycleBinUUID.isZero, let bin = group(withUUID: meta.recycleBinUUID) else { return false }
        return bin.entry(withUUID: uuid) != nil
    }

    /// Whether group `uuid` is the recycle bin or inside it.
    public func isGroupInRecycleBin(_ uuid: KDBXUUID) -> Bool {
        guard !meta.recycleBinUUID.isZero, let bin = group(withUUID: meta.recycleBinUUID) else { return false }
        return bin.group(withUUID: uuid) != nil
    }
}
