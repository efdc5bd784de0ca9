import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX
import MyPassViewModels
import Testing

/// A vault with known structure (as MyPassCoreTests' sample), written with a cheap AES-KDF.
///
/// ```
/// Passwords (root)          entry "Root Entry"
/// ├─ Work                   entry "GitHub" (alice, github.com, tag dev)
/// │  └─ Email               entry "Mail" (bob, https://mail.example.com)
/// ├─ Personal               entries "Café Crème" (zoë), "東京タワー 🗼", "שלום עולם"
/// ├─ Hidden (searching off) entry "Secret"
/// └─ Recycle Bin            entry "Old"
/// ```
struct ModelVault {
    var vault: Vault
    let root, work, email, personal, hidden, bin: KDBXUUID
    static let t0 = KDBXTime(year: 2026, month: 1, day: 2, hour: 3, minute: 4, second: 5)!

    init(extraEntries: Int = 0) {
        let t0 = Self.t0
        vault = Vault.new(name: "Passwords", now: t0)
        vault.format = VaultFormat(version: .v4_0, kdf: .aes(rounds: 100))
        root = vault.root.uuid
        func group(_ name: String) -> Group { Group(name: name, times: Times(all: t0)) }
        func entry(_ title: String, user: String = "", url: String = "", tags: [String] = []) -> Entry {
            var e = Entry(times: Times(all: t0))
            e.title = title
            e.userName = user
            e.url = url
            e.password = ProtectedString("pw-" + title)
            e.tags = tags
            return e
        }
        var workGroup = group("Work")
        var emailGroup = group("Email")
        emailGroup.entries = [entry("Mail", user: "bob", url: "https://mail.example.com")]
        var github = entry("GitHub", user: "alice", url: "github.com", tags: ["dev"])
        github.setProtectedValue(ProtectedString("otpauth://totp/x?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&digits=8"), for: "otp")
        github.setValue("1234", for: "PIN", isProtected: true)
        var older = github
        older.password = ProtectedString("old")
        older.times.lastModification = KDBXTime(secondsSinceEpoch: t0.secondsSinceEpoch - 3600)
        var middle = github
        middle.times.lastModification = KDBXTime(secondsSinceEpoch: t0.secondsSinceEpoch - 60)
        github.history = [older, middle]
        try! github.addAttachment(named: "key.txt", data: Array("k".utf8))
        workGroup.entries = [github]
        for index in 0..<extraEntries {
            workGroup.entries.append(entry("Site \(index)", user: "user\(index)", url: "https://site\(index).example.org"))
        }
        workGroup.groups = [emailGroup]
        var personalGroup = group("Personal")
        personalGroup.entries = [entry("Café Crème", user: "zoë", tags: ["Food"]), entry("東京タワー 🗼", user: "山田"), entry("שלום עולם")]
        var hiddenGroup = group("Hidden")
        hiddenGroup.enableSearching = false
        hiddenGroup.entries = [entry("Secret")]
        var binGroup = group("Recycle Bin")
        binGroup.iconID = 43
        binGroup.enableSearching = false
        binGroup.entries = [entry("Old")]
        vault.root.entries = [entry("Root Entry")]
        vault.root.groups = [workGroup, personalGroup, hiddenGroup, binGroup]
        vault.meta.recycleBinUUID = binGroup.uuid
        vault.meta.recycleBinEnabled = true
        work = workGroup.uuid
        email = emailGroup.uuid
        personal = personalGroup.uuid
        hidden = hiddenGroup.uuid
        bin = binGroup.uuid
    }

    func uuid(_ title: String) -> KDBXUUID { vault.allEntries.first(where: { $0.title == title })!.uuid }

    /// Writes the vault to a new temporary file; returns its URL.
    func write() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mypass-models-\(UUID().uuidString).kdbx")
        try Data(try KDBXCodec.save(vault, key: try CompositeKey(password: "pw", keyFileContents: nil))).write(to: url)
        return url
    }
}

/// A clipboard that records what was copied.
final class RecordingClipboard: ClipboardWriter, @unchecked Sendable {
    private let lock = NSLock()
    private var items: [(String, Int)] = []
    func copy(_ value: ProtectedString, expirySeconds: Int) throws(ModelError) {
        lock.withLock { items.append((value.revealed, expirySeconds)) }
    }
    var copied: [(String, Int)] { lock.withLock { items } }
}

