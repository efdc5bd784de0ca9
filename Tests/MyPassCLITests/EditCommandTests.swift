import Foundation
import MyPassTestSupport
import Testing

/// The changing commands on copies of the demo vault; every result is read back by KeePass
/// (`kporacle dump`) and KeePassXC (`keepassxc-cli`), and must show exactly the expected change.
@Suite("mypass changing commands")
struct EditCommandTests {
    static let github = "e0000000000040008000000000000002"
    static let jira = "e0000000000040008000000000000003"
    static let bank = "e0000000000040008000000000000005"
    static let wifi = "e0000000000040008000000000000006"
    static let dropbox = "e0000000000040008000000000000007"

    let scratch: Scratch
    let vault: String

    init() throws {
        scratch = try Scratch()
        vault = try scratch.copy(Demo.vault)
    }

    var original: [String: Any] {
        get throws { try #require(try parseJSON(try TestVectors.text("demo/demo.json")) as? [String: Any]) }
    }

    func mypass(_ arguments: [String], stdin: String = Demo.stdin) throws -> ProcessResult {
        let result = try CLI.run(arguments, stdin: stdin)
        #expect(result.status == 0, "mypass \(arguments): \(result.stderrText)")
        return result
    }

    @Test("add: a new entry with every kind of field, read back by KeePass and KeePassXC")
    func add() throws {
        let result = try mypass(
            ["add", vault, "Work/Slack", "--username", "sam", "--url", "https://acme.slack.com/", "--notes", "line 1\nline 2",
             "--tag", "chat", "--tag", "work;team", "--field", "Workspace=acme", "--protected-field", "Recovery=r-123",
             "--expires", "2030-01-02", "--password-prompt"],
            stdin: "demo\nslack-pw\n")
        #expect(result.stdoutText.hasPrefix("Added entry 'Work/Slack' ("))
        let shown = try mypass(["show", vault, "Work/Slack", "--field", "Password"])
        #expect(shown.stdoutText == "slack-pw\n")

        guard let after = try Interop.kporacleDump(vault, password: Demo.password, test: "add") else { return }
        let entry = try #require(Interop.entry(after, titled: "Slack"))
        #expect(entry["path"] as? [String] == ["Work"])
        #expect(Interop.fieldValue(entry, "UserName") == "sam")
        #expect(Interop.fieldValue(entry, "Password") == "slack-pw")
        #expect(Interop.fieldProtected(entry, "Password") == true)
        #expect(Interop.fieldValue(entry, "URL") == "https://acme.slack.com/")
        #expect(Interop.fieldValue(entry, "Notes") == "line 1\nline 2")
        #expect(Interop.fieldValue(entry, "Workspace") == "acme")
        #expect(Interop.fieldProtected(entry, "Workspace") == false)
        #expect(Interop.fieldValue(entry, "Recovery") == "r-123")
        #expect(Interop.fieldProtected(entry, "Recovery") == true)
        #expect(entry["tags"] as? [String] == ["chat", "work", "team"])
        let times = try #require(entry["times"] as? [String: Any])
        #expect(times["expires"] as? Bool == true)
        #expect(times["expiry"] as? String == "2030-01-02T00:00:00Z")
        #expect((entry["history"] as? [Any])?.isEmpty == true)
        #expect((after["entries"] as? [Any])?.count == 8)
        let uuid = try #require(entry["uuid"] as? String)
        #expect(Interop.otherEntriesUnchanged(before: try original, after: after, changed: [uuid]).isEmpty)

        guard let xc = try Interop.keepassxc(["show", "-s", vault, "Work/Slack"], password: Demo.password, test: "add") else { return }
        #expect(xc.status == 0, "\(xc.stderrText)")
        #expect(xc.stdoutText.contains("UserName: sam\n"))
        #expect(xc.stdoutText.contains("Password: slack-pw\n"))
        #expect(xc.stdoutText.contains("URL: https://acme.slack.com/\n"))
    }

    @Test("add --generate sets a generated password of the asked shape")
    func addGenerated() throws {
        _ = try mypass(["add", vault, "Personal/Generated", "--generate", "--length", "32", "--digits"])
        let password = try mypass(["show", vault, "Personal/Generated", "--field", "Password"]).stdoutText
        #expect(password.count == 33)
        #expect(password.dropLast().allSatisfy { $0.isASCII && $0.isNumber })
        guard let after = try Interop.kporacleDump(vault, password: Demo.password, test: "addGenerated") else { return }
        let entry = try #require(Interop.entry(after, titled: "Generated"))
        #expect(Interop.fieldValue(entry, "Password") == String(password.dropLast()))
        #expect(Interop.fieldValue(entry, "UserName") == "sam")  // the vault's default user name
    }

    @Test("edit: changed fields, the previous state in history, everything else untouched")
    func edit() throws {
        let result = try mypass(
            ["edit", vault, "Work/GitHub", "--username", "new-user", "--url", "https://github.com/", "--tag", "a", "--tag", "b",
             "--field", "Workspace=x", "--field", "Tokens=", "--expires", "2031-05-06T07:08:09Z", "--password-prompt"],
            stdin: "demo\nnew-secret\n")
        #expect(result.stdoutText == "Edited entry 'Work/GitHub'.\n")
        guard let after = try Interop.kporacleDump(vault, password: Demo.password, test: "edit") else { return }
        let entry = try #require(Interop.entry(after, Self.github))
        #expect(Interop.fieldValue(entry, "UserName") == "new-user")
        #expect(Interop.fieldValue(entry, "URL") == "https://github.com/")
        #expect(Interop.fieldValue(entry, "Password") == "new-secret")
        #expect(Interop.fieldProtected(entry, "Password") == true)
        #expect(Interop.fieldValue(entry, "Workspace") == "x")
        #expect(Interop.fieldValue(entry, "Tokens") == nil)
        #expect(Interop.fieldValue(entry, "otp")?.hasPrefix("otpauth://totp/GitHub:sam-dev?secret=JBSWY3DPEHPK3PXP") == true)
        #expect(entry["tags"] as? [String] == ["a", "b"])
        let times = try #require(entry["times"] as? [String: Any])
        #expect(times["expiry"] as? String == "2031-05-06T07:08:09Z")
        #expect(times["expires"] as? Bool == true)
        #expect(times["creation"] as? String == "2026-01-15T09:30:00Z")
        #expect(times["lastModification"] as? String != "2026-01-15T09:30:00Z")
        let history = try #require(entry["history"] as? [[String: Any]])
        #expect(history.count == 1)
        let originalGitHub = try #require(Interop.entry(try original, Self.github))
        var expectedOld = originalGitHub
        expectedOld["path"] = nil
        expectedOld["history"] = nil
        expectedOld["times"] = nil  // KeePass's backup may touch the access time
        #expect(manifestDifferences(expected: expectedOld, actual: history.first ?? [:]).isEmpty)
        #expect(Interop.otherEntriesUnchanged(before: try original, after: after, changed: [Self.github]).isEmpty)

        guard let xc = try Interop.keepassxc(["show", "-s", vault, "Work/GitHub"], password: Demo.password, test: "edit") else { return }
        #expect(xc.status == 0, "\(xc.stderrText)")
        #expect(xc.stdoutText.contains("UserName: new-user\n"))
        #expect(xc.stdoutText.contains("Password: new-secret\n"))
    }

    @Test("edit --title renames; the path follows")
    func rename() throws {
        _ = try mypass(["edit", vault, "Personal/Dropbox", "--title", "Box Files"])
        let shown = try mypass(["show", vault, "Personal/Box Files", "--field", "URL"])
        #expect(shown.stdoutText == "https://www.dropbox.com/login\n")
        guard let after = try Interop.kporacleDump(vault, password: Demo.password, test: "rename") else { return }
        let entry = try #require(Interop.entry(after, Self.dropbox))
        #expect(Interop.fieldValue(entry, "Title") == "Box Files")
        #expect((entry["history"] as? [[String: Any]]).map { $0.compactMap { Interop.fieldValue($0, "Title") } } == ["Dropbox"])
    }

    @Test("mv: the entry in its new group, read back by KeePass and KeePassXC")
    func move() throws {
        let result = try mypass(["mv", vault, "Personal/Dropbox", "Work/Email"])
        #expect(result.stdoutText == "Moved entry 'Personal/Dropbox' to 'Work/Email'.\n")
        guard let after = try Interop.kporacleDump(vault, password: Demo.password, test: "move") else { return }
        let entry = try #require(Interop.entry(after, Self.dropbox))
        #expect(entry["path"] as? [String] == ["Work", "Email"])
        let originalEntry = try #require(Interop.entry(try original, Self.dropbox))
        #expect(manifestDifferences(expected: originalEntry["fields"]!, actual: entry["fields"]!).isEmpty)
        let times = try #require(entry["times"] as? [String: Any])
        #expect(times["locationChanged"] as? String != "2026-01-15T09:30:00Z")
        #expect(Interop.otherEntriesUnchanged(before: try original, after: after, changed: [Self.dropbox]).isEmpty)

        guard let xc = try Interop.keepassxc(["ls", vault, "Work/Email"], password: Demo.password, test: "move") else { return }
        #expect(xc.status == 0, "\(xc.stderrText)")
        #expect(xc.stdoutText == "Company Mail\nDropbox\n")
    }

    @Test("rm: to the recycle bin (created the KeePass way), then for good; --permanent at once")
    func remove() throws {
        let first = try mypass(["rm", vault, "Personal/Home Wi-Fi"])
        #expect(first.stdoutText == "Moved entry 'Personal/Home Wi-Fi' to the recycle bin.\n")
        if let after = try Interop.kporacleDump(vault, password: Demo.password, test: "remove") {
            let meta = try #require(after["meta"] as? [String: Any])
            let binUUID = try #require(meta["recycleBinUUID"] as? String)
            let bin = (after["groups"] as? [[String: Any]])?.first { $0["uuid"] as? String == binUUID }
            #expect(bin?["name"] as? String == "Recycle Bin")
            #expect(bin?["path"] as? [String] == ["Recycle Bin"])
            #expect(bin?["enableSearching"] as? Bool == false)
            let entry = try #require(Interop.entry(after, Self.wifi))
            #expect(entry["path"] as? [String] == ["Recycle Bin"])
        }
        // The unfiltered list leaves the recycle bin out; selecting it shows it.
        #expect(!(try mypass(["ls", vault]).stdoutText.contains("Home Wi-Fi")))
        #expect(try mypass(["ls", vault, "--group", "Recycle Bin"]).stdoutText.hasPrefix("Home Wi-Fi"))

        let second = try mypass(["rm", vault, "Recycle Bin/Home Wi-Fi"])
        #expect(second.stdoutText == "Deleted entry 'Recycle Bin/Home Wi-Fi'.\n")
        let third = try mypass(["rm", vault, Self.jira, "--permanent"])
        #expect(third.stdoutText == "Deleted entry 'Work/Jira'.\n")
        guard let after = try Interop.kporacleDump(vault, password: Demo.password, test: "remove") else { return }
        #expect(Interop.entry(after, Self.wifi) == nil)
        #expect(Interop.entry(after, Self.jira) == nil)
        let deleted = (after["deletedObjects"] as? [[String: Any]])?.compactMap { $0["uuid"] as? String } ?? []
        #expect(Set(deleted).isSuperset(of: [Self.wifi, Self.jira]))
        #expect(Interop.otherEntriesUnchanged(before: try original, after: after, changed: [Self.wifi, Self.jira]).isEmpty)

        guard let xc = try Interop.keepassxc(["ls", "-R", "-f", vault], password: Demo.password, test: "remove") else { return }
        #expect(xc.status == 0, "\(xc.stderrText)")
        #expect(!xc.stdoutText.contains("Jira"))
        #expect(!xc.stdoutText.contains("Home Wi-Fi"))
        #expect(xc.stdoutText.contains("Work/GitHub"))
    }

    @Test("attachment import, export and rm, read back by KeePass and KeePassXC")
    func attachments() throws {
        let file = TestVectors.url("cli/recovery-codes.txt").path
        let content = try TestVectors.bytes("cli/recovery-codes.txt")
        let imported = try mypass(["attachment", "import", vault, "Work/GitHub", "recovery-codes.txt", file])
        #expect(imported.stdoutText == "Attached 'recovery-codes.txt' (84 bytes) to 'Work/GitHub'.\n")
        let toStdout = try mypass(["attachment", "export", vault, "Work/GitHub", "recovery-codes.txt"])
        #expect(toStdout.stdout == content)
        let out = scratch.path("exported.txt")
        _ = try mypass(["attachment", "export", vault, "Work/GitHub", "recovery-codes.txt", out])
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))) == content)
        let shown = try mypass(["show", vault, "Work/GitHub"])
        #expect(shown.stdoutText.contains("Attachments:\n  recovery-codes.txt (84 bytes)\n"))

        if let after = try Interop.kporacleDump(vault, password: Demo.password, test: "attachments") {
            let entry = try #require(Interop.entry(after, Self.github))
            let attachment = (entry["attachments"] as? [String: Any])?["recovery-codes.txt"] as? [String: Any]
            #expect(attachment?["size"] as? Int == 84)
            // sha256sum Vectors/cli/recovery-codes.txt
            #expect(attachment?["sha256"] as? String == "b50a9ed37cffda6b4533fd481b1d8788a65b3c0b4a704c6a431cbd87a2bf881e")
            #expect((entry["history"] as? [Any])?.count == 1)
            #expect(Interop.otherEntriesUnchanged(before: try original, after: after, changed: [Self.github]).isEmpty)
        }
        if let xc = try Interop.keepassxc(
            ["attachment-export", vault, "Work/GitHub", "recovery-codes.txt", scratch.path("xc.txt")],
            password: Demo.password, test: "attachments")
        {
            #expect(xc.status == 0, "\(xc.stderrText)")
            #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: scratch.path("xc.txt")))) == content)
        }

        let removed = try mypass(["attachment", "rm", vault, "Work/GitHub", "recovery-codes.txt"])
        #expect(removed.stdoutText == "Removed attachment 'recovery-codes.txt' from 'Work/GitHub'.\n")
        guard let after = try Interop.kporacleDump(vault, password: Demo.password, test: "attachments") else { return }
        let entry = try #require(Interop.entry(after, Self.github))
        #expect((entry["attachments"] as? [String: Any])?.isEmpty == true)
        let history = try #require(entry["history"] as? [[String: Any]])
        #expect(history.count == 2)
        #expect((history.last?["attachments"] as? [String: Any])?.keys.sorted() == ["recovery-codes.txt"])
    }

    @Test("mkdir and rmdir, read back by KeePass and KeePassXC")
    func groups() throws {
        let made = try mypass(["mkdir", vault, "Work/Projects"])
        #expect(made.stdoutText.hasPrefix("Added group 'Work/Projects' ("))
        _ = try mypass(["add", vault, "Work/Projects/Roadmap", "--username", "pm"])
        if let xc = try Interop.keepassxc(["ls", vault, "Work/Projects"], password: Demo.password, test: "groups") {
            #expect(xc.status == 0, "\(xc.stderrText)")
            #expect(xc.stdoutText == "Roadmap\n")
        }
        if let after = try Interop.kporacleDump(vault, password: Demo.password, test: "groups") {
            let paths = (after["groups"] as? [[String: Any]])?.compactMap { $0["path"] as? [String] } ?? []
            #expect(paths.contains(["Work", "Projects"]))
            #expect(Interop.entry(after, titled: "Roadmap")?["path"] as? [String] == ["Work", "Projects"])
        }
        let removed = try mypass(["rmdir", vault, "Work/Projects"])
        #expect(removed.stdoutText == "Moved group 'Work/Projects' to the recycle bin.\n")
        guard let after = try Interop.kporacleDump(vault, password: Demo.password, test: "groups") else { return }
        let roadmap = try #require(Interop.entry(after, titled: "Roadmap"))
        #expect(roadmap["path"] as? [String] == ["Recycle Bin", "Projects"])
        let roadmapUUID = try #require(roadmap["uuid"] as? String)
        #expect(Interop.otherEntriesUnchanged(before: try original, after: after, changed: [roadmapUUID]).isEmpty)
    }

    @Test("totp on an HOTP entry hands out the counter's code and saves the advanced counter")
    func hotp() throws {
        _ = try mypass(["add", vault, "Work/Token", "--field", "HmacOtp-Secret=12345678901234567890", "--field", "HmacOtp-Counter=0"])
        // RFC 4226 appendix D: counter 0 gives 755224, counter 1 gives 287082.
        let first = try mypass(["totp", vault, "Work/Token"])
        #expect(first.stdoutText == "755224\n")
        #expect(first.stderrText == "HOTP counter advanced and saved\n")
        let second = try mypass(["totp", vault, "Work/Token"])
        #expect(second.stdoutText == "287082\n")
        guard let after = try Interop.kporacleDump(vault, password: Demo.password, test: "hotp") else { return }
        let entry = try #require(Interop.entry(after, titled: "Token"))
        #expect(Interop.fieldValue(entry, "HmacOtp-Counter") == "2")
    }

    @Test("a save keeps the file's permissions and leaves no temporary file")
    func permissionsKept() throws {
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: vault)
        _ = try mypass(["edit", vault, "Work/Jira", "--notes", "changed"])
        let attributes = try FileManager.default.attributesOfItem(atPath: vault)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) == ["demo.kdbx"])
        #expect(try mypass(["show", vault, "Work/Jira", "--field", "Notes"]).stdoutText == "changed\n")
    }
}
