import MyPassBytes
import MyPassCore
import MyPassKDBX
import Testing

/// The path rules the CLI (and any form) rely on: escapes, suggestions, ambiguity details and
/// the title rules that keep every path naming one entry.
@Suite("Path rules")
struct PathRulesTests {
    let t1 = KDBXTime(year: 2026, month: 5, day: 6, hour: 7, minute: 8, second: 9)!

    @Test("\\/ and \\\\ escape names; printed paths read back to the same names", arguments: [
        ("Work/Email/GitHub", ["Work", "Email", "GitHub"]),
        ("/Work//GitHub/", ["Work", "GitHub"]),
        ("CI\\/CD/deploy\\\\key", ["CI/CD", "deploy\\key"]),
        ("a\\\\/b", ["a\\", "b"]),
        ("a\\b", ["a\\b"]),
        ("trailing\\", ["trailing\\"]),
        ("\\/\\/", ["//"]),
    ])
    func escapes(path: String, components: [String]) {
        #expect(Vault.pathComponents(path) == components)
        #expect(Vault.pathComponents(Vault.displayPath(components)) == components)
    }

    @Test func displayPathEscapes() {
        #expect(Vault.displayPath(["CI/CD", "deploy\\key"]) == "CI\\/CD/deploy\\\\key")
        #expect(Vault.escapedPathComponent("plain name") == "plain name")
    }

    @Test func entryPathNeedsATitle() throws {
        for (path, groupPath, title) in [("Work/GitHub", ["Work"], "GitHub"), ("/Top", [], "Top"), ("Work/a\\/b", ["Work"], "a/b")] {
            let split = try Vault.entryPathComponents(path)
            #expect(split.groupPath == groupPath)
            #expect(split.title == title)
        }
        for bad in ["Work/", "", "/", "Work//"] {
            #expect(throws: CoreError(.invalidOperation)) { try Vault.entryPathComponents(bad) }
        }
    }

    @Test func resolvesEscapedNames() throws {
        var s = SampleVault()
        let group = try s.vault.addGroup(named: "CI/CD", in: s.root, now: t1)
        var entry = Entry()
        entry.title = "deploy\\key"
        let uuid = try s.vault.addEntry(entry, to: group, now: t1)
        #expect(try s.vault.resolveEntry(path: "CI\\/CD/deploy\\\\key").entry.uuid == uuid)
        #expect(try s.vault.resolveGroup(path: "CI\\/CD").group.uuid == group)
        #expect(throws: CoreError(.notFound)) { try s.vault.resolveEntry(path: "CI/CD/deploy\\key") }
    }

    @Test("a missing path suggests case and small-typo matches")
    func suggestions() throws {
        let s = SampleVault()
        for (typed, expected) in [("work/github", "Work/GitHub"), ("Work/GitHb", "Work/GitHub"), ("Wrok/GitHub", "Work/GitHub"),
                                  ("Work/Email/Mial", "Work/Email/Mail")] {
            do {
                _ = try s.vault.resolveEntry(path: typed)
                Issue.record("\(typed) resolved")
            } catch {
                #expect(error.code == .notFound)
                #expect(error.reason == "no entry '\(typed)'; did you mean '\(expected)'?")
            }
        }
        do {
            _ = try s.vault.resolveEntry(path: "Nothing/Like/This")
        } catch {
            #expect(error.reason == "no entry 'Nothing/Like/This'")
        }
        do {
            _ = try s.vault.resolveGroup(path: "personal")
        } catch {
            #expect(error.reason == "no group 'personal'; did you mean 'Personal'?")
        }
        #expect(Vault.suggestions(for: "ab", among: ["ac", "xy", "AB"]) == ["AB", "ac"])
        #expect(Vault.suggestions(for: "abcdefghij", among: ["abcdefghij-long", "abcdefgh", "abcdXfghij"]) == ["abcdXfghij", "abcdefgh"])
        #expect(Vault.suggestions(for: "a", among: ["b", "c", "d", "e"], limit: 3) == ["b", "c", "d"])
    }

