import MyPassKDBX

extension VaultMerger {
    /// Visits the remote tree as KeePass does (the root, then pre-order: a group's entries, then
    /// each subgroup followed by its subtree), adding what is missing and merging what matches.
    mutating func mergeObjects() {
        mergeGroup(remote.root, remoteParent: nil)
        visit(remote.root)
    }

    private mutating func visit(_ group: Group) {
        for entry in group.entries { mergeEntry(entry, remoteParent: group.uuid) }
        for child in group.groups {
            mergeGroup(child, remoteParent: group.uuid)
            visit(child)
        }
    }

    /// The local group that receives an object whose remote parent is `remoteParent`: the local
    /// root for the remote root, else the group with that UUID, else the local root.
    func container(forRemoteParent remoteParent: KDBXUUID?) -> KDBXUUID {
        guard let remoteParent, remoteParent != remote.root.uuid, tree.nodes[remoteParent] != nil else {
            return tree.rootUUID
        }
        return remoteParent
    }

    private mutating func mergeGroup(_ remoteGroup: Group, remoteParent: KDBXUUID?) {
        if var node = tree.nodes[remoteGroup.uuid] {
            let order = MergeComparison.compare(remoteGroup.times.lastModification, node.group.times.lastModification)
            if order > 0 || (order == 0 && MergeComparison.sameProperties(remoteGroup, node.group)) {
                node.group = MergeComparison.assigning(remoteGroup, to: node.group)
                tree.nodes[remoteGroup.uuid] = node
            } else if order == 0 {
                conflicts.append(MergeChange(kind: .conflict, object: .group, uuid: remoteGroup.uuid,
                                             path: tree.path(ofGroup: remoteGroup.uuid),
                                             note: "changed on both sides at the same time; local kept"))
            }
            return
        }
        let parent = container(forRemoteParent: remoteParent)
        var own = remoteGroup
        own.entries = []
        own.groups = []
        own.isExpanded = true  // KeePass's new PwGroup; expansion is not a synchronised property
        tree.nodes[own.uuid] = MergeTree.Node(group: own, entries: [], groups: [], parent: parent)
        tree.nodes[parent]!.groups = inserting(own.uuid, into: tree.nodes[parent]!.groups)
    }

    private mutating func mergeEntry(_ remoteEntry: Entry, remoteParent: KDBXUUID) {
        guard localPool.contains(remoteEntry.uuid), let localEntry = tree.entries[remoteEntry.uuid] else {
            let parent = container(forRemoteParent: remoteParent)
            tree.entries[remoteEntry.uuid] = remoteEntry
            tree.entryParents[remoteEntry.uuid] = parent
            tree.nodes[parent]!.entries = inserting(remoteEntry.uuid, into: tree.nodes[parent]!.entries)
            return
        }
        let merged = mergedEntry(local: localEntry, remote: remoteEntry)
        if merged.history != localEntry.history { historyChanged.insert(localEntry.uuid) }
        tree.entries[localEntry.uuid] = merged
    }

    /// One entry present on both sides (KeePass's `ehSrc` for an existing entry, then
    /// `MergeEntryHistory`).
    mutating func mergedEntry(local localEntry: Entry, remote remoteEntry: Entry) -> Entry {
        var current = localEntry
        var remoteEntry = remoteEntry
        let same = MergeComparison.sameData(localEntry, remoteEntry)
        let order = MergeComparison.compare(remoteEntry.times.lastModification, localEntry.times.lastModification)
        if !same && order > 0 && !Self.history(remoteEntry.history, holds: localEntry) {
            current.history.append(Self.backup(of: localEntry))
        }
        if !same && order < 0 && !Self.history(localEntry.history, holds: remoteEntry) {
            remoteEntry.history.append(Self.backup(of: remoteEntry))
        }
        if order > 0 || (order == 0 && same) {
            current = MergeComparison.assigning(remoteEntry, to: current)
        } else if order == 0 {
            if !Self.history(current.history, holds: remoteEntry) {
                current.history.append(Self.backup(of: remoteEntry))
            }
            var path = tree.path(ofGroup: tree.entryParents[localEntry.uuid] ?? tree.rootUUID)
            path.append(localEntry.title)
            conflicts.append(MergeChange(kind: .conflict, object: .entry, uuid: localEntry.uuid, path: path,
                                         note: "changed on both sides at the same time; local kept, remote in history"))
        }
        current.history = Self.mergedHistory(current.history, remoteEntry.history)
        return current
    }

    /// Whether `history` holds an item with the same data as `entry` (modification time included).
    static func history(_ history: [Entry], holds entry: Entry) -> Bool {
        history.contains { MergeComparison.sameData($0, entry) }
    }

    /// `entry` as a history item: without its own history.
    static func backup(of entry: Entry) -> Entry {
        var copy = entry
        copy.history = []
        return copy
    }

    /// KeePass's `MergeEntryHistory`: when both histories have the same modification times in the
    /// same order the local one stays; otherwise the union by modification time (a local item wins
    /// over a remote one with the same time, a later local item over an earlier one), oldest first.
    static func mergedHistory(_ local: [Entry], _ remote: [Entry]) -> [Entry] {
        if local.count == remote.count,
           zip(local, remote).allSatisfy({ $0.times.lastModification == $1.times.lastModification }) {
            return local
        }
        var byTime: [KDBXTime: Entry] = [:]
        for item in local { byTime[item.times.lastModification] = item }
        for item in remote where byTime[item.times.lastModification] == nil {
            byTime[item.times.lastModification] = item
        }
        return byTime.keys.sorted().map { byTime[$0]! }
    }

    /// `list` (children of one local group) with `uuid` inserted where KeePass's
    /// `InsertObjectAtBestPos` puts it: before the first of its following remote siblings that is
    /// in the list, else after the nearest preceding one, else at the end.
    func inserting(_ uuid: KDBXUUID, into list: [KDBXUUID]) -> [KDBXUUID] {
        var list = list
        let remoteID = remotePool.id(of: uuid)
        guard remoteID != 0 else {
            list.append(uuid)
            return list
        }
        var positions: [KDBXUUID: Int] = [:]
        for (index, item) in list.enumerated() { positions[item] = index }
        var next = remoteID + 1
        while let sibling = remotePool.uuid(at: next) {
            if let index = positions[sibling] {
                list.insert(uuid, at: index)
                return list
            }
            next += 1
        }
        var previous = remoteID - 1
        while previous > 0, let sibling = remotePool.uuid(at: previous) {
            if let index = positions[sibling] {
                list.insert(uuid, at: index + 1)
                return list
            }
            previous -= 1
        }
        list.append(uuid)
        return list
    }
}