@MainActor
@Suite("View models: list, filter, detail, editor")
struct ViewModelTests {
    @Test func theListIsFlatSearchableAndFilteredByAND() {
        let sample = ModelVault()
        let list = VaultListModel()
        #expect(list.isLocked && list.rows.isEmpty)
        list.load(sample.vault)
        // No filter: searchable groups only (not Hidden, not the recycle bin).
        #expect(list.rows.map(\.title) == ["Root Entry", "GitHub", "Mail", "Café Crème", "東京タワー 🗼", "שלום עולם"])
        let github = list.rows[1]
        #expect(github.subtitle == "alice · Work" && github.iconSymbol == KeePassIconMapper.symbolName(forIconID: 0))
        #expect(list.rows[2].subtitle == "bob · Work > Email")
        #expect(list.rows[0].subtitle == "")
        // Search: case and diacritics folded, wide and right-to-left text found.
        list.searchText = "CAFE"
        #expect(list.rows.map(\.title) == ["Café Crème"])
        list.searchText = "東京"
        #expect(list.rows.map(\.title) == ["東京タワー 🗼"])
        list.searchText = "שלום"
        #expect(list.rows.map(\.title) == ["שלום עולם"])
        // Filter AND search; a filtered group with searching disabled shows its entries.
        list.searchText = ""
        var filter = GroupFilter()
        filter.select(sample.hidden, in: sample.vault.root)
        list.filter = filter
        #expect(list.rows.map(\.title) == ["Secret"])
        filter.select(sample.work, in: sample.vault.root)
        list.filter = filter
        list.searchText = "bo"
        #expect(list.rows.map(\.title) == ["Mail"])
        list.moveSelection(by: 1)
        #expect(list.selection == sample.uuid("Mail"))
        list.searchText = "zzz"
        #expect(list.rows.isEmpty && list.selection == nil)
        list.clear()
        #expect(list.isLocked && list.rows.isEmpty && list.allEntries.isEmpty && list.searchText.isEmpty)
    }

    @Test func typingNarrowsLikeAFreshSearchOnFiveThousandEntries() {
        let sample = ModelVault(extraEntries: 5_000)
        let list = VaultListModel()
        list.load(sample.vault)
        #expect(list.rows.count == 5_006)
        for text in ["s", "si", "sit", "site", "site 4", "site 49", "site 4"] {
            list.searchText = text
            let fresh = EntryList.displayedEntries(sample.vault.flatEntries, filter: GroupFilter(), searchText: text).map(\.id)
            #expect(list.rows.map(\.id) == fresh, "\(text)")
        }
        #expect(list.rows.count == 1_111)
    }

    @Test func theCompactIndexIsTheFlatListAndItsRule() {
        let sample = ModelVault(extraEntries: 20)
        let index = FlatEntryIndex(sample.vault)
        let flat = sample.vault.flatEntries
        #expect(index.count == flat.count && index.count == 28)
        for (position, item) in flat.enumerated() {
            let made = index[position]
            #expect(made.id == item.id && made.groupUUID == item.groupUUID && made.breadcrumb == item.breadcrumb)
            #expect(made.isSearchable == item.isSearchable && made.searchKeys == item.searchKeys.filter { !$0.isEmpty }, "\(item.entry.title)")
        }
        var work = GroupFilter()
        work.select(sample.work, in: sample.vault.root)
        var hidden = GroupFilter()
        hidden.select(sample.hidden, in: sample.vault.root)
        for filter in [GroupFilter(), work, hidden] {
            for text in ["", "CAFE", "crème", "東京", "DEV", "site 1", " mail ", "zoe", "nothing", "שלום"] {
                let expected = EntryList.displayedEntries(flat, filter: filter, searchText: text).map(\.id)
                #expect(index.displayed(filter: filter, searchText: text).map { index.uuid(at: $0) } == expected, "\(text)")
            }
        }
        // The list's selection offset follows the search.
        let list = VaultListModel()
        list.load(sample.vault)
        list.selection = sample.uuid("Mail")
        #expect(list.selectedOffset == 22 && list.rows[22].title == "Mail")
        list.searchText = "ma"
        #expect(list.selectedOffset == 0 && list.entry(sample.uuid("Mail"))?.breadcrumb == ["Work", "Email"])
        list.moveSelection(by: 5)
        #expect(list.selection == list.rows.last?.id)
        list.searchText = "zzz"
        #expect(list.selection == nil && list.selectedOffset == nil && list.entryCount == 28)
    }

