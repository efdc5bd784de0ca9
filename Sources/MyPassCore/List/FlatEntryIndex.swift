import MyPassKDBX

/// The flat list of a vault for a screen that filters it as the user types: the same entries,
/// order and rule as `Vault.flatEntries` and ``EntryList/displayedEntries(_:filter:searchText:)``,
/// kept compact for vaults of tens of thousands of entries.
///
/// It keeps the vault value (shared copy-on-write with the caller's), and per entry only where it
/// lives, its UUID and its folded search keys (title, user name, URL and tags, folded with
/// ``SearchFolding/fold(_:)``) packed into one byte buffer, so that a search scans bytes instead of
/// strings, and a ``FlatEntry`` is made only when one is asked for. A displayed list is a list of
/// positions (``Position``) into the index: no entry is copied when the search text changes.
public struct FlatEntryIndex: Sendable {
    /// A position in the index: 0 for the first entry of `Vault.flatEntries`' order.
    public typealias Position = Int

    /// The vault the index was made from.
    public let vault: Vault
    /// Per group slot: the child indices from the root to the group.
    private var groupPaths: [[Int]] = []
    private var groupUUIDs: [KDBXUUID] = []
    private var breadcrumbs: [[String]] = []
    private var groupSearchable: [Bool] = []
    /// Per entry: its group slot and its index in that group's entries.
    private var entryGroup: [Int32] = []
    private var entryIndex: [Int32] = []
    private var uuids: [KDBXUUID] = []
    /// The folded keys of every entry, each key followed by 0xFF (never a byte of UTF-8, so a
    /// match cannot run from one key into the next); entry `p` owns `keyBytes[keyEnds[p - 1]..<keyEnds[p]]`.
    private var keyBytes: [UInt8] = []
    private var keyEnds: [Int32] = []

    /// Indexes the current entries of `vault` (not history), group by group in pre-order.
    public init(_ vault: Vault) {
        self.vault = vault
        let bin = vault.meta.recycleBinUUID
        func walk(_ group: Group, path: [Int], crumbs: [String], searchable: Bool) {
            let enabled = group.uuid == bin && !bin.isZero ? false : (group.enableSearching ?? searchable)
            let slot = Int32(groupUUIDs.count)
            groupPaths.append(path)
            groupUUIDs.append(group.uuid)
            breadcrumbs.append(crumbs)
            groupSearchable.append(enabled)
            for (index, entry) in group.entries.enumerated() {
                entryGroup.append(slot)
                entryIndex.append(Int32(index))
                uuids.append(entry.uuid)
                Self.appendKey(entry.title, to: &keyBytes)
                Self.appendKey(entry.userName, to: &keyBytes)
                Self.appendKey(entry.url, to: &keyBytes)
                for tag in entry.tags { Self.appendKey(tag, to: &keyBytes) }
                keyEnds.append(Int32(keyBytes.count))
            }
            for (index, child) in group.groups.enumerated() {
                walk(child, path: path + [index], crumbs: crumbs + [child.name], searchable: enabled)
            }
        }
        walk(vault.root, path: [], crumbs: [], searchable: vault.root.enableSearching ?? true)
    }

    private static func appendKey(_ text: String, to bytes: inout [UInt8]) {
        if !text.isEmpty { bytes.append(contentsOf: SearchFolding.fold(text).utf8) }
        bytes.append(0xFF)
    }

    /// The number of entries.
    public var count: Int { uuids.count }

    /// The UUID of the entry at `position`.
    public func uuid(at position: Position) -> KDBXUUID { uuids[position] }

    /// The entry at `position` (a copy of the model value).
    public func entry(at position: Position) -> Entry {
        group(slot: Int(entryGroup[position])).entries[Int(entryIndex[position])]
    }

    /// The breadcrumb of the entry at `position`: its ancestor groups without the root.
    public func breadcrumb(at position: Position) -> [String] { breadcrumbs[Int(entryGroup[position])] }

    /// The UUID of the group that holds the entry at `position`.
    public func groupUUID(at position: Position) -> KDBXUUID { groupUUIDs[Int(entryGroup[position])] }

    /// The entry at `position` as the flat list's ``FlatEntry``.
    public subscript(position: Position) -> FlatEntry {
        let slot = Int(entryGroup[position])
        let start = position == 0 ? 0 : Int(keyEnds[position - 1])
        let keys = keyBytes[start..<Int(keyEnds[position])].split(separator: 0xFF, omittingEmptySubsequences: false)
            .dropLast().filter { !$0.isEmpty }.map { String(decoding: $0, as: UTF8.self) }
        return FlatEntry(entry: entry(at: position), groupUUID: groupUUIDs[slot], breadcrumb: breadcrumbs[slot],
                         isSearchable: groupSearchable[slot], searchKeys: keys)
    }

    /// The position of the entry `uuid`, or `nil`.
    public func position(of uuid: KDBXUUID) -> Position? { uuids.firstIndex(of: uuid) }

    /// The position of `uuid` within `positions`, or `nil`.
    public func index(of uuid: KDBXUUID, in positions: [Position]) -> Int? {
        positions.firstIndex(where: { uuids[$0] == uuid })
    }

    /// Every position, in order.
    public var allPositions: [Position] { Array(0..<count) }

    /// The positions displayed for `filter` and `searchText`, in order: the rule of
    /// ``EntryList/displayedEntries(_:filter:searchText:)``. With `among`, only those positions
    /// (in their order) are considered: when the search text extends the one that gave `among`
    /// under the same filter, the result is the same as from every position, found faster.
    public func displayed(filter: GroupFilter, searchText: String, among: [Position]? = nil) -> [Position] {
        let inFilter = groupUUIDs.indices.map { filter.isEmpty ? groupSearchable[$0] : filter.isSelected(groupUUIDs[$0]) }
        let needle = Array(SearchFolding.fold(searchText.trimmed).utf8)
        var out: [Position] = []
        func consider(_ position: Position) {
            guard inFilter[Int(entryGroup[position])] else { return }
            if needle.isEmpty || keysContain(position, needle) { out.append(position) }
        }
        if let among {
            out.reserveCapacity(among.count)
            for position in among { consider(position) }
        } else {
            out.reserveCapacity(count)
            for position in 0..<count { consider(position) }
        }
        return out
    }

    private func keysContain(_ position: Position, _ needle: [UInt8]) -> Bool {
        let start = position == 0 ? 0 : Int(keyEnds[position - 1])
        return SearchFolding.contains(keyBytes, in: start..<Int(keyEnds[position]), needle: needle)
    }

    private func group(slot: Int) -> Group {
        var group = vault.root
        for index in groupPaths[slot] { group = group.groups[index] }
        return group
    }
}
