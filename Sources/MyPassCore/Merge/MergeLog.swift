import MyPassKDBX

/// The change log of a merge, found by comparing the local vault with the merged one.
enum MergeLog {
    private struct Located<T> {
        let value: T
        let parent: KDBXUUID?
        let path: [String]
    }

    /// The changes from `local` to `merged`: groups, then entries (added, moved, updated; merged
    /// pre-order), then deleted objects (local pre-order), then `conflicts`, then meta settings and
    /// custom icons. An object counts as updated when its data changed (``MergeComparison/sameData``,
    /// ``MergeComparison/sameProperties``) or, for an entry, its history did: last access times,
    /// usage counts, the order of fields or tags and one client's bookkeeping
    /// (``MergeComparison/bookkeepingKeys``) taken from the other side are not changes.
    static func changes(from local: Vault, to merged: Vault, conflicts: [MergeChange]) -> [MergeChange] {
        var out: [MergeChange] = []
        let (oldGroups, oldEntries) = index(local.root)
        let (newGroups, newEntries) = index(merged.root)
        for (uuid, new) in newGroups.order.map({ ($0, newGroups.table[$0]!) }) {
            guard let old = oldGroups.table[uuid] else {
                out.append(MergeChange(kind: .added, object: .group, uuid: uuid, path: new.path))
                continue
            }
            if old.parent != new.parent {
                out.append(MergeChange(kind: .moved, object: .group, uuid: uuid, path: new.path))
            }
            if !MergeComparison.sameProperties(old.value, new.value, ignoringBookkeeping: true) {
                out.append(MergeChange(kind: .updated, object: .group, uuid: uuid, path: new.path))
            }
        }
        for (uuid, new) in newEntries.order.map({ ($0, newEntries.table[$0]!) }) {
            guard let old = oldEntries.table[uuid] else {
                out.append(MergeChange(kind: .added, object: .entry, uuid: uuid, path: new.path))
                continue
            }
            if old.parent != new.parent {
                out.append(MergeChange(kind: .moved, object: .entry, uuid: uuid, path: new.path))
            }
            let sameCurrent = MergeComparison.sameData(old.value, new.value, ignoringBookkeeping: true)
            if !sameCurrent || !MergeComparison.sameHistory(old.value.history, new.value.history, ignoringBookkeeping: true) {
                out.append(MergeChange(kind: .updated, object: .entry, uuid: uuid, path: new.path,
                                       note: sameCurrent ? "history merged" : ""))
            }
        }
        for uuid in oldGroups.order where newGroups.table[uuid] == nil {
            out.append(MergeChange(kind: .deleted, object: .group, uuid: uuid, path: oldGroups.table[uuid]!.path))
        }
        for uuid in oldEntries.order where newEntries.table[uuid] == nil {
            out.append(MergeChange(kind: .deleted, object: .entry, uuid: uuid, path: oldEntries.table[uuid]!.path))
        }
        out += conflicts
        out += metaChanges(local.meta, merged.meta)
        return out
    }

    private struct Table<T> {
        var order: [KDBXUUID] = []
        var table: [KDBXUUID: Located<T>] = [:]
    }

    private static func index(_ root: Group) -> (Table<Group>, Table<Entry>) {
        var groups = Table<Group>(), entries = Table<Entry>()
        func visit(_ group: Group, parent: KDBXUUID?, path: [String]) {
            var own = group
            own.entries = []
            own.groups = []
            groups.order.append(group.uuid)
            groups.table[group.uuid] = Located(value: own, parent: parent, path: path)
            for entry in group.entries {
                entries.order.append(entry.uuid)
                entries.table[entry.uuid] = Located(value: entry, parent: group.uuid, path: path + [entry.title])
            }
            for child in group.groups { visit(child, parent: group.uuid, path: path + [child.name]) }
        }
        visit(root, parent: nil, path: [])
        return (groups, entries)
    }

    /// Meta custom data as a key-value map with its times, bookkeeping aside.
    private static func sameMetaCustomData(_ a: [CustomDataItem], _ b: [CustomDataItem]) -> Bool {
        func table(_ items: [CustomDataItem]) -> [String: CustomDataItem] {
            var out: [String: CustomDataItem] = [:]
            for item in items where !MergeComparison.bookkeepingKeys.contains(item.key) { out[item.key] = item }
            return out
        }
        return table(a) == table(b)
    }

    private static func metaChanges(_ old: Meta, _ new: Meta) -> [MergeChange] {
        var out: [MergeChange] = []
        func setting(_ name: String, _ changed: Bool) {
            if changed { out.append(MergeChange(kind: .updated, object: .meta, uuid: nil, path: [], note: name)) }
        }
        setting("databaseName", old.databaseName != new.databaseName)
        setting("databaseDescription", old.databaseDescription != new.databaseDescription)
        setting("defaultUserName", old.defaultUserName != new.defaultUserName)
        setting("color", old.color != new.color)
        setting("recycleBinEnabled", old.recycleBinEnabled != new.recycleBinEnabled)
        setting("recycleBinUUID", old.recycleBinUUID != new.recycleBinUUID)
        setting("entryTemplatesGroup", old.entryTemplatesGroup != new.entryTemplatesGroup)
        setting("customData", !sameMetaCustomData(old.customData, new.customData))
        let oldIcons = MergeComparison.firstByKey(old.customIcons) { $0.uuid }
        let newIcons = MergeComparison.firstByKey(new.customIcons) { $0.uuid }
        for icon in new.customIcons {
            if let before = oldIcons[icon.uuid] {
                if before != icon { out.append(MergeChange(kind: .updated, object: .customIcon, uuid: icon.uuid, path: [])) }
            } else {
                out.append(MergeChange(kind: .added, object: .customIcon, uuid: icon.uuid, path: []))
            }
        }
        for icon in old.customIcons where newIcons[icon.uuid] == nil {
            out.append(MergeChange(kind: .deleted, object: .customIcon, uuid: icon.uuid, path: []))
        }
        return out
    }
}
