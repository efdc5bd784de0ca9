import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX
import Testing

@Suite("Editing with KeePass semantics")
struct EditingTests {
    let t1 = KDBXTime(year: 2026, month: 5, day: 6, hour: 7, minute: 8, second: 9)!
    let t2 = KDBXTime(year: 2026, month: 6, day: 1)!

    @Test func addEntrySetsTimes() throws {
        var s = SampleVault()
        var entry = Entry()
        entry.title = "New"
        let uuid = try s.vault.addEntry(entry, to: s.personal, now: t1)
        let added = try #require(s.vault.entry(withUUID: uuid))
        #expect(added.times == Times(all: t1))
        #expect(s.vault.root.parentOfEntry(uuid)?.uuid == s.personal)
        #expect(s.vault.group(withUUID: s.personal)?.entries.last?.title == "New")
        // A UUID already in use is replaced.
        let copy = try s.vault.addEntry(added, to: s.root, now: t1)
        #expect(copy != uuid)
        #expect(throws: CoreError(.notFound)) { try s.vault.addEntry(entry, to: .random(), now: t1) }
    }

    @Test func editKeepsPreviousStateInHistory() throws {
        var s = SampleVault()
        let uuid = s.uuid(ofEntry: "GitHub")
        let before = try #require(s.vault.entry(withUUID: uuid))
        let changed = try s.vault.editEntry(uuid, now: t1) { entry in
            entry.title = "GitHub (work)"
            entry.password = "n3w-secret"
        }
        #expect(changed)
        let after = try #require(s.vault.entry(withUUID: uuid))
        #expect(after.title == "GitHub (work)")
        #expect(after.password.revealed == "n3w-secret")
        #expect(after.history.count == 1)
        #expect(after.history[0].title == "GitHub")
        #expect(after.history[0].password.revealed == "pw-GitHub")
        #expect(after.history[0].times == before.times)
        #expect(after.times.lastModification == t1)
        #expect(after.times.lastAccess == t1)
        #expect(after.times.creation == before.times.creation)
        #expect(after.times.usageCount == before.times.usageCount + 1)
        // No change: no history item, no time change.
        let unchanged = try s.vault.editEntry(uuid, now: t2) { entry in entry.title = "GitHub (work)" }
        #expect(!unchanged)
        #expect(s.vault.entry(withUUID: uuid)?.history.count == 1)
        #expect(s.vault.entry(withUUID: uuid)?.times.lastModification == t1)
        // A failing body leaves the entry as it was.
        #expect(throws: CoreError(.invalidOperation)) {
            try s.vault.editEntry(uuid, now: t2) { entry in
                entry.title = "half done"
                try entry.setCustomField("Password", value: "x", isProtected: true)
            }
        }
        #expect(s.vault.entry(withUUID: uuid)?.title == "GitHub (work)")
    }

    @Test func historyIsTrimmedToItemLimit() throws {
        var s = SampleVault()
        s.vault.meta.historyMaxItems = 3
        let uuid = s.uuid(ofEntry: "Mail")
        for i in 1...5 {
            try s.vault.editEntry(uuid, now: t1) { $0.title = "Mail \(i)" }
        }
        let entry = try #require(s.vault.entry(withUUID: uuid))
        #expect(entry.history.map(\.title) == ["Mail 2", "Mail 3", "Mail 4"])
        #expect(entry.title == "Mail 5")
        #expect(entry.history.allSatisfy { $0.history.isEmpty })
    }

    @Test func unlimitedAndZeroItemLimits() throws {
        var s = SampleVault()
        s.vault.meta.historyMaxItems = -1
        s.vault.meta.historyMaxSize = -1
        let uuid = s.uuid(ofEntry: "Mail")
        for i in 1...15 { try s.vault.editEntry(uuid, now: t1) { $0.notes = "note \(i)" } }
        #expect(s.vault.entry(withUUID: uuid)?.history.count == 15)
        s.vault.meta.historyMaxItems = 0
        try s.vault.editEntry(uuid, now: t1) { $0.notes = "last" }
        #expect(s.vault.entry(withUUID: uuid)?.history.isEmpty == true)
    }

    @Test func historyIsTrimmedToSizeLimit() throws {
        var s = SampleVault()
        let uuid = s.uuid(ofEntry: "Mail")
        try s.vault.editEntry(uuid, now: t1) { try $0.addAttachment(named: "big.bin", data: [UInt8](repeating: 7, count: 4000)) }
        try s.vault.editEntry(uuid, now: t1) { $0.notes = "one" }
        try s.vault.editEntry(uuid, now: t1) { $0.notes = "two" }
        let entry = try #require(s.vault.entry(withUUID: uuid))
        #expect(entry.history.count == 3)
        let sizes = entry.history.map(\.approximateSize)
        #expect(sizes[0] < 4000 && sizes[1] > 4000 && sizes[2] > 4000)
        // Limit between the smallest and the total: the oldest items go until the rest fits.
        s.vault.meta.historyMaxSize = Int64(sizes[2] + 10)
        try s.vault.editEntry(uuid, now: t2) { $0.notes = "three" }
        let trimmed = try #require(s.vault.entry(withUUID: uuid))
        #expect(trimmed.history.map(\.notes) == ["two"])
    }

    @Test func approximateSizeCountsContent() {
        var entry = Entry()
        entry.title = "abc"                     // 40 bytes; 5 + 3 units
        entry.password = ProtectedString("xyz") // 40 bytes; 8 + 3 units
        entry.tags = ["t1"]                     // 8 bytes; 2 units
        entry.attachments = [Attachment(name: "a", data: [1, 2, 3])]  // 65 + 3 bytes; 1 unit
        // KeePass's PwEntry.GetSize: 276 fixed bytes, per-item overheads, two bytes per UTF-16 unit.
        #expect(entry.approximateSize == 276 + 40 + 40 + 8 + 65 + 3 + 2 * (8 + 11 + 2 + 1))
    }

    @Test func moveEntryRecordsLocation() throws {
        var s = SampleVault()
        let uuid = s.uuid(ofEntry: "GitHub")
        try s.vault.moveEntry(uuid, to: s.personal, now: t1)
        let moved = try #require(s.vault.entry(withUUID: uuid))
        #expect(s.vault.root.parentOfEntry(uuid)?.uuid == s.personal)
        #expect(moved.times.locationChanged == t1)
        #expect(moved.previousParentGroup == s.work)
        #expect(moved.history.isEmpty)
        #expect(s.vault.group(withUUID: s.work)?.entries.isEmpty == true)
        #expect(throws: CoreError(.notFound)) { try s.vault.moveEntry(uuid, to: .random(), now: t1) }
    }

    @Test func deleteMovesToExistingRecycleBinThenDeletesForGood() throws {
        var s = SampleVault()
        let uuid = s.uuid(ofEntry: "GitHub")
        #expect(try s.vault.deleteEntry(uuid, now: t1) == .movedToRecycleBin(s.bin))
        #expect(s.vault.root.parentOfEntry(uuid)?.uuid == s.bin)
        #expect(s.vault.entry(withUUID: uuid)?.previousParentGroup == s.work)
        #expect(s.vault.entry(withUUID: uuid)?.times.locationChanged == t1)
        #expect(s.vault.isEntryInRecycleBin(uuid))
        #expect(s.vault.deletedObjects.isEmpty)
        #expect(try s.vault.deleteEntry(uuid, now: t2) == .deletedPermanently)
        #expect(s.vault.entry(withUUID: uuid) == nil)
        #expect(s.vault.deletedObjects == [DeletedObject(uuid: uuid, deletionTime: t2)])
    }

    @Test func deleteCreatesTheRecycleBinTheKeePassWay() throws {
        var vault = Vault.new(name: "Fresh", now: SampleVault.t0)
        var entry = Entry()
        entry.title = "E"
        let uuid = try vault.addEntry(entry, to: vault.root.uuid, now: t1)
        #expect(vault.meta.recycleBinUUID.isZero)
        let binChanged = vault.meta.recycleBinChanged
        guard case .movedToRecycleBin(let binUUID) = try vault.deleteEntry(uuid, now: t2) else {
            Issue.record("not moved to the bin")
            return
        }
        let bin = try #require(vault.group(withUUID: binUUID))
        #expect(bin.name == "Recycle Bin")
        #expect(bin.iconID == 43)
        #expect(bin.enableSearching == false)
        #expect(bin.enableAutoType == false)
        #expect(bin.isExpanded == true)  // KeePass: !RecycleBinCollapse, off by default
        #expect(bin.times.creation == t2)
        #expect(vault.root.groups.last?.uuid == binUUID)
        #expect(vault.meta.recycleBinUUID == binUUID)
        #expect(vault.meta.recycleBinChanged == binChanged)  // KeePass does not stamp it here
        #expect(vault.recycleBin?.entries.map(\.uuid) == [uuid])
        // The bin is out of the unfiltered list and of search.
        #expect(EntryList.displayedEntries(vault.flatEntries, filter: GroupFilter(), searchText: "").isEmpty)
        // A second delete elsewhere reuses it.
        let other = try vault.addEntry(entry, to: vault.root.uuid, now: t1)
        #expect(try vault.deleteEntry(other, now: t2) == .movedToRecycleBin(binUUID))
        #expect(vault.root.groups.count == 1)
    }

    @Test func deleteWithBinDisabledIsPermanent() throws {
        var s = SampleVault()
        s.vault.meta.recycleBinEnabled = false
        let uuid = s.uuid(ofEntry: "Mail")
        #expect(try s.vault.deleteEntry(uuid, now: t1) == .deletedPermanently)
        #expect(s.vault.deletedObjects == [DeletedObject(uuid: uuid, deletionTime: t1)])
        #expect(throws: CoreError(.notFound)) { try s.vault.deleteEntry(uuid, now: t1) }
    }

    @Test func deleteGroupTakesItsSubtree() throws {
        var s = SampleVault()
        #expect(try s.vault.deleteGroup(s.work, now: t1) == .movedToRecycleBin(s.bin))
        #expect(s.vault.root.parentOfGroup(s.work)?.uuid == s.bin)
        #expect(s.vault.group(withUUID: s.work)?.previousParentGroup == s.root)
        #expect(s.vault.isGroupInRecycleBin(s.email))
        #expect(s.vault.isEntryInRecycleBin(s.uuid(ofEntry: "Mail")))
        // Deleting it again, from the bin, removes it for good with one record per object,
        // in KeePass's DeleteAllObjects order: entries, then each subgroup's content and the subgroup, then the group.
        let github = s.uuid(ofEntry: "GitHub"), mail = s.uuid(ofEntry: "Mail")
        #expect(try s.vault.deleteGroup(s.work, now: t2) == .deletedPermanently)
        #expect(s.vault.deletedObjects.map(\.uuid) == [github, mail, s.email, s.work])
        #expect(s.vault.deletedObjects.allSatisfy { $0.deletionTime == t2 })
        #expect(s.vault.group(withUUID: s.work) == nil)
        #expect(s.vault.entry(withUUID: mail) == nil)
    }

    @Test func deletingTheBinItselfIsPermanent() throws {
        var s = SampleVault()
        let old = s.uuid(ofEntry: "Old")
        #expect(try s.vault.deleteGroup(s.bin, now: t1) == .deletedPermanently)
        #expect(s.vault.deletedObjects.map(\.uuid) == [old, s.bin])
    }

    @Test func groupOperations() throws {
        var s = SampleVault()
        let new = try s.vault.addGroup(named: "Banking", in: s.personal, now: t1)
        let group = try #require(s.vault.group(withUUID: new))
        #expect(group.iconID == 48)
        #expect(group.times == Times(all: t1))
        #expect(s.vault.path(ofGroup: new) == ["Personal", "Banking"])
        #expect(try s.vault.editGroup(new, now: t2) { $0.name = "Bank" })
        #expect(s.vault.group(withUUID: new)?.times.lastModification == t2)
        #expect(try !s.vault.editGroup(new, now: t2) { $0.name = "Bank" })
        try s.vault.moveGroup(new, to: s.work, now: t2)
        #expect(s.vault.path(ofGroup: new) == ["Work", "Bank"])
        #expect(s.vault.group(withUUID: new)?.previousParentGroup == s.personal)
        #expect(s.vault.group(withUUID: new)?.times.locationChanged == t2)
        #expect(throws: CoreError(.invalidOperation)) { try s.vault.moveGroup(s.work, to: s.email, now: t2) }
        #expect(throws: CoreError(.invalidOperation)) { try s.vault.moveGroup(s.work, to: s.work, now: t2) }
        #expect(throws: CoreError(.invalidOperation)) { try s.vault.moveGroup(s.root, to: s.work, now: t2) }
        #expect(throws: CoreError(.invalidOperation)) { try s.vault.deleteGroup(s.root, now: t2) }
        #expect(throws: CoreError(.notFound)) { try s.vault.addGroup(named: "x", in: .random(), now: t2) }
    }

    @Test func customFieldsTagsExpiry() throws {
        var s = SampleVault()
        let uuid = s.uuid(ofEntry: "GitHub")
        try s.vault.editEntry(uuid, now: t1) { entry in
            try entry.setCustomField("PIN", value: "1234", isProtected: true)
            try entry.setCustomField("Recovery", value: "codes", isProtected: false)
            entry.setTags([" work ", "dev;ops", "dev", ""])
            entry.setExpiry(t2)
        }
        var entry = try #require(s.vault.entry(withUUID: uuid))
        #expect(entry.field(named: "PIN")?.isProtected == true)
        #expect(entry.field(named: "PIN")?.value == "1234")
        #expect(entry.field(named: "Recovery")?.isProtected == false)
        #expect(entry.customFields.map(\.key) == ["PIN", "Recovery"])
        #expect(entry.tags == ["work", "dev", "ops"])
        #expect(entry.times.expires && entry.times.expiry == t2)
        #expect(entry.isExpired(at: t2) && !entry.isExpired(at: t1))
        try entry.renameCustomField("PIN", to: "Card PIN")
        #expect(entry.customFields.map(\.key) == ["Card PIN", "Recovery"])
        #expect(entry.field(named: "Card PIN")?.isProtected == true)
        #expect(throws: CoreError(.invalidOperation)) { try entry.renameCustomField("Card PIN", to: "Recovery") }
        #expect(throws: CoreError(.invalidOperation)) { try entry.renameCustomField("Card PIN", to: "Title") }
        #expect(throws: CoreError(.invalidOperation)) { try entry.setCustomField("", value: "x", isProtected: false) }
        #expect(throws: CoreError(.notFound)) { try entry.removeCustomField("Nope") }
        #expect(throws: CoreError(.notFound)) { try entry.removeCustomField("Title") }
        try entry.removeCustomField("Recovery")
        #expect(entry.customFields.map(\.key) == ["Card PIN"])
        entry.setExpiry(nil)
        #expect(!entry.times.expires && !entry.isExpired(at: .maximum))
    }

    @Test func attachments() throws {
        var entry = Entry()
        try entry.addAttachment(named: "a.txt", data: Array("hello".utf8))
        try entry.addAttachment(named: "b.bin", data: [0, 1, 2])
        #expect(throws: CoreError(.invalidOperation)) { try entry.addAttachment(named: "a.txt", data: []) }
        try entry.renameAttachment("a.txt", to: "greeting.txt")
        #expect(entry.attachments.map(\.name) == ["greeting.txt", "b.bin"])
        #expect(throws: CoreError(.invalidOperation)) { try entry.renameAttachment("b.bin", to: "greeting.txt") }
        #expect(throws: CoreError(.notFound)) { try entry.renameAttachment("zzz", to: "y") }
        try entry.deleteAttachment("b.bin")
        #expect(throws: CoreError(.notFound)) { try entry.deleteAttachment("b.bin") }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mypass-core-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: url) }
        try #require(entry.attachment(named: "greeting.txt")).export(to: url)
        #expect(try Data(contentsOf: url) == Data("hello".utf8))
        let missingDir = url.appendingPathComponent("no/such/dir/file")
        #expect(throws: CoreError(.io)) { try entry.attachments[0].export(to: missingDir) }
    }
}
