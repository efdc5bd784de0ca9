import Foundation
import MyPassTestSupport
import Testing

/// `mypass merge` on copies of the demo vault, one side changed by KeePassXC itself; results read
/// back by KeePass (`kporacle`) and KeePassXC and compared with KeePass's own Synchronize.
@Suite("mypass merge")
struct MergeCommandTests {
    static let github = "e0000000000040008000000000000002"
    static let jira = "e0000000000040008000000000000003"
    static let dropbox = "e0000000000040008000000000000007"

    let scratch: Scratch
    let vault: String
    let other: String

    init() throws {
        scratch = try Scratch()
        vault = try scratch.copy(Demo.vault)
        other = try scratch.copy(Demo.vault, as: "other.kdbx")
    }

    func mypass(_ arguments: [String], stdin: String = Demo.stdin, status: Int32 = 0) throws -> ProcessResult {
        let result = try CLI.run(arguments, stdin: stdin)
        #expect(result.status == status, "mypass \(arguments): \(result.stderrText)")
        return result
    }

    /// `value` with every `tags` array sorted.
    static func sortingTags(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            var out: [String: Any] = [:]
            for (key, item) in object {
                out[key] = key == "tags" ? ((item as? [String])?.sorted() ?? item) : sortingTags(item)
            }
            return out
        }
        if let array = value as? [Any] { return array.map(sortingTags) }
        return value
    }

    func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test("a copy changed by KeePassXC: both sides' changes end up in VAULT, as KeePass's Synchronize makes them")
    func mergeKeePassXCChanges() throws {
        guard let edited = try Interop.keepassxc(["edit", "-u", "kx-user", other, "Work/GitHub"], password: Demo.password,
                                                 test: "mergeKeePassXCChanges")
        else { return }
        #expect(edited.status == 0, "keepassxc-cli edit: \(edited.stderrText)")
        _ = try Interop.keepassxc(["add", "-u", "new", other, "Personal/FromKeePassXC"], password: Demo.password, test: "merge")
        _ = try Interop.keepassxc(["rm", other, "Work/Jira"], password: Demo.password, test: "merge")
        _ = try mypass(["edit", vault, Self.dropbox, "--notes", "changed by mypass"])
        let before = scratch.path("before.kdbx")
        try FileManager.default.copyItem(atPath: vault, toPath: before)

        let result = try mypass(["merge", vault, other, "--same-credentials"])
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("added    entry      Personal/FromKeePassXC  ") })
        #expect(lines.contains("updated  entry      Work/GitHub  \(Self.github)"))
        #expect(lines.contains("moved    entry      Recycle Bin/Jira  \(Self.jira)"))
        // KeePassXC also touched the two groups it changed, made a recycle bin and updated Jira.
        #expect(lines.contains { $0.hasPrefix("added    group      Recycle Bin  ") })
        #expect(lines.contains("updated  meta       recycleBinUUID"))
        #expect(lines.last == "8 changes; saved '\(vault)'.")

        guard let after = try Interop.kporacleDump(vault, password: Demo.password, test: "mergeKeePassXCChanges") else { return }
        let github = try #require(Interop.entry(after, Self.github))
        #expect(Interop.fieldValue(github, "UserName") == "kx-user")
        #expect((github["history"] as? [[String: Any]])?.count == 1)
        #expect(Interop.entry(after, titled: "FromKeePassXC")?["path"] as? [String] == ["Personal"])
        #expect(Interop.entry(after, Self.jira)?["path"] as? [String] == ["Recycle Bin"])
        #expect(Interop.fieldValue(try #require(Interop.entry(after, Self.dropbox)), "Notes") == "changed by mypass")
        let shown = try Interop.keepassxc(["show", "-a", "UserName", vault, "Work/GitHub"], password: Demo.password, test: "merge")
        #expect(shown?.stdoutText == "kx-user\n")

        // KeePass's own Synchronize of the same two files gives the same vault.
        guard let kporacle = InteropTools.kporacle else { return }
        let theirs = scratch.path("theirs.kdbx"), resaved = scratch.path("ours-resaved.kdbx")
        let merged = try runProcess(kporacle, ["merge", before, other, theirs, "--pw", Demo.password])
        #expect(merged.status == 0, "\(merged.stderrText)")
        // Through a KeePass save too, so that only the merges can differ.
        let resave = try runProcess(kporacle, ["save", vault, resaved, "--pw", Demo.password])
        #expect(resave.status == 0, "\(resave.stderrText)")
        guard var expected = try Interop.kporacleDump(theirs, password: Demo.password, test: "merge"),
              var actual = try Interop.kporacleDump(resaved, password: Demo.password, test: "merge")
        else { return }
        expected["file"] = nil
        actual["file"] = nil
        // KeePassXC sorts tags; KeePass 2.47 compares them in order (2.5x normalises them), so a
        // history item may keep either side's order of the same tags.
        let differences = manifestDifferences(expected: Self.sortingTags(expected), actual: Self.sortingTags(actual))
        #expect(differences.isEmpty, "\(differences.prefix(10))")

        // Merging the same copy again changes nothing and writes nothing.
        let saved = try bytes(vault)
        let again = try mypass(["merge", vault, other, "--same-credentials"])
        #expect(again.stdoutText == "No changes; nothing saved.\n")
        #expect(try bytes(vault) == saved)
    }

    @Test("--dry-run prints the change log and writes nothing; --json prints it as JSON")
    func dryRunAndJSON() throws {
        _ = try mypass(["edit", other, Self.github, "--url", "https://github.com/acme"])
        _ = try mypass(["mkdir", other, "Work/Projects"])
        let original = try bytes(vault)
        let dry = try mypass(["merge", vault, other, "--dry-run"], stdin: "demo\ndemo\n")
        #expect(dry.stdoutText.hasSuffix("2 changes (dry run; nothing written).\n"))
        #expect(dry.stdoutText.contains("updated  entry      Work/GitHub  \(Self.github)\n"))
        #expect(try bytes(vault) == original)

        let json = try mypass(["merge", vault, other, "--same-credentials", "--json", "--dry-run"])
        let object = try #require(try parseJSON(json.stdoutText) as? [String: Any])
        #expect(object["dryRun"] as? Bool == true)
        #expect(object["saved"] as? Bool == false)
        let changes = try #require(object["changes"] as? [[String: Any]])
        #expect(changes.map { $0["kind"] as? String } == ["added", "updated"])
        #expect(changes.map { $0["object"] as? String } == ["group", "entry"])
        #expect(changes[0]["path"] as? [String] == ["Work", "Projects"])
        #expect(changes[1]["uuid"] as? String == Self.github)
        #expect(try bytes(vault) == original)

        let saved = try mypass(["merge", vault, other, "--same-credentials", "--json"])
        #expect((try parseJSON(saved.stdoutText) as? [String: Any])?["saved"] as? Bool == true)
        #expect(try bytes(vault) != original)
        let shown = try mypass(["show", vault, "Work/GitHub", "--field", "URL"])
        #expect(shown.stdoutText == "https://github.com/acme\n")
    }

    @Test("OTHER's password is read after VAULT's; a wrong one is exit 3 and nothing is written")
    func otherPasswordAndErrors() throws {
        let original = try bytes(vault)
        let wrong = try mypass(["merge", vault, other], stdin: "demo\nnot-it\n", status: 3)
        #expect(CLI.firstErrorLine(wrong) == "Error: cannot open '\(other)': wrong password or key file")
        let wrongVault = try mypass(["merge", vault, other], stdin: "not-it\ndemo\n", status: 3)
        #expect(CLI.firstErrorLine(wrongVault) == "Error: cannot open '\(vault)': wrong password or key file" + ErrorTests.hardwareKeyHint)
        #expect(try bytes(vault) == original)

        _ = try mypass(["merge", vault, other, "--same-credentials", "--other-no-password"], status: 2)
        _ = try mypass(["merge", vault, other, "--other-no-password"], status: 2)
        let missing = try mypass(["merge", vault, scratch.path("nope.kdbx")], stdin: "", status: 1)
        #expect(CLI.firstErrorLine(missing) == "Error: cannot open vault '\(scratch.path("nope.kdbx"))': no such file")
        let ok = try mypass(["merge", vault, other], stdin: "demo\ndemo\n")
        #expect(ok.stdoutText == "No changes; nothing saved.\n")
    }

    @Test("key files for both sides, and key-file-only vaults")
    func keyFiles() throws {
        let keyFile = try scratch.copy("kdbx/keepass/keyfile-v2.keyx")
        let local = try scratch.copy("kdbx/keepass/kdbx4-keyfile-only.kdbx")
        let remote = try scratch.copy("kdbx/keepass/kdbx4-keyfile-only.kdbx", as: "remote.kdbx")
        let result = try mypass(["merge", local, remote, "--no-password", "--keyfile", keyFile,
                                 "--other-no-password", "--other-keyfile", keyFile], stdin: "")
        #expect(result.stdoutText == "No changes; nothing saved.\n")
        let withPassword = try scratch.copy("kdbx/keepass/kdbx4-pw-keyfile-v2.kdbx")
        let password = "correct horse battery staple"
        let mixed = try mypass(["merge", withPassword, remote, "--keyfile", keyFile, "--other-no-password",
                                "--other-keyfile", keyFile], stdin: password + "\n")
        // Two vaults KeePass made separately: different UUIDs, so OTHER's tree comes in whole.
        #expect(mixed.stdoutText.hasSuffix("; saved '\(withPassword)'.\n"))
        #expect(mixed.stdoutText.contains("added    entry      Sample Entry  "))
    }
}
