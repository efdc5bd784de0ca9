import MyPassCore
import MyPassKDBX

extension Vault {
    /// The entries the app's list shows for `groups` (each selecting its subtree; none: no
    /// filter) and `search`: core's flat list, group filter and search, in the list's order.
    func displayedEntries(groups: [KDBXUUID], search: String) -> [LocatedEntry] {
        var filter = GroupFilter()
        for uuid in groups { filter.select(uuid, in: root) }
        return EntryList.displayedEntries(flatEntries, filter: filter, searchText: search).map {
            LocatedEntry(entry: $0.entry, groupPath: $0.breadcrumb, groupUUID: $0.groupUUID)
        }
    }
}
