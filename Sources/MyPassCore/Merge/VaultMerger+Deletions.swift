import MyPassKDBX

extension VaultMerger {
    /// Unites the deleted objects of both sides and applies them (KeePass `CreateDeletedObjectsPool`,
    /// `MergeInDeletionInfo`, `ApplyDeletions`), after the moves: post-order, so that a group is
    /// judged once its children were; each list from its end.
    mutating func applyDeletions() {
        // One record per UUID, the latest time; local duplicates collapse onto the last one.
        var latest: [KDBXUUID: KDBXTime] = [:]
        var kept: [DeletedObject] = []
        for record in deletedObjects.reversed() {
            if let time = latest[record.uuid] {
                latest[record.uuid] = max(time, record.deletionTime)
            } else {
                latest[record.uuid] = record.deletionTime
                kept.append(record)
            }
        }
        kept.reverse()
        for record in remote.deletedObjects {
            if let time = latest[record.uuid] {
                latest[record.uuid] = max(time, record.deletionTime)
            } else {
                latest[record.uuid] = record.deletionTime
                kept.append(record)
            }
        }
        deletedObjects = kept.map { DeletedObject(uuid: $0.uuid, deletionTime: latest[$0.uuid]!) }
        var dropped: Set<KDBXUUID> = []
        applyDeletions(in: tree.rootUUID, latest: latest, dropped: &dropped)
        if !dropped.isEmpty { deletedObjects.removeAll { dropped.contains($0.uuid) } }
    }

    private mutating func applyDeletions(in container: KDBXUUID, latest: [KDBXUUID: KDBXTime],
                                         dropped: inout Set<KDBXUUID>) {
        for child in tree.nodes[container]?.groups ?? [] {
            applyDeletions(in: child, latest: latest, dropped: &dropped)
        }
        for child in (tree.nodes[container]?.groups ?? []).reversed() {
            guard let time = latest[child.self], !dropped.contains(child), let node = tree.nodes[child] else { continue }
            if Self.isDeleted(node.group.times, at: time) && node.groups.isEmpty && node.entries.isEmpty {
                tree.removeGroup(child)
            } else {
                dropped.insert(child)
            }
        }
        for entry in (tree.nodes[container]?.entries ?? []).reversed() {
            guard let time = latest[entry], !dropped.contains(entry), let value = tree.entries[entry] else { continue }
            if Self.isDeleted(value.times, at: time) {
                tree.removeEntry(entry)
            } else {
                dropped.insert(entry)
            }
        }
    }

    /// Whether an object with `times` goes under a deletion at `deletionTime`: it was last modified
    /// before it (whole seconds; KeePass `ApplyDeletions`: a move after the deletion does not save
    /// the object, only a change of its data does).
    static func isDeleted(_ times: Times, at deletionTime: KDBXTime) -> Bool {
        MergeComparison.compare(times.lastModification, deletionTime) < 0
    }
}