    @Test func theGroupTreeTicksWholeSubtreesAndShowsMixedStates() {
        let sample = ModelVault()
        let groups = GroupFilterModel()
        groups.load(sample.vault)
        #expect(groups.rows.map(\.name) == ["Passwords", "Work", "Personal", "Hidden", "Recycle Bin"])
        #expect(groups.rows.first(where: { $0.name == "Recycle Bin" })?.isRecycleBin == true)
        groups.toggleExpanded(sample.work)
        #expect(groups.rows.map(\.name) == ["Passwords", "Work", "Email", "Personal", "Hidden", "Recycle Bin"])
        groups.toggle(sample.work)
        #expect(groups.filter.selectedGroups == [sample.work, sample.email])
        #expect(groups.check(of: sample.work) == .on && groups.check(of: sample.root) == .mixed)
        groups.toggle(sample.email)
        #expect(groups.check(of: sample.work) == .mixed && groups.check(of: sample.email) == .off)
        groups.toggle(sample.root)
        #expect(groups.rows.allSatisfy { $0.check == .on })
        groups.clearFilter()
        #expect(groups.filter.isEmpty && groups.rows.allSatisfy { $0.check == .off })
        groups.clear()
        #expect(groups.rows.isEmpty)
    }

    @Test func theEditorDefaultsToTheSoleFilterGroupAndValidates() throws {
        let sample = ModelVault()
        var filter = GroupFilter()
        #expect(EntryEditorModel(adding: sample.vault, filter: filter).groupID == sample.root)
        filter.select(sample.work, in: sample.vault.root)
        let editor = EntryEditorModel(adding: sample.vault, filter: filter)
        #expect(editor.groupID == sample.work && editor.groupPath == "Passwords / Work")
        filter.select(sample.personal, in: sample.vault.root)
        #expect(EntryEditorModel(adding: sample.vault, filter: filter).groupID == sample.root)
        #expect(editor.groupChoices.map { $0.displayPath() }.contains("Passwords / Work / Email"))

        #expect(!editor.validate(in: sample.vault))
        #expect(editor.errors == [.emptyTitle])
        editor.title = "GitHub"
        let field = editor.addCustomField()
        editor.otpURI = "otpauth://totp/x?secret=!!"
        #expect(!editor.validate(in: sample.vault))
        #expect(editor.errors.count == 3)
        #expect(editor.errors[0] == .duplicateTitle("Passwords / Work / GitHub") && editor.errors[1] == .emptyFieldName)
        editor.title = "New"
        editor.customFields[0].name = "UserName"
        editor.otpURI = ""
        #expect(!editor.validate(in: sample.vault) && editor.errors == [.duplicateFieldName("UserName")])
        editor.removeCustomField(field)
        editor.generatorOptions = PasswordGeneratorOptions(length: 32)
        try editor.generatePassword()
        #expect(editor.password.utf8Count == 32)
        #expect(editor.validate(in: sample.vault))
    }

