import MyPassCore
import MyPassKDBX
import Testing

@Suite("Flat list, group filter, search, group picker")
struct ListTests {
    let sample = SampleVault()

    func titles(_ filter: GroupFilter = GroupFilter(), _ search: String = "") -> [String] {
        EntryList.displayedEntries(sample.vault.flatEntries, filter: filter, searchText: search).map(\.entry.title)
    }

    @Test func flatEntriesCarryBreadcrumbs() {
        let flat = sample.vault.flatEntries
        #expect(flat.map(\.entry.title) == ["Root Entry", "GitHub", "Mail", "Café Crème", "Secret", "Inner", "Visible", "Old"])
        #expect(flat.map(\.breadcrumb) == [[], ["Work"], ["Work", "Email"], ["Personal"], ["Hidden"],
                                           ["Hidden", "Child"], ["Hidden", "Override"], ["Recycle Bin"]])
        #expect(flat[2].breadcrumbText() == "Work › Email")
        #expect(flat[2].groupUUID == sample.email)
        #expect(flat.map(\.isSearchable) == [true, true, true, true, false, false, true, false])
    }

    @Test func unfilteredListLeavesOutNonSearchableGroups() {
        #expect(titles() == ["Root Entry", "GitHub", "Mail", "Café Crème", "Visible"])
    }

    @Test func searchFoldsCaseAndDiacritics() {
        #expect(titles(GroupFilter(), "cafe") == ["Café Crème"])
        #expect(titles(GroupFilter(), "CRÈME") == ["Café Crème"])
        #expect(titles(GroupFilter(), "creme") == ["Café Crème"])
        #expect(titles(GroupFilter(), "ZOE") == ["Café Crème"])
        #expect(titles(GroupFilter(), "food") == ["Café Crème"])
        #expect(titles(GroupFilter(), "GitHub.COM") == ["GitHub"])
        #expect(titles(GroupFilter(), "example") == ["Mail"])
        #expect(titles(GroupFilter(), "  ali ") == ["GitHub"])
        #expect(titles(GroupFilter(), "pw-") == [])           // passwords are not searched
        #expect(titles(GroupFilter(), "old").isEmpty)          // recycle bin
        #expect(titles(GroupFilter(), "secret").isEmpty)       // searching disabled
        #expect(titles(GroupFilter(), "inner").isEmpty)        // inherited from Hidden
        #expect(titles(GroupFilter(), "visible") == ["Visible"])
    }

    @Test func groupFilterSelectsSubtrees() {
        var filter = GroupFilter()
        filter.select(sample.work, in: sample.vault.root)
        #expect(filter.selectedGroups == [sample.work, sample.email])
        #expect(titles(filter) == ["GitHub", "Mail"])
        filter.deselect(sample.email, in: sample.vault.root)
        #expect(titles(filter) == ["GitHub"])
        filter.select(sample.personal, in: sample.vault.root)
        #expect(titles(filter) == ["GitHub", "Café Crème"])
        filter.deselect(sample.work, in: sample.vault.root)
        #expect(titles(filter) == ["Café Crème"])
        filter.clear()
        #expect(filter.isEmpty)
        #expect(titles(filter) == titles())
    }

    @Test func nonSearchableGroupsShowWhenSelected() {
        var filter = GroupFilter()
        filter.select(sample.bin, in: sample.vault.root)
        #expect(titles(filter) == ["Old"])
        #expect(titles(filter, "OLD") == ["Old"])
        filter.clear()
        filter.select(sample.hidden, in: sample.vault.root)
        #expect(titles(filter) == ["Secret", "Inner", "Visible"])
    }

    @Test func filterAndSearchIntersect() {
        var filter = GroupFilter()
        filter.select(sample.work, in: sample.vault.root)
        #expect(titles(filter, "mail") == ["Mail"])
        #expect(titles(filter, "cafe").isEmpty)
        #expect(titles(GroupFilter(), "mail") == ["Mail"])
    }

    @Test func pickerListsEveryGroupAndDefaultsSensibly() {
        let choices = GroupPicker.choices(in: sample.vault)
        #expect(choices.map { $0.displayPath() } == [
            "Passwords", "Passwords / Work", "Passwords / Work / Email", "Passwords / Personal",
            "Passwords / Hidden", "Passwords / Hidden / Child", "Passwords / Hidden / Override",
            "Passwords / Recycle Bin",
        ])
        #expect(choices.map(\.depth) == [0, 1, 2, 1, 1, 2, 2, 1])
        var filter = GroupFilter()
        #expect(GroupPicker.defaultGroup(in: sample.vault, filter: filter) == sample.root)
        filter.select(sample.work, in: sample.vault.root)
        #expect(GroupPicker.defaultGroup(in: sample.vault, filter: filter) == sample.work)
        filter.deselect(sample.email, in: sample.vault.root)  // Work without its subtree
        #expect(GroupPicker.defaultGroup(in: sample.vault, filter: filter) == sample.root)
        filter.clear()
        filter.select(sample.email, in: sample.vault.root)
        #expect(GroupPicker.defaultGroup(in: sample.vault, filter: filter) == sample.email)
        filter.select(sample.personal, in: sample.vault.root)  // two subtrees
        #expect(GroupPicker.defaultGroup(in: sample.vault, filter: filter) == sample.root)
        // A selected group that has since been deleted falls back to the root.
        var vault = sample.vault
        var single = GroupFilter()
        single.select(sample.personal, in: vault.root)
        vault.root.removeGroup(withUUID: sample.personal)
        #expect(GroupPicker.defaultGroup(in: vault, filter: single) == vault.root.uuid)
        single.prune(in: vault.root)
        #expect(single.isEmpty)
    }
}
