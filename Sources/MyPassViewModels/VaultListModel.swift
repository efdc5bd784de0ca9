import MyPassCore
import MyPassKDBX
import Observation

/// One row of the vault list: what the app's list cell shows.
@available(iOS 17, macOS 14, *)
public struct VaultListRow: Sendable, Identifiable, Equatable {
    /// The entry's UUID.
    public let id: KDBXUUID
    /// The SF Symbol for the entry's KeePass icon index (`KeePassIconMapper`).
    public let iconSymbol: String
    /// The KeePass standard icon index (0-68).
    public let iconID: Int
    /// `Title`.
    public let title: String
    /// `UserName`.
    public let userName: String
    /// The group path without the root group (`["Work", "Email"]`).
    public let breadcrumb: [String]

    /// The second line: `user name · Group > Subgroup` (either part alone when the other is empty).
    public var subtitle: String {
        let path = breadcrumb.joined(separator: " > ")
        switch (userName.isEmpty, path.isEmpty) {
        case (false, false): return userName + " · " + path
        case (false, true): return userName
        default: return path
        }
    }

    init(_ item: FlatEntry) {
        id = item.entry.uuid
        iconID = item.entry.iconID
        iconSymbol = KeePassIconMapper.symbolName(forIconID: item.entry.iconID)
        title = item.entry.title
        userName = item.entry.userName
        breadcrumb = item.breadcrumb
    }
}

/// The vault list screen: every entry of the vault as one flat list, the search text (always
/// visible), the selected groups of the filter, and the selection. Displayed entries are the
/// group filter, then the search, combined by AND (`EntryList/displayedEntries(_:filter:searchText:)`).
///
/// The group filter lives in its own model (``GroupFilterModel``); the caller wires the two
/// (`list.filter = groups.filter` when the checkboxes change).
@available(iOS 17, macOS 14, *)
@MainActor
@Observable
public final class VaultListModel {
    /// Every current entry (none while locked).
    public private(set) var allEntries: [FlatEntry] = []
    /// The search text; typing filters as you type.
    public var searchText: String = "" {
        didSet { if searchText != oldValue { refresh(narrowing: searchText.hasPrefix(oldValue) && !oldValue.isEmpty) } }
    }
    /// The group filter (empty: every searchable group).
    public var filter = GroupFilter() {
        didSet { if filter != oldValue { refresh(narrowing: false) } }
    }
    /// The rows displayed, in vault order: made on access, row by row (a list of 50,000 entries
    /// builds only the rows a view shows).
    public var rows: LazyMapCollection<[FlatEntry], VaultListRow> { displayedEntries.lazy.map(VaultListRow.init) }
    /// The selected entry, when it is displayed.
    public var selection: KDBXUUID?
    /// Whether the vault is locked (the list is empty then).
    public private(set) var isLocked = true

    /// The displayed entries (what ``rows`` shows).
    public private(set) var displayedEntries: [FlatEntry] = []

    /// An empty, locked list.
    public init() {}

    /// Shows `vault` (after an unlock, or after an edit or a save): the filter is pruned of
    /// groups that no longer exist; search text and selection are kept where they still apply.
    public func load(_ vault: Vault) {
        allEntries = vault.flatEntries
        isLocked = false
        var pruned = filter
        pruned.prune(in: vault.root)
        if pruned != filter { filter = pruned } else { refresh(narrowing: false) }
    }

    /// Forgets every entry (on lock): nothing of the vault stays in the model.
    public func clear() {
        allEntries = []
        displayedEntries = []
        selection = nil
        searchText = ""
        filter = GroupFilter()
        isLocked = true
    }

    /// The displayed entry with `id`.
    public func entry(_ id: KDBXUUID) -> FlatEntry? { displayedEntries.first(where: { $0.id == id }) }

    /// Moves the selection by `offset` rows (clamped), selecting the first row when none is.
    public func moveSelection(by offset: Int) {
        let shown = displayedEntries
        guard !shown.isEmpty else { selection = nil; return }
        let current = selection.flatMap { id in shown.firstIndex(where: { $0.id == id }) }
        let next = current.map { min(max($0 + offset, 0), shown.count - 1) } ?? 0
        selection = shown[next].id
    }

    /// Recomputes the rows; a search text that extends the previous one filters the previous
    /// result (the same rule, on fewer entries).
    private func refresh(narrowing: Bool) {
        let source = narrowing ? displayedEntries : allEntries
        displayedEntries = EntryList.displayedEntries(source, filter: filter, searchText: searchText)
        if let selected = selection, !displayedEntries.contains(where: { $0.id == selected }) { selection = nil }
    }
}
