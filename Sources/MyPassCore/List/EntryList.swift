import MyPassKDBX

/// The list logic: which entries the list shows for a group filter and a search text.
public enum EntryList {
    /// The entries to display, in the order of `entries`.
    ///
    /// First the group filter: with a selection, keep the entries whose own group is selected
    /// (including groups with searching disabled, such as the recycle bin); without one, keep the
    /// entries of searchable groups. Then the search: keep entries whose title, user name, URL or
    /// one of whose tags contains `searchText`, ignoring case and diacritics. Both together give
    /// their intersection; an empty (or white-space only) search text keeps everything the filter kept.
    public static func displayedEntries(_ entries: [FlatEntry], filter: GroupFilter, searchText: String) -> [FlatEntry] {
        let needle = SearchFolding.fold(searchText.trimmed)
        return entries.filter { item in
            let inFilter = filter.isEmpty ? item.isSearchable : filter.isSelected(item.groupUUID)
            guard inFilter else { return false }
            return matches(item, foldedNeedle: needle)
        }
    }

    /// The search alone, without a group filter: the items (in order) whose title, user name, URL
    /// or one of whose tags contains `searchText`, ignoring case and diacritics; everything for an
    /// empty search text. The same rule as ``displayedEntries(_:filter:searchText:)``, for the
    /// full model's ``FlatEntry`` and the ``CredentialIndex``'s ``IndexedCredential`` alike.
    public static func searchResults<Item: SearchableEntry>(_ items: [Item], searchText: String) -> [Item] {
        let needle = SearchFolding.fold(searchText.trimmed)
        guard !needle.isEmpty else { return items }
        return items.filter { matches($0, foldedNeedle: needle) }
    }

    static func matches(_ item: some SearchableEntry, foldedNeedle needle: String) -> Bool {
        needle.isEmpty || item.searchKeys.contains(where: { SearchFolding.contains($0, folded: needle) })
    }
}

/// What the list's search compares of an entry.
public protocol SearchableEntry {
    /// Title, user name, URL and tags, folded with ``SearchFolding/fold(_:)``.
    var searchKeys: [String] { get }
}

extension FlatEntry: SearchableEntry {}
