import MyPassKDBX

/// One current entry of the vault as the flat list shows it: the entry, where it lives, and what
/// search compares.
public struct FlatEntry: Sendable, Identifiable {
    /// The entry (a copy of the model value).
    public let entry: Entry
    /// The UUID of the group that directly holds the entry.
    public let groupUUID: KDBXUUID
    /// The names of the entry's ancestor groups without the root: `["Work", "Email"]` for an entry
    /// in root > Work > Email, `[]` for an entry directly in the root.
    public let breadcrumb: [String]
    /// Whether the entry's group allows searching (`Group.enableSearching`, inherited through
    /// `nil`; the recycle bin never does).
    public let isSearchable: Bool
    /// Title, user name, URL and tags, folded for search (``SearchFolding``).
    public let searchKeys: [String]

    /// The entry's UUID.
    public var id: KDBXUUID { entry.uuid }

    /// The breadcrumb joined for display (`Work › Email`).
    public func breadcrumbText(separator: String = " › ") -> String {
        breadcrumb.joined(separator: separator)
    }
}

extension Vault {
    /// Every current entry (not history) with its breadcrumb, group by group in pre-order and in
    /// stored order within a group (the manifest's `entries` order), computed in one walk.
    public var flatEntries: [FlatEntry] {
        var out: [FlatEntry] = []
        out.reserveCapacity(128)
        let bin = meta.recycleBinUUID
        func walk(_ group: Group, path: [String], searchable: Bool) {
            let enabled = group.uuid == bin && !bin.isZero ? false : (group.enableSearching ?? searchable)
            for entry in group.entries {
                var keys = [entry.title, entry.userName, entry.url]
                keys.append(contentsOf: entry.tags)
                out.append(FlatEntry(entry: entry, groupUUID: group.uuid, breadcrumb: path, isSearchable: enabled,
                                     searchKeys: keys.map(SearchFolding.fold)))
            }
            for child in group.groups {
                walk(child, path: path + [child.name], searchable: enabled)
            }
        }
        walk(root, path: [], searchable: root.enableSearching ?? true)
        return out
    }
}