    @Test("an ambiguous path lists UUID, user name and modification time of each entry")
    func ambiguity() throws {
        var s = SampleVault()
        var twin = Entry()
        twin.title = "GitHub"
        twin.userName = "ops"
        // addEntry(_:) is the model-level add (imports, merges): it allows what KeePass allows.
        let twinUUID = try s.vault.addEntry(twin, to: s.work, now: t1)
        let first = s.uuid(ofEntry: "GitHub")
        do {
            _ = try s.vault.resolveEntry(path: "Work/GitHub")
            Issue.record("resolved an ambiguous path")
        } catch {
            #expect(error.code == .ambiguous)
            #expect(error.reason == "'Work/GitHub' names 2 entries; use a UUID: "
                + "\(first.hexString) (user name 'alice', modified 2026-01-02T03:04:05Z), "
                + "\(twinUUID.hexString) (user name 'ops', modified 2026-05-06T07:08:09Z)")
        }
        #expect(try s.vault.resolveEntry(path: twinUUID.hexString).entry.userName == "ops")
    }

    @Test("adding or renaming onto an existing path is refused, case counts")
    func titleRules() throws {
        var s = SampleVault()
        #expect(throws: CoreError(.invalidOperation)) {
            try s.vault.addEntry(titled: "GitHub", to: s.work, applying: EntryPatch(), now: t1)
        }
        var viaField = EntryPatch()
        viaField.fields = [EntryPatch.FieldChange(name: "Title", value: "GitHub")]
        #expect(throws: CoreError(.invalidOperation)) {
            try s.vault.addEntry(titled: "Other", to: s.work, applying: viaField, now: t1)
        }
        var emptied = EntryPatch()
        emptied.fields = [EntryPatch.FieldChange(name: "Title", value: "")]
        #expect(throws: CoreError(.invalidOperation)) {
            try s.vault.addEntry(titled: "Other", to: s.work, applying: emptied, now: t1)
        }
        let other = try s.vault.addEntry(titled: "github", to: s.work, applying: EntryPatch(), now: t1)
        var rename = EntryPatch()
        rename.title = "GitHub"
        #expect(throws: CoreError(.invalidOperation)) { try s.vault.editEntry(other, applying: rename, now: t1) }
        #expect(s.vault.entry(withUUID: other)?.title == "github")
        // The same title in another group is fine, and so is an edit that keeps the title.
        _ = try s.vault.addEntry(titled: "GitHub", to: s.personal, applying: EntryPatch(), now: t1)
        var user = EntryPatch()
        user.userName = "carol"
        #expect(try s.vault.editEntry(other, applying: user, now: t1))
        do {
            try s.vault.checkTitle("GitHub", in: s.work, excluding: nil)
        } catch {
            #expect(error.reason == "an entry 'Work/GitHub' already exists (\(s.uuid(ofEntry: "GitHub").hexString))")
        }
    }

    @Test("an entry that already shares its path can still be edited")
    func editingADuplicate() throws {
        var s = SampleVault()
        var twin = Entry()
        twin.title = "GitHub"
        let twinUUID = try s.vault.addEntry(twin, to: s.work, now: t1)
        var patch = EntryPatch()
        patch.userName = "renamed-later"
        #expect(try s.vault.editEntry(twinUUID, applying: patch, now: t1))
        patch = EntryPatch()
        patch.title = "GitHub (ops)"
        #expect(try s.vault.editEntry(twinUUID, applying: patch, now: t1))
        #expect(try s.vault.resolveEntry(path: "Work/GitHub").entry.userName == "alice")
    }

    @Test("a bare title names the one entry with it outside the recycle bin; several are listed by path; suggestions name paths")
    func bareTitles() throws {
        var s = SampleVault()
        #expect(try s.vault.resolveEntry(path: "Mail").path == ["Work", "Email", "Mail"])
        #expect(try s.vault.resolveEntry(path: "Inner").path == ["Hidden", "Child", "Inner"])
        #expect(try s.vault.resolveEntry(path: "Root Entry").path == ["Root Entry"])
        #expect(Vault.isBareTitle("GitHub") && Vault.isBareTitle("CI\\/CD") && !Vault.isBareTitle("/GitHub") && !Vault.isBareTitle("Work/GitHub"))
        func reason(_ path: String) -> String {
            do {
                _ = try s.vault.resolveEntry(path: path)
                return "resolved"
            } catch {
                return "\(error.code): \(error.reason)"
            }
        }
        // A leading / anchors the path at the root: no search by title, but the entry is suggested.
        #expect(reason("/Mail") == "notFound: no entry '/Mail'; did you mean 'Work/Email/Mail'?")
        // An entry only the recycle bin has is not taken (rm would delete it for good), but suggested.
        #expect(reason("Old") == "notFound: no entry 'Old'; did you mean 'Recycle Bin/Old'?")
        #expect(reason("mail") == "notFound: no entry 'mail'; did you mean 'Work/Email/Mail'?")
        #expect(reason("GitHb") == "notFound: no entry 'GitHb'; did you mean 'Work/GitHub'?")
        #expect(reason("Personal/GitHub") == "notFound: no entry 'Personal/GitHub'; did you mean 'Work/GitHub'?")
        var twin = Entry()
        twin.title = "GitHub"
        twin.userName = "ops"
        let twinUUID = try s.vault.addEntry(twin, to: s.personal, now: t1)
        let first = s.uuid(ofEntry: "GitHub")
        #expect(reason("GitHub") == "ambiguous: 'GitHub' names 2 entries; give its path or UUID: "
            + "Work/GitHub (\(first.hexString), user name 'alice'), Personal/GitHub (\(twinUUID.hexString), user name 'ops')")
        #expect(try s.vault.resolveEntry(path: "Personal/GitHub").entry.uuid == twinUUID)
        // A root entry of that title is the path typed: it is taken.
        var rootTwin = Entry()
        rootTwin.title = "GitHub"
        let rootUUID = try s.vault.addEntry(rootTwin, to: s.root, now: t1)
        #expect(try s.vault.resolveEntry(path: "GitHub").entry.uuid == rootUUID)
    }

    @Test("a field name is found exactly, else in any case; a miss suggests close names or lists the fields")
    func fieldNames() throws {
        var entry = Entry()
        entry.title = "Router"
        entry.userName = "admin"
        entry.setValue("1234", for: "PIN", isProtected: true)
        #expect(try entry.resolveField(named: "username").key == "UserName")
        #expect(try entry.resolveField(named: "title").value == "Router")
        #expect(try entry.resolveField(named: "pin").key == "PIN")
        func reason(_ name: String) -> String {
            do {
                return try entry.resolveField(named: name).key
            } catch {
                return "\(error.code): \(error.reason)"
            }
        }
        #expect(reason("usrname") == "notFound: no field 'usrname'; did you mean 'UserName'?")
        #expect(reason("zzz") == "notFound: no field 'zzz'; its fields: 'Title', 'UserName', 'PIN'")
        entry.setValue("5678", for: "Pin", isProtected: true)
        #expect(reason("pin") == "ambiguous: 'pin' matches the fields 'PIN' and 'Pin'; give the name exactly")
        #expect(reason("Pin") == "Pin")
    }
}