    @Test func theEditorSetsCustomFieldsExpiryTOTPAndAttachments() throws {
        var sample = ModelVault()
        let github = sample.uuid("GitHub")
        let editor = try EntryEditorModel(editing: github, in: sample.vault)
        #expect(editor.customFields.map(\.name) == ["PIN"] && editor.customFields[0].isProtected && editor.customFields[0].value == "1234")
        #expect(editor.otpURI.hasPrefix("otpauth://totp/x?secret=GEZDGNBV") && editor.attachments.map(\.name) == ["key.txt"])
        #expect(!editor.expires)

        editor.removeCustomField(editor.customFields[0].id)
        let door = editor.addCustomField(protected: true)
        editor.customFields[editor.customFields.firstIndex { $0.id == door }!].name = "Door"
        editor.customFields[editor.customFields.firstIndex { $0.id == door }!].value = "4321"
        let note = editor.addCustomField()
        editor.customFields[editor.customFields.firstIndex { $0.id == note }!].name = "Floor"
        editor.customFields[editor.customFields.firstIndex { $0.id == note }!].value = "3"
        editor.expires = true
        editor.expiry = KDBXTime(year: 2030, month: 1, day: 2)!
        #expect(!editor.setUpTOTP(secret: "not base32!"))
        #expect(editor.setUpTOTP(secret: "jbsw y3dp ehpk 3pxp", digits: 8, period: 60))
        #expect(editor.otpURI == "otpauth://totp/GitHub:alice?secret=JBSWY3DPEHPK3PXP&period=60&digits=8&issuer=GitHub")
        editor.removeAttachment(named: "key.txt")
        editor.attach(name: "b.txt", data: Array("bee".utf8))
        #expect(editor.validate(in: sample.vault))
        _ = try editor.preparedEditor().commit(to: &sample.vault, now: ModelVault.t0)

        let saved = try #require(sample.vault.entry(withUUID: github))
        #expect(saved.field(named: "PIN") == nil)
        #expect(saved.field(named: "Door")?.isProtected == true && saved.value(of: "Door") == "4321")
        #expect(saved.field(named: "Floor")?.isProtected == false && saved.value(of: "Floor") == "3")
        #expect(saved.value(of: "otp") == editor.otpURI && saved.field(named: "otp")?.isProtected == true)
        #expect(saved.times.expires && saved.times.expiry == KDBXTime(year: 2030, month: 1, day: 2)!)
        #expect(saved.attachments.map(\.name) == ["b.txt"] && saved.attachments[0].data == Array("bee".utf8))
        let parameters = try #require(try saved.otpParameters())
        #expect(TOTPGenerator.code(for: parameters, unixTime: 59).value == "63282760")  // HMAC-SHA-1 of counter 0, 8 digits (Python's hmac)

        // A bare Base32 secret typed in the TOTP field is stored as the URI; one already stored stays as it was.
        let adding = EntryEditorModel(adding: sample.vault, filter: GroupFilter())
        adding.title = "Bank"
        adding.otpURI = "JBSWY3DPEHPK3PXP"
        #expect(adding.otpFieldValue == "otpauth://totp/Bank?secret=JBSWY3DPEHPK3PXP&period=30&digits=6&issuer=Bank")
        let uuid = try adding.preparedEditor().commit(to: &sample.vault, now: ModelVault.t0)
        #expect(sample.vault.entry(withUUID: uuid)?.value(of: "otp").hasPrefix("otpauth://totp/Bank?") == true)
        try sample.vault.editEntry(uuid, now: ModelVault.t0) { $0.setProtectedValue(ProtectedString("JBSWY3DPEHPK3PXP"), for: "otp") }
        let reopened = try EntryEditorModel(editing: uuid, in: sample.vault)
        #expect(reopened.otpFieldValue == reopened.otpURI)
    }

    @Test func theDetailMasksRevealsCopiesAndShowsTheCode() {
        let sample = ModelVault()
        let clipboard = RecordingClipboard()
        let entry = sample.vault.entry(withUUID: sample.uuid("GitHub"))!
        // RFC 6238 appendix B: SHA-1, T = 59 s, 8 digits: 94287082.
        let detail = EntryDetailModel(entry: entry, breadcrumb: ["Work"], clipboard: clipboard, now: KDBXTime(unixSeconds: 59))
        #expect(detail.fields.map(\.name) == ["UserName", "Password", "URL", "Notes", "PIN"])
        #expect(detail.displayedValue(of: "Password") == "••••••••" && detail.displayedValue(of: "PIN") == "••••••••")
        detail.toggleReveal("Password")
        #expect(detail.displayedValue(of: "Password") == "pw-GitHub" && detail.displayedValue(of: "PIN") == "••••••••")
        #expect(detail.totp?.value == "94287082" && detail.totp?.secondsRemaining == 1)
        detail.copy("Password")
        detail.copyTOTP(now: KDBXTime(unixSeconds: 59))
        #expect(clipboard.copied.map(\.0) == ["pw-GitHub", "94287082"] && clipboard.copied.allSatisfy { $0.1 == 30 })
        #expect(detail.attachments.map(\.name) == ["key.txt"] && detail.attachments.map(\.byteCount) == [1])
        // The password changed between the oldest version and the middle one (t0 - 60).
        #expect(detail.passwordLastChanged == KDBXTime(secondsSinceEpoch: ModelVault.t0.secondsSinceEpoch - 60))
        #expect(detail.lastDisplayed == ModelVault.t0)
        detail.clear()
        #expect(detail.displayedValue(of: "UserName") == "" && detail.totp == nil && detail.revealed.isEmpty)
    }

