import MyPassKDBX

/// The group tree of a vault being merged, flattened into tables keyed by UUID so that finding,
/// moving and inserting an object costs no walk of the tree (``Group`` is a value type, so the tree
/// itself cannot be edited in place cheaply). ``group()`` builds the tree back.
struct MergeTree {
    /// A group's own properties (its `entries` and `groups` emptied) and its children by UUID.
    struct Node {
        var group: Group
        var entries: [KDBXUUID]
        var groups: [KDBXUUID]
        var parent: KDBXUUID?
    }

    let rootUUID: KDBXUUID
    var nodes: [KDBXUUID: Node] = [:]
    var entries: [KDBXUUID: Entry] = [:]
    var entryParents: [KDBXUUID: KDBXUUID] = [:]

    /// The tables of `root`'s tree. The UUIDs must already be known to be unique (see ``MergePool``).
    init(root: Group) {
        rootUUID = root.uuid
        add(root, parent: nil)
    }

    private mutating func add(_ group: Group, parent: KDBXUUID?) {
        var own = group
        own.entries = []
        own.groups = []
        nodes[group.uuid] = Node(group: own, entries: group.entries.map { $0.uuid },
                                 groups: group.groups.map { $0.uuid }, parent: parent)
        for entry in group.entries {
            entries[entry.uuid] = entry
            entryParents[entry.uuid] = group.uuid
        }
        for child in group.groups { add(child, parent: group.uuid) }
    }

    /// The tree back as a ``Group``, children in their current order.
    func group() -> Group { group(rootUUID) }

    private func group(_ uuid: KDBXUUID) -> Group {
        let node = nodes[uuid]!
        var out = node.group
        out.entries = node.entries.compactMap { entries[$0] }
        out.groups = node.groups.map { group($0) }
        return out
    }

    /// Whether `uuid` is `ancestor` or lies below it.
    func isGroup(_ uuid: KDBXUUID, inside ancestor: KDBXUUID) -> Bool {
        var current: KDBXUUID? = uuid
        while let value = current {
            if value == ancestor { return true }
            current = nodes[value]?.parent
        }
        return false
    }

    /// Every group below the root in KeePass's `PwGroup.GetGroups(true)` order: a group's direct
    /// children first, then each child's own list.
    var groupsBelowRoot: [KDBXUUID] { groupsBelow(rootUUID) }

    private func groupsBelow(_ uuid: KDBXUUID) -> [KDBXUUID] {
        let children = nodes[uuid]?.groups ?? []
        return children + children.flatMap { groupsBelow($0) }
    }

    /// Every group, pre-order from the root.
    var groupsPreOrder: [KDBXUUID] {
        var out: [KDBXUUID] = []
        func visit(_ uuid: KDBXUUID) {
            out.append(uuid)
            for child in nodes[uuid]?.groups ?? [] { visit(child) }
        }
        visit(rootUUID)
        return out
    }

    /// Every entry, group by group in pre-order (KeePass `GetEntries(true)`).
    var entriesPreOrder: [KDBXUUID] { groupsPreOrder.flatMap { nodes[$0]?.entries ?? [] } }

    /// The names from below the root down to group `uuid`.
    func path(ofGroup uuid: KDBXUUID) -> [String] {
        var names: [String] = []
        var current: KDBXUUID? = uuid
        while let value = current, value != rootUUID, let node = nodes[value] {
            names.insert(node.group.name, at: 0)
            current = node.parent
        }
        return names
    }

    /// Removes group `uuid` from its parent's list (the subtree stays in the tables).
    mutating func detachGroup(_ uuid: KDBXUUID) {
        guard let parent = nodes[uuid]?.parent else { return }
        nodes[parent]?.groups.removeAll { $0 == uuid }
        nodes[uuid]?.parent = nil
    }

    /// Removes group `uuid` and its whole subtree from the tables.
    mutating func removeGroup(_ uuid: KDBXUUID) {
        detachGroup(uuid)
        guard let node = nodes.removeValue(forKey: uuid) else { return }
        for entry in node.entries {
            entries[entry] = nil
            entryParents[entry] = nil
        }
        for child in node.groups { removeGroup(child) }
    }

    /// Removes entry `uuid`.
    mutating func removeEntry(_ uuid: KDBXUUID) {
        guard let parent = entryParents.removeValue(forKey: uuid) else { return }
        nodes[parent]?.entries.removeAll { $0 == uuid }
        entries[uuid] = nil
    }
}
