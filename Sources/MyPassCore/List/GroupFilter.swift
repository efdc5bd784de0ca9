import MyPassKDBX

/// The group filter of the entry list: a set of selected group IDs, kept apart from the list
/// logic (the caller wires a filter and a list together).
///
/// Selecting a group selects it and its whole subtree; deselecting a group deselects its whole
/// subtree; an empty selection means "no filter".
public struct GroupFilter: Sendable, Equatable {
    /// The selected group UUIDs.
    public private(set) var selectedGroups: Set<KDBXUUID> = []

    /// An empty filter.
    public init() {}

    /// Whether no group is selected (no filtering).
    public var isEmpty: Bool { selectedGroups.isEmpty }

    /// Whether `group` is selected.
    public func isSelected(_ group: KDBXUUID) -> Bool { selectedGroups.contains(group) }

    /// Selects group `uuid` and its whole subtree, found below `root`. Unknown UUIDs change nothing.
    public mutating func select(_ uuid: KDBXUUID, in root: Group) {
        guard let group = root.group(withUUID: uuid) else { return }
        group.forEachGroup { child, _ in selectedGroups.insert(child.uuid) }
    }

    /// Deselects group `uuid` and its whole subtree.
    public mutating func deselect(_ uuid: KDBXUUID, in root: Group) {
        guard let group = root.group(withUUID: uuid) else {
            selectedGroups.remove(uuid)
            return
        }
        group.forEachGroup { child, _ in selectedGroups.remove(child.uuid) }
    }

    /// Selects or deselects group `uuid` (with its subtree) depending on its current state.
    public mutating func toggle(_ uuid: KDBXUUID, in root: Group) {
        if isSelected(uuid) { deselect(uuid, in: root) } else { select(uuid, in: root) }
    }

    /// Clears the selection (no filter).
    public mutating func clear() { selectedGroups.removeAll() }

    /// Drops selected IDs whose group no longer exists below `root` (after deletions).
    public mutating func prune(in root: Group) {
        var present: Set<KDBXUUID> = []
        root.forEachGroup { group, _ in present.insert(group.uuid) }
        selectedGroups.formIntersection(present)
    }

    /// The group whose subtree is exactly the selection, when the selection is one group with its
    /// whole subtree; otherwise `nil`.
    public func singleSelectedSubtree(in root: Group) -> KDBXUUID? {
        guard !selectedGroups.isEmpty else { return nil }
        // The top of the selection: a selected group whose parent is not selected.
        var tops: [Group] = []
        func walk(_ group: Group, parentSelected: Bool) {
            let selected = selectedGroups.contains(group.uuid)
            if selected && !parentSelected { tops.append(group) }
            for child in group.groups { walk(child, parentSelected: selected) }
        }
        walk(root, parentSelected: false)
        guard tops.count == 1, let top = tops.first, top.groupCount == selectedGroups.count else { return nil }
        return top.uuid
    }
}
