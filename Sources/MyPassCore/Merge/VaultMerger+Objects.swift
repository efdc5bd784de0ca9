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
            // `PwGroup.AssignProperties(bOnlyIfNewer: true)`: unless the remote state is older.
            let order = MergeComparison.compare(remoteGroup.times.lastModification, node.group.times.lastModification)
            guard order >= 0 else { return }
            if order == 0 && !MergeComparison.sameProperties(remoteGroup, node.group, ignoringBookkeeping: true) {
                conflicts.append(MergeChange(kind: .conflict, object: .group, uuid: remoteGroup.uuid,
                                             path: tree.path(ofGroup: remoteGroup.uuid), note: Self.groupTieNote))
            }
            node.group = MergeComparison.assigning(remoteGroup, to: node.group)
            tree.nodes[remoteGroup.uuid] = node
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
        tree.entries[localEntry.uuid] = mergedEntry(local: localEntry, remote: remoteEntry)
    }

    /// The note of a conflict: the two states of an entry or group have the same modification time.
    static let entryTieNote = "changed on both sides in the same second: the merged-in state wins, the other is kept in the history"
    static let groupTieNote = "changed on both sides in the same second: the merged-in state wins"

    /// One entry present on both sides (KeePass's `ehSrc` for an existing entry, then
    /// `MergeEntryHistory`), with our one addition: on a tie whose states really differ, the local
    /// state goes into the history.
    mutating func mergedEntry(local localEntry: Entry, remote remoteEntry: Entry) -> Entry {
        var current = localEntry
        var remoteEntry = remoteEntry
        let same = MergeComparison.sameData(localEntry, remoteEntry)
        let order = MergeComparison.compare(remoteEntry.times.lastModification, localEntry.times.lastModification)
        // `bOrgBackup` and `bSrcBackup`: the older of two different states goes into the history,
        // unless the newer side's history already holds it.
        if !same && order > 0 && !Self.history(remoteEntry.history, holds: localEntry) {
            current.history.append(Self.backup(of: localEntry))
        }
        if !same && order < 0 && !Self.history(localEntry.history, holds: remoteEntry) {
            remoteEntry.history.append(Self.backup(of: remoteEntry))
        }
        // `PwEntry.AssignProperties(bOnlyIfNewer: true)`: unless the remote state is older (a tie
        // takes the remote state).
        if order >= 0 {
            current = MergeComparison.assigning(remoteEntry, to: current)
        }
        current.history = Self.mergedHistory(current.history, remoteEntry.history)
        // A tie: KeePass drops the local state. We keep it in the history when the two really
        // differ (bookkeeping aside), after the items of the same second, and log the tie.
        if order == 0 && !MergeComparison.sameData(localEntry, remoteEntry, ignoringBookkeeping: true) {
            if !Self.history(current.history, holds: localEntry, ignoringBookkeeping: true) {
                let time = localEntry.times.lastModification
                let index = current.history.firstIndex { MergeComparison.compare($0.times.lastModification, time) > 0 }
                current.history.insert(Self.backup(of: localEntry), at: index ?? current.history.endIndex)
            }
            var path = tree.path(ofGroup: tree.entryParents[localEntry.uuid] ?? tree.rootUUID)
            path.append(remoteEntry.title)
            conflicts.append(MergeChange(kind: .conflict, object: .entry, uuid: localEntry.uuid, path: path,
                                         note: Self.entryTieNote))
        }
        return current
    }

    /// Whether `history` holds an item with the same data as `entry` (modification time included;
    /// ``MergeComparison/sameData(_:_:ignoringBookkeeping:)``).
    static func history(_ history: [Entry], holds entry: Entry, ignoringBookkeeping: Bool = false) -> Bool {
        history.contains { MergeComparison.sameData($0, entry, ignoringBookkeeping: ignoringBookkeeping) }
    }

    /// `entry` as a history item: without its own history.
    static func backup(of entry: Entry) -> Entry {
        var copy = entry
        copy.history = []
        return copy
    }

    /// KeePass's `MergeEntryHistory`: when both histories have the same modification times in the
    /// same order the local one stays; otherwise the union by modification time, oldest first, a
    /// local item winning over a remote one of the same time and data. Where KeePass keys the union
    /// by time alone (so that of two different states saved in the same second one is dropped),
    /// both are kept, the local ones first: what a tie would otherwise lose (our addition).
    static func mergedHistory(_ local: [Entry], _ remote: [Entry]) -> [Entry] {
        if local.count == remote.count,
           zip(local, remote).allSatisfy({ $0.times.lastModification == $1.times.lastModification }) {
            return local
        }
        var byTime: [KDBXTime: [Entry]] = [:]
        for item in local { byTime[item.times.lastModification, default: []].append(item) }
        for item in remote {
            let held = byTime[item.times.lastModification]?.contains {
                MergeComparison.sameData($0, item, ignoringBookkeeping: true)
            } ?? false
            if !held { byTime[item.times.lastModification, default: []].append(item) }
        }
        return byTime.keys.sorted().flatMap { byTime[$0]! }
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
