import MyPassCore
import MyPassKDBX
import Observation

/// The group filter's tree: groups only (never entries), each with its expanded state and a
/// checkbox that selects or deselects its whole subtree, and "Clear filter". Kept apart from the
/// list: the caller hands ``filter`` to ``VaultListModel/filter`` when it changes.
@available(iOS 17, macOS 14, *)
@MainActor
@Observable
public final class GroupFilterModel {
    /// A checkbox's state: its group selected, not, or (for a group) only part of its subtree.
    public enum CheckState: Sendable, Equatable {
        case on, off, mixed
    }

    /// One visible row of the tree.
    public struct Row: Sendable, Identifiable, Equatable {
        /// The group's UUID.
        public let id: KDBXUUID
        /// The group's name.
        public let name: String
        /// The SF Symbol of the group's KeePass icon.
        public let iconSymbol: String
        /// Nesting depth: 0 for the root group.
        public let depth: Int
        /// Whether the group has subgroups (shows a disclosure triangle).
        public let hasChildren: Bool
        /// Whether its subgroups are shown.
        public let isExpanded: Bool
        /// The checkbox.
        public let check: CheckState
        /// Whether it is the recycle bin.
        public let isRecycleBin: Bool
    }

    /// The selected groups (an empty filter: no filtering).
    public private(set) var filter = GroupFilter()
    /// The rows shown: the root, then the groups whose ancestors are all expanded, in pre-order.
    public private(set) var rows: [Row] = []
    /// Expanded groups (the root and its children's parents start expanded).
    public private(set) var expanded: Set<KDBXUUID> = []

    @ObservationIgnored private var root: Group?
    @ObservationIgnored private var recycleBin: KDBXUUID = .zero

    /// An empty tree (locked).
    public init() {}

    /// Shows the groups of `vault`; the root starts expanded, selections of vanished groups are dropped.
    public func load(_ vault: Vault) {
        let isFirstLoad = root == nil
        root = vault.root
        recycleBin = vault.meta.recycleBinUUID
        if isFirstLoad { expanded = [vault.root.uuid] }
        var pruned = filter
        pruned.prune(in: vault.root)
        filter = pruned
        rebuild()
    }

    /// Forgets the tree and the selection (on lock).
    public func clear() {
        root = nil
        filter = GroupFilter()
        rows = []
        expanded = []
    }

    /// Ticks or unticks the checkbox of `group`: selects its whole subtree, or deselects it.
    public func toggle(_ group: KDBXUUID) {
        guard let root else { return }
        if check(of: group) == .on { filter.deselect(group, in: root) } else { filter.select(group, in: root) }
        rebuild()
    }

    /// Shows or hides the subgroups of `group`.
    public func toggleExpanded(_ group: KDBXUUID) {
        if expanded.contains(group) { expanded.remove(group) } else { expanded.insert(group) }
        rebuild()
    }

    /// "Clear filter": no group selected.
    public func clearFilter() {
        filter.clear()
        rebuild()
    }

    /// The checkbox state of `group`.
    public func check(of group: KDBXUUID) -> CheckState {
        rows.first(where: { $0.id == group })?.check ?? (filter.isSelected(group) ? .on : .off)
    }

    private func rebuild() {
        guard let root else { rows = []; return }
        var out: [Row] = []
        /// Returns the subtree's state.
        @discardableResult
        func walk(_ group: Group, depth: Int, visible: Bool) -> CheckState {
            let index = out.count
            if visible {
                out.append(Row(id: group.uuid, name: group.name, iconSymbol: KeePassIconMapper.symbolName(forIconID: group.iconID),
                               depth: depth, hasChildren: !group.groups.isEmpty, isExpanded: expanded.contains(group.uuid),
                               check: .off, isRecycleBin: group.uuid == recycleBin && !recycleBin.isZero))
            }
            var state: CheckState = filter.isSelected(group.uuid) ? .on : .off
            let showChildren = visible && expanded.contains(group.uuid)
            for child in group.groups {
                let childState = walk(child, depth: depth + 1, visible: showChildren)
                if childState != state { state = .mixed }
            }
            if visible {
                let row = out[index]
                out[index] = Row(id: row.id, name: row.name, iconSymbol: row.iconSymbol, depth: row.depth, hasChildren: row.hasChildren,
                                 isExpanded: row.isExpanded, check: state, isRecycleBin: row.isRecycleBin)
            }
            return state
        }
        walk(root, depth: 0, visible: true)
        rows = out
    }
}
