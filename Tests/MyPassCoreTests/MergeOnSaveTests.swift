import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX
import MyPassTestSupport
import Testing

/// The merge as a save uses it when the file changed on disk since it was read: the file's vault is
/// `local` (its format and key stay), the vault in memory with our edits is `remote`.
@Suite("Merge on save")
struct MergeOnSaveTests {
    static let password = "demo"

    @Test("keepassxc-cli changes the file between our read and our write: both changes survive")
    func keePassXCEditsBetweenReadAndWrite() throws {
        guard let keepassxc = InteropTools.executable(named: "keepassxc-cli") else {
            if let failure = InteropTools.missing("keepassxc-cli", test: "keePassXCEditsBetweenReadAndWrite") {
                Issue.record(Comment(rawValue: failure))
            }
            return
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mypass-mergesave-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("demo.kdbx")
        try FileManager.default.copyItem(at: TestVectors.url("demo/demo.kdbx"), to: file)
        let key = try CompositeKey(password: ProtectedString(Self.password), keyFileContents: nil)

        // Our read, and an edit in memory (as `mypass edit` makes it), through the document.
        var document = try VaultDocument.open(file.path, key: key)
        let github = document.vault.allEntries.first { $0.title == "GitHub" }!.uuid
        let now = KDBXTime(unixSeconds: Int64(Date().timeIntervalSince1970))
        try document.vault.editEntry(github, now: now) { $0.url = "https://github.com/acme" }

        // Meanwhile KeePassXC edits another entry and adds one, saving over the file.
        let edit = try runProcess(keepassxc, ["edit", "-u", "kx-user", file.path, "Personal/Dropbox"],
                                  stdin: Array("demo\n".utf8))
        #expect(edit.status == 0, "\(edit.stderrText)")
        let add = try runProcess(keepassxc, ["add", "-u", "new", file.path, "Work/Added by KeePassXC"],
                                 stdin: Array("demo\n".utf8))
        #expect(add.status == 0, "\(add.stderrText)")

        // Our write: the file changed, so the save merges our vault into what it holds now.
        let report = try document.save()
        let merged = try #require(report.merged)
        #expect(merged.count == 1)
        #expect(merged.first?.hasPrefix("updated entry Work/GitHub") == true)

        let shown = try runProcess(keepassxc, ["show", "-a", "URL", file.path, "Work/GitHub"], stdin: Array("demo\n".utf8))
        #expect(shown.stdoutText == "https://github.com/acme\n")
        let dropbox = try runProcess(keepassxc, ["show", "-a", "UserName", file.path, "Personal/Dropbox"],
                                     stdin: Array("demo\n".utf8))
        #expect(dropbox.stdoutText == "kx-user\n")
        let added = try runProcess(keepassxc, ["show", "-a", "UserName", file.path, "Work/Added by KeePassXC"],
                                   stdin: Array("demo\n".utf8))
        #expect(added.stdoutText == "new\n")
        #expect(document.vault.entry(withUUID: github)?.history.count == 1)
    }

    @Test("a large vault merges with a copy that changed every tenth entry")
    func largeVault() throws {
        let key = try CompositeKey(password: ProtectedString("correct horse battery staple"), keyFileContents: nil)
        let local = try KDBXCodec.open(try TestVectors.bytes("kdbx/keepass/kdbx4-large-5000.kdbx"), key: key)
        var remote = local
        let later = KDBXTime(year: 2027, month: 1, day: 1)!
        let entries = local.allEntries
        for (index, entry) in entries.enumerated() where index % 10 == 0 {
            try remote.editEntry(entry.uuid, now: later) { $0.notes = "changed \(index)" }
        }
        var added = Entry()
        added.title = "New"
        try remote.addEntry(added, to: remote.root.uuid, now: later)
        let clock = ContinuousClock()
        var result: MergeResult?
        let elapsed = try clock.measure { result = try VaultMerge.merge(local: local, remote: remote) }
        let changes = try #require(result).changes
        #expect(changes.filter { $0.kind == .updated }.count == (entries.count + 9) / 10)
        #expect(changes.filter { $0.kind == .added }.count == 1)
        print("merge of \(entries.count) entries, every tenth changed: \(elapsed)")
        let again = try VaultMerge.merge(local: try #require(result).vault, remote: remote)
        #expect(again.changes.isEmpty)
    }
}