    @Test func theAutoFillListSuggestsFirstAndFillsTheSelection() throws {
        let sample = ModelVault()
        let url = try sample.write()
        defer { try? FileManager.default.removeItem(at: url) }
        let opened = try AutoFillListModel.open(url.path, key: try CompositeKey(password: "pw", keyFileContents: nil), cachedKey: nil)
        let model = AutoFillListModel(index: opened.index, serviceIdentifiers: ["https://github.com/login"])
        #expect(model.suggestions.map(\.title) == ["GitHub"] && model.suggestions[0].match == .exactHost)
        #expect(model.others.map(\.title) == ["Root Entry", "Mail", "Café Crème", "東京タワー 🗼", "שלום עולם"])
        model.searchText = "mail"
        #expect(model.suggestions.isEmpty && model.others.map(\.title) == ["Mail"])
        let filled = try model.select(sample.uuid("GitHub"))
        #expect(filled.userName == "alice" && filled.password.revealed == "pw-GitHub")
        model.clear()
        #expect(throws: AutoFillFailure.self) { try model.select(sample.uuid("GitHub")) }
        // A wrong key and a budget the KDF does not fit: typed failures with the deep link.
        let wrong = try CompositeKey(password: "no", keyFileContents: nil)
        do throws(AutoFillFailure) {
            _ = try AutoFillListModel.open(url.path, key: wrong, cachedKey: nil)
            Issue.record("opened with a wrong key")
        } catch {
            #expect(error.reason == .wrongKey && error.deepLink.absoluteString == "mypass://unlock")
        }
    }
}

@MainActor
@Suite("View models: unlock and session")
struct SessionModelTests {
    @Test func unlockOpenEditSaveAndLockLeaveNothingBehind() async throws {
        let sample = ModelVault()
        let url = try sample.write()
        defer { try? FileManager.default.removeItem(at: url) }
        let clock = ManualClock(start: ModelVault.t0)
        let store = InMemoryCredentialStore()
        let model = VaultSessionModel(session: VaultSession(fileURL: url, credentialStore: store, autoLockSeconds: 300, clock: clock),
                                      clock: clock)
        let list = VaultListModel(), groups = GroupFilterModel()
        model.onVaultChange = { vault in
            if let vault { list.load(vault); groups.load(vault) } else { list.clear(); groups.clear() }
        }
        await model.unlock(password: "wrong")
        #expect(model.state == .locked && model.failure?.code == .wrongKey)
        model.remembersCredentials = true
        await model.unlock(password: "pw")
        #expect(model.state == .unlocked && model.failure == nil && store.count == 1)
        #expect(list.rows.count == 6 && groups.rows.count == 5)

        // Opening records the access (usage count + 1), kept for the next save, not saved by itself.
        let github = sample.uuid("GitHub")
        let before = try #require(model.vault?.entry(withUUID: github)).times.usageCount
        let detail = try #require(await model.openEntry(github, clipboard: RecordingClipboard()))
        #expect(detail.title == "GitHub")
        #expect(model.vault?.entry(withUUID: github)?.times.usageCount == before + 1)
        #expect(model.hasUnsavedChanges)
        let onDisk = try KDBXCodec.open([UInt8](try Data(contentsOf: url)), key: try CompositeKey(password: "pw", keyFileContents: nil))
        #expect(onDisk.entry(withUUID: github)?.times.usageCount == before)

        // Add in the filter's group, then delete to the recycle bin: both saved.
        groups.toggle(sample.personal)
        list.filter = groups.filter
        let editor = EntryEditorModel(adding: try #require(model.vault), filter: list.filter)
        editor.title = "Added"
        editor.passwordText = "s3cret"
        let added = try #require(await model.commit(editor))
        #expect(list.rows.map(\.title).contains("Added"))
        #expect(await model.deleteEntry(added))
        let saved = try KDBXCodec.open([UInt8](try Data(contentsOf: url)), key: try CompositeKey(password: "pw", keyFileContents: nil))
        #expect(saved.root.group(withUUID: sample.bin)?.entries.map(\.title).contains("Added") == true)
        #expect(saved.entry(withUUID: github)?.times.usageCount == before + 1)

        // Idle: locks after the timeout; everything is cleared.
        clock.advance(bySeconds: 301)
        #expect(await model.lockIfIdle())
        #expect(model.state == .locked && model.vault == nil && list.rows.isEmpty && list.allEntries.isEmpty && groups.rows.isEmpty)
        #expect(await model.session.isLocked)

        // Quick unlock with the stored credentials; lock on background.
        await model.quickUnlock()
        #expect(model.state == .unlocked && list.rows.count == 6)
        await model.sceneDidEnterBackground().value
        #expect(model.state == .locked && list.rows.isEmpty)
        #expect(await model.session.isLocked)
    }
}
