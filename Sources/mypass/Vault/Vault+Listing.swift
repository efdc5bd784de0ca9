import MyPassCore
import MyPassKDBX

extension Vault {
    /// The entries the app's list shows for `groups` (each selecting its subtree; none: no
    /// filter) and `search`: core's flat list, group filter and search, in the list's order.
    func displayedEntries(groups: [KDBXUUID], search: String) -> [FlatEntry] {
        var filter = GroupFilter()
        for uuid in groups { filter.select(uuid, in: root) }
        return EntryList.displayedEntries(flatEntries, filter: filter, searchText: search)
    }
}

extension LocatedEntry {
    /// A list item of core's flat list as a located entry.
    init(_ item: FlatEntry) {
        self.init(entry: item.entry, groupPath: item.breadcrumb, groupUUID: item.groupUUID)
    }
}
