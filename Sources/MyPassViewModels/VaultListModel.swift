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
        self.init(entry: item.entry, breadcrumb: item.breadcrumb)
    }

    init(entry: Entry, breadcrumb: [String]) {
        id = entry.uuid
        iconID = entry.iconID
        iconSymbol = KeePassIconMapper.symbolName(forIconID: entry.iconID)
        title = entry.title
        userName = entry.userName
        self.breadcrumb = breadcrumb
    }
}

/// Entries of the list by position, made on access (a list of 50,000 entries makes only the
/// entries a view reads): ``VaultListModel/allEntries`` and ``VaultListModel/displayedEntries``.
@available(iOS 17, macOS 14, *)
public struct FlatEntries: RandomAccessCollection, Sendable {
    let index: FlatEntryIndex?
    let positions: [FlatEntryIndex.Position]?

    /// 0.
    public var startIndex: Int { 0 }
    /// The number of entries.
    public var endIndex: Int { positions?.count ?? index?.count ?? 0 }

    /// The entry at `offset` (made now: a `FlatEntry` with a copy of the model value).
    public subscript(offset: Int) -> FlatEntry {
        guard let index else { preconditionFailure("an empty list has no entries") }
        return index[positions?[offset] ?? offset]
    }

    /// The row at `offset`, without the search keys a ``FlatEntry`` carries.
    func row(_ offset: Int) -> VaultListRow {
        guard let index else { preconditionFailure("an empty list has no rows") }
        let position = positions?[offset] ?? offset
        return VaultListRow(entry: index.entry(at: position), breadcrumb: index.breadcrumb(at: position))
    }
}

/// The rows of the list, made on access row by row.
@available(iOS 17, macOS 14, *)
public struct VaultListRows: RandomAccessCollection, Sendable {
    let entries: FlatEntries

    /// 0.
    public var startIndex: Int { 0 }
    /// The number of rows.
    public var endIndex: Int { entries.count }

    /// The row at `offset`.
    public subscript(offset: Int) -> VaultListRow { entries.row(offset) }
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
    /// Every current entry (none while locked), made on access.
    public var allEntries: FlatEntries { FlatEntries(index: index, positions: nil) }
    /// The search text; typing filters as you type (text appended to the previous search
    /// narrows the previous result instead of searching every entry again).
    public var searchText: String = "" {
        didSet { if searchText != oldValue { refresh(narrowing: searchText.hasPrefix(oldValue) && !oldValue.isEmpty) } }
    }
    /// The group filter (empty: every searchable group).
    public var filter = GroupFilter() {
        didSet { if filter != oldValue { refresh(narrowing: false) } }
    }
    /// The rows displayed, in vault order: made on access, row by row (a list of 50,000 entries
    /// builds only the rows a view shows).
    public var rows: VaultListRows { VaultListRows(entries: displayedEntries) }
    /// The selected entry, when it is displayed.
    public var selection: KDBXUUID? {
        didSet { if selection != oldValue { selectedOffset = selection.flatMap { index?.index(of: $0, in: displayed) } } }
    }
    /// The offset of ``selection`` in ``rows``.
    public private(set) var selectedOffset: Int?
    /// Whether the vault is locked (the list is empty then).
    public private(set) var isLocked = true

    /// The displayed entries (what ``rows`` shows), made on access.
    public var displayedEntries: FlatEntries { FlatEntries(index: index, positions: displayed) }

    /// The number of entries of the vault (``allEntries``' count).
    public var entryCount: Int { index?.count ?? 0 }

    @ObservationIgnored private var index: FlatEntryIndex?
    /// The positions in ``index`` of the displayed entries.
    private var displayed: [FlatEntryIndex.Position] = []

    /// An empty, locked list.
    public init() {}

    /// Shows `vault` (after an unlock, or after an edit or a save): the filter is pruned of
    /// groups that no longer exist; search text and selection are kept where they still apply.
    public func load(_ vault: Vault) {
        index = nil
        index = FlatEntryIndex(vault)
        isLocked = false
        var pruned = filter
        pruned.prune(in: vault.root)
        if pruned != filter { filter = pruned } else { refresh(narrowing: false) }
    }

    /// Forgets every entry (on lock): nothing of the vault stays in the model.
    public func clear() {
        index = nil
        displayed = []
        selection = nil
        searchText = ""
        filter = GroupFilter()
        isLocked = true
    }

    /// The displayed entry with `id`.
    public func entry(_ id: KDBXUUID) -> FlatEntry? {
        guard let index, let offset = index.index(of: id, in: displayed) else { return nil }
        return index[displayed[offset]]
    }

    /// Moves the selection by `offset` rows (clamped), selecting the first row when none is.
    public func moveSelection(by offset: Int) {
        guard let index, !displayed.isEmpty else { selection = nil; return }
        let next = selectedOffset.map { min(max($0 + offset, 0), displayed.count - 1) } ?? 0
        selection = index.uuid(at: displayed[next])
    }

    /// Recomputes the rows; a search text that extends the previous one filters the previous
    /// result (the same rule, on fewer entries).
    private func refresh(narrowing: Bool) {
        guard let index else { displayed = []; return }
        let previous = narrowing ? displayed : nil
        displayed = index.displayed(filter: filter, searchText: searchText, among: previous)
        selectedOffset = selection.flatMap { index.index(of: $0, in: displayed) }
        if selectedOffset == nil { selection = nil }
    }
}
