import MyPassKDBX

/// One side's objects as they were before the merge, numbered the way KeePass's `PwObjectPoolEx`
/// numbers them: the root is 2, then for each group (pre-order) its entries get consecutive
/// numbers, a number is skipped, its subgroups get consecutive numbers, and another is skipped.
/// Consecutive siblings thus have consecutive numbers and a gap ends every list, which is what
/// placing added objects "next to their original neighbours" and restoring the order of moved
/// blocks rely on.
struct MergePool {
    /// What the pool remembers of one object.
    struct Item {
        let id: UInt64
        let isEntry: Bool
        /// The group that held it (`nil` for the root).
        let parent: KDBXUUID?
        let locationChanged: KDBXTime
        let previousParentGroup: KDBXUUID?
    }

    private(set) var items: [KDBXUUID: Item] = [:]
    private(set) var uuidsByID: [UInt64: KDBXUUID] = [:]

    /// Numbers the tree of `root`.
    ///
    /// - Throws: ``CoreError/Code/invalidOperation`` when a UUID appears twice in the tree (as two
    ///   groups, two entries, or a group and an entry); `side` names the vault in the reason.
    init(root: Group, side: String) throws(CoreError) {
        try insert(uuid: root.uuid, id: 2, isEntry: false, parent: nil, times: root.times,
                   previous: root.previousParentGroup, side: side)
        var freeID: UInt64 = 4
        try number(root, freeID: &freeID, side: side)
    }

    private mutating func number(_ group: Group, freeID: inout UInt64, side: String) throws(CoreError) {
        var id = freeID
        for entry in group.entries {
            try insert(uuid: entry.uuid, id: id, isEntry: true, parent: group.uuid, times: entry.times,
                       previous: entry.previousParentGroup, side: side)
            id += 1
        }
        id += 1
        for child in group.groups {
            try insert(uuid: child.uuid, id: id, isEntry: false, parent: group.uuid, times: child.times,
                       previous: child.previousParentGroup, side: side)
            id += 1
        }
        id += 1
        for child in group.groups { try number(child, freeID: &id, side: side) }
        freeID = id
    }

    private mutating func insert(uuid: KDBXUUID, id: UInt64, isEntry: Bool, parent: KDBXUUID?, times: Times,
                                 previous: KDBXUUID?, side: String) throws(CoreError) {
        guard items[uuid] == nil else {
            throw CoreError(.invalidOperation, "the UUID appears twice in the \(side) vault", location: uuid.hexString)
        }
        items[uuid] = Item(id: id, isEntry: isEntry, parent: parent, locationChanged: times.locationChanged,
                           previousParentGroup: previous)
        uuidsByID[id] = uuid
    }

    /// The number of `uuid`, or 0 when the pool does not hold it.
    func id(of uuid: KDBXUUID) -> UInt64 { items[uuid]?.id ?? 0 }

    /// The UUID numbered `id`, or `nil` (a gap, or past the end).
    func uuid(at id: UInt64) -> KDBXUUID? { uuidsByID[id] }

    /// Whether the pool holds `uuid`.
    func contains(_ uuid: KDBXUUID) -> Bool { items[uuid] != nil }
}
