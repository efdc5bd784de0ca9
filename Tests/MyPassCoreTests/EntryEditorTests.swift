import MyPassBytes
import MyPassCore
import MyPassKDBX
import Testing

@Suite("Entry add/edit model")
struct EntryEditorTests {
    let t1 = KDBXTime(year: 2026, month: 7, day: 1)!

    @Test func addingUsesDefaultsAndTheFilterGroup() throws {
        var s = SampleVault()
        s.vault.meta.defaultUserName = "alice"
        s.vault.meta.memoryProtection.protectUserName = true
        var filter = GroupFilter()
        filter.select(s.work, in: s.vault.root)
        var editor = EntryEditor(adding: s.vault, filter: filter)
        #expect(editor.mode == .add)
        #expect(editor.groupUUID == s.work)
        #expect(editor.groupPath == ["Passwords", "Work"])
        #expect(editor.groupChoices.count == 8)
        #expect(editor.draft.userName == "alice")
        #expect(editor.draft.field(named: "UserName")?.isProtected == true)
        #expect(editor.draft.field(named: "Password")?.isProtected == true)
        #expect(editor.draft.field(named: "Title")?.isProtected == false)
        editor.draft.title = "New Site"
        editor.draft.password = "pa55"
        try editor.draft.setCustomField("Recovery", value: "abc", isProtected: true)
        #expect(throws: CoreError(.notFound)) { try editor.selectGroup(.random()) }
        #expect(editor.groupUUID == s.work)
        try editor.selectGroup(s.email)
        let uuid = try editor.commit(to: &s.vault, now: t1)
        #expect(s.vault.root.parentOfEntry(uuid)?.uuid == s.email)
        let added = try #require(s.vault.entry(withUUID: uuid))
        #expect(added.title == "New Site")
        #expect(added.field(named: "Recovery")?.isProtected == true)
        #expect(added.times.creation == t1)
        // Without a single-subtree selection the root is the default.
        #expect(EntryEditor(adding: s.vault, filter: GroupFilter()).groupUUID == s.root)
    }

    @Test func editingWritesHistoryAndMoves() throws {
        var s = SampleVault()
        let uuid = s.uuid(ofEntry: "GitHub")
        var editor = try EntryEditor(editing: uuid, in: s.vault)
        #expect(editor.mode == .edit(uuid))
        #expect(editor.groupUUID == s.work)
        editor.draft.userName = "alice2"
        editor.draft.setExpiry(KDBXTime(year: 2027, month: 1, day: 1)!)
        editor.draft.times.creation = .maximum   // not the editor's to change
        try editor.selectGroup(s.personal)
        try editor.commit(to: &s.vault, now: t1)
        let edited = try #require(s.vault.entry(withUUID: uuid))
        #expect(edited.userName == "alice2")
        #expect(edited.history.map(\.userName) == ["alice"])
        #expect(edited.times.expires)
        #expect(edited.times.expiry == KDBXTime(year: 2027, month: 1, day: 1)!)
        #expect(edited.times.creation == SampleVault.t0)
        #expect(edited.times.lastModification == t1)
        #expect(edited.times.locationChanged == t1)
        #expect(edited.previousParentGroup == s.work)
        #expect(s.vault.root.parentOfEntry(uuid)?.uuid == s.personal)
        #expect(throws: CoreError(.notFound)) { try EntryEditor(editing: .random(), in: s.vault) }
        // The chosen group vanished before the commit.
        var stale = try EntryEditor(editing: uuid, in: s.vault)
        try stale.selectGroup(s.email)
        s.vault.root.removeGroup(withUUID: s.work)
        #expect(throws: CoreError(.notFound)) { try stale.commit(to: &s.vault, now: t1) }
    }
}
