import MyPassKDBX

extension VaultMerger {
    /// KeePass's `RelocateGroups`: a group on both sides whose remote parent differs and whose remote
    /// `LocationChanged` is newer moves under the local counterpart of that parent, unless that is
    /// inside the group itself.
    mutating func relocateGroups() {
        for uuid in tree.groupsBelowRoot {
            guard let localItem = localPool.items[uuid], let localParent = localItem.parent,
                  let remoteItem = remotePool.items[uuid], let remoteParent = remoteItem.parent,
                  localParent != remoteParent, remoteItem.locationChanged > localItem.locationChanged,
                  tree.nodes[remoteParent] != nil, !tree.isGroup(remoteParent, inside: uuid)
            else { continue }
            tree.detachGroup(uuid)
            tree.nodes[remoteParent]!.groups = inserting(uuid, into: tree.nodes[remoteParent]!.groups)
            tree.nodes[uuid]!.parent = remoteParent
        }
    }

    /// KeePass's `RelocateEntries`: the same for entries.
    mutating func relocateEntries() {
        for uuid in tree.entriesPreOrder {
            guard let localItem = localPool.items[uuid], let localParent = localItem.parent,
                  let remoteItem = remotePool.items[uuid], let remoteParent = remoteItem.parent,
                  localParent != remoteParent, remoteItem.locationChanged > localItem.locationChanged,
                  tree.nodes[remoteParent] != nil, let current = tree.entryParents[uuid]
            else { continue }
            tree.nodes[current]!.entries.removeAll { $0 == uuid }
            tree.nodes[remoteParent]!.entries = inserting(uuid, into: tree.nodes[remoteParent]!.entries)
            tree.entryParents[uuid] = remoteParent
        }
    }

    /// KeePass's `ReorderObjects`: in every group (pre-order), the subgroups and then the entries.
    mutating func reorder(_ uuid: KDBXUUID) {
        guard let node = tree.nodes[uuid] else { return }
        tree.nodes[uuid]!.groups = reordered(node.groups)
        tree.nodes[uuid]!.entries = reordered(node.entries)
        for child in tree.nodes[uuid]!.groups { reorder(child) }
    }

    /// KeePass's `MergeInLocationChanged`: every object takes the newer `LocationChanged` of the two
    /// sides, with that side's `PreviousParentGroup`.
    mutating func mergeLocationChanged() {
        for uuid in Array(tree.nodes.keys) {
            if let best = bestPool(for: uuid) {
                tree.nodes[uuid]!.group.times.locationChanged = best.time
                tree.nodes[uuid]!.group.previousParentGroup = best.previousParent
            }
        }
        for uuid in Array(tree.entries.keys) {
            if let best = bestPool(for: uuid) {
                tree.entries[uuid]!.times.locationChanged = best.time
                tree.entries[uuid]!.previousParentGroup = best.previousParent
            }
        }
    }

    /// The side with the newer `LocationChanged` for `uuid` (KeePass `GetBestPool`: the local side
    /// unless the remote time is strictly newer).
    func bestPool(for uuid: KDBXUUID) -> (isRemote: Bool, time: KDBXTime, previousParent: KDBXUUID?)? {
        var best: (isRemote: Bool, time: KDBXTime, previousParent: KDBXUUID?)?
        if let item = localPool.items[uuid] { best = (false, item.locationChanged, item.previousParentGroup) }
        if let item = remotePool.items[uuid], best == nil || item.locationChanged > best!.time {
            best = (true, item.locationChanged, item.previousParentGroup)
        }
        return best
    }

    // MARK: - Block reordering

    /// A run of siblings that are consecutive on both sides, with the newest `LocationChanged` among
    /// them and the side it came from.
    private struct Block {
        var items: [KDBXUUID] = []
        /// KeePass's `TimeUtil.SafeMinValueUtc` (0001-01-02) until an item brings a later time.
        var locationChanged = KDBXTime(secondsSinceEpoch: 86_400)
        var isRemote: Bool?

        mutating func add(_ uuid: KDBXUUID, time: KDBXTime, isRemote remote: Bool) {
            items.append(uuid)
            if time > locationChanged {
                locationChanged = time
                isRemote = remote
            }
        }
    }

    private func pool(isRemote: Bool) -> MergePool { isRemote ? remotePool : localPool }

    /// KeePass's `ReorderObjectList`: cut the list into blocks consecutive on both sides, then order
    /// the blocks recursively around the one moved last, by the positions in that block's side.
    private func reordered(_ list: [KDBXUUID]) -> [KDBXUUID] {
        var blocks = partition(list)
        guard blocks.count > 1 else { return list }
        var ranges = [(blocks.startIndex, blocks.count - 1)]
        var head = 0
        while head < ranges.count {
            let (low, high) = ranges[head]
            head += 1
            guard low < high else { continue }
            var pivot = low
            var newest = KDBXTime(secondsSinceEpoch: 86_400)
            var pivotRemote: Bool?
            for index in low...high where blocks[index].locationChanged > newest {
                pivot = index
                newest = blocks[index].locationChanged
                pivotRemote = blocks[index].isRemote
            }
            let side = pool(isRemote: pivotRemote ?? false)
            let pivotBlock = blocks[pivot]
            let pivotID = side.id(of: pivotBlock.items[0])
            guard pivotID != 0 else { continue }
            var before: [Block] = [], after: [Block] = []
            for index in low...high where index != pivot {
                let id = side.id(of: blocks[index].items[0])
                if id > 0 {
                    if id < pivotID { before.append(blocks[index]) } else { after.append(blocks[index]) }
                } else if index < pivot {
                    before.append(blocks[index])
                } else {
                    after.append(blocks[index])
                }
            }
            let arranged = before + [pivotBlock] + after
            blocks.replaceSubrange(low...high, with: arranged)
            let newPivot = low + before.count
            if newPivot - 1 > low { ranges.append((low, newPivot - 1)) }
            if newPivot + 1 < high { ranges.append((newPivot + 1, high)) }
        }
        return blocks.flatMap { $0.items }
    }

    /// KeePass's `PartitionConsec`: runs of list items that follow each other in both pools
    /// (skipping only objects that are not in this list).
    private func partition(_ list: [KDBXUUID]) -> [Block] {
        let members = Set(list)
        var blocks: [Block] = []
        var index = 0
        while index < list.count {
            var block = Block()
            let first = list[index]
            if let best = bestPool(for: first) { block.add(first, time: best.time, isRemote: best.isRemote) }
            var localID = localPool.id(of: first), remoteID = remotePool.id(of: first)
            if localID != 0 && remoteID != 0 {
                while index + 1 < list.count {
                    let next = list[index + 1]
                    guard let nextLocal = following(next, after: localID, in: localPool, members: members),
                          let nextRemote = following(next, after: remoteID, in: remotePool, members: members)
                    else { break }
                    if let best = bestPool(for: next) { block.add(next, time: best.time, isRemote: best.isRemote) }
                    index += 1
                    localID = nextLocal
                    remoteID = nextRemote
                }
            }
            blocks.append(block)
            index += 1
        }
        return blocks
    }

    /// The number of `uuid` in `pool` when it follows `id` there with only non-members between.
    private func following(_ uuid: KDBXUUID, after id: UInt64, in pool: MergePool,
                           members: Set<KDBXUUID>) -> UInt64? {
        var next = id + 1
        while let candidate = pool.uuid(at: next) {
            if candidate == uuid { return next }
            if members.contains(candidate) { return nil }
            next += 1
        }
        return nil
    }
}
