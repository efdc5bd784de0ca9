import Foundation
import MyPassTestSupport
import Testing

/// Conflict copies of a vault in a sync folder: named on every open, merged and removed by
/// `mypass merge VAULT --conflicts`. The copies are changed by KeePassXC itself.
@Suite("mypass merge --conflicts")
struct MergeConflictsCommandTests {
    let scratch: Scratch
    let vault: String

    init() throws {
        scratch = try Scratch()
        vault = try scratch.copy(Demo.vault)
    }

    func mypass(_ arguments: [String], stdin: String = Demo.stdin, status: Int32 = 0) throws -> ProcessResult {
        let result = try CLI.run(arguments + ["--no-agent"], stdin: stdin)
        #expect(result.status == status, "mypass \(arguments): \(result.stderrText)")
        return result
    }

    /// A copy of the vault under `name`, with an entry `title` added by keepassxc-cli (nil when
    /// keepassxc-cli is missing).
    func copy(_ name: String, adding title: String?) throws -> String? {
        let path = try scratch.copy(Demo.vault, as: name)
        if let title {
            guard let added = try Interop.keepassxc(["add", "-u", "copy", path, title], password: Demo.password, test: "conflicts")
            else { return nil }
            #expect(added.status == 0, "\(added.stderrText)")
        }
        return path
    }

    func titles(_ path: String) throws -> Set<String> {
        let listed = try mypass(["ls", path, "--json"])
        let entries = try #require(try parseJSON(listed.stdoutText) as? [[String: Any]])
        return Set(entries.compactMap { $0["title"] as? String })
    }

    @Test("every open names the copies in one note, with the command that merges them")
    func openNamesCopies() throws {
        guard try copy("demo.sync-conflict-20261204-101010-ABCDEFG.kdbx", adding: nil) != nil,
              try copy("demo (conflicted copy 2026-12-04 101010).kdbx", adding: nil) != nil,
              try copy("demo 2.kdbx", adding: nil) != nil
        else { return }
        _ = try scratch.write("demo-notes.txt", Array("not a copy".utf8))
        let listed = try mypass(["ls", vault])
        let notes = listed.stderrText.split(separator: "\n").filter { $0.contains("copies of") }
        #expect(notes.count == 1, "\(listed.stderrText)")
        let note = String(notes.first ?? "")
        #expect(note.contains("'demo.sync-conflict-20261204-101010-ABCDEFG.kdbx' (Syncthing)"), "\(note)")
        #expect(note.contains("'demo (conflicted copy 2026-12-04 101010).kdbx' (Nextcloud/ownCloud)"), "\(note)")
        #expect(note.contains("'demo 2.kdbx' (iCloud Drive, or an ordinary file with such a name)"), "\(note)")
        #expect(note.hasSuffix("merge them with: mypass merge \(vault) --conflicts"), "\(note)")
        #expect(!note.contains("demo-notes.txt"))
        // The AutoFill index's open (match) names them too.
        let matched = try CLI.run(["match", vault, "https://github.com", "--no-agent"], stdin: Demo.stdin)
        #expect(matched.stderrText.contains("3 copies of"), "\(matched.stderrText)")
    }

    @Test("the copies are merged, the vault saved once, the merged copies removed; an ordinary-looking name is left")
    func mergesAndRemoves() throws {
        guard let syncthing = try copy("demo.sync-conflict-20261204-101010-ABCDEFG.kdbx", adding: "From Syncthing copy"),
              let dropbox = try copy("demo (Sam's conflicted copy 2026-12-04).kdbx", adding: "From Dropbox copy"),
              let icloud = try copy("demo 2.kdbx", adding: "From iCloud copy")
        else { return }
        let result = try mypass(["merge", vault, "--conflicts"])
        #expect(result.stdoutText.contains("Merged 'demo.sync-conflict-20261204-101010-ABCDEFG.kdbx' (Syncthing): "), "\(result.stdoutText)")
        #expect(result.stdoutText.contains("2 of 2 copies merged; saved"), "\(result.stdoutText)")
        #expect(result.stderrText.contains("'demo 2.kdbx' may be a conflict copy (iCloud Drive)"), "\(result.stderrText)")
        #expect(try titles(vault).isSuperset(of: ["From Syncthing copy", "From Dropbox copy"]))
        #expect(try !titles(vault).contains("From iCloud copy"))
        #expect(!FileManager.default.fileExists(atPath: syncthing))
        #expect(!FileManager.default.fileExists(atPath: dropbox))
        #expect(FileManager.default.fileExists(atPath: icloud))
        // Named, it is merged, and still not removed.
        _ = try mypass(["merge", vault, "--conflicts", icloud])
        #expect(try titles(vault).contains("From iCloud copy"))
        #expect(FileManager.default.fileExists(atPath: icloud))
        // KeePassXC opens the result.
        let shown = try Interop.keepassxc(["show", "-a", "UserName", vault, "From Dropbox copy"], password: Demo.password, test: "conflicts")
        #expect(shown?.stdoutText == "copy\n")
    }

    @Test("--dry-run writes nothing and removes nothing; --keep keeps the merged copies")
    func dryRunAndKeep() throws {
        guard let syncthing = try copy("demo.sync-conflict-20261204-101010-ABCDEFG.kdbx", adding: "From copy") else { return }
        let before = try Data(contentsOf: URL(fileURLWithPath: vault))
        let dry = try mypass(["merge", vault, "--conflicts", "--dry-run"])
        #expect(dry.stdoutText.contains("would be removed"), "\(dry.stdoutText)")
        #expect(dry.stdoutText.contains("added    entry      From copy"), "\(dry.stdoutText)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: vault)) == before)
        #expect(FileManager.default.fileExists(atPath: syncthing))
        _ = try mypass(["merge", vault, "--conflicts", "--keep"])
        #expect(try titles(vault).contains("From copy"))
        #expect(FileManager.default.fileExists(atPath: syncthing))
        // Merged again: no changes, and now removed.
        let again = try mypass(["merge", vault, "--conflicts"])
        #expect(again.stdoutText.contains("no changes; removed."), "\(again.stdoutText)")
        #expect(!FileManager.default.fileExists(atPath: syncthing))
    }

    @Test("a copy with another key, a damaged one and another vault are left and named (exit 1); the others are merged")
    func copiesThatDoNotOpen() throws {
        guard let good = try copy("demo.sync-conflict-20261204-101010-ABCDEFG.kdbx", adding: "Good copy") else { return }
        // Another key: the same vault re-keyed (mypass passwd), with a key file.
        let rekeyed = try scratch.copy(Demo.vault, as: "demo.sync-conflict-20261204-111111-BCDEFGH.kdbx")
        let keyFile = try scratch.write("other.key", Array("a key file for the other copy".utf8))
        _ = try mypass(["passwd", rekeyed, "--new-keyfile", keyFile], stdin: "demo\nother\nother\n")
        let damaged = try scratch.write("demo.Conflict.kdbx", Array(repeating: 0x42, count: 300))
        // Another vault with the same password.
        let otherVault = scratch.path("demo (conflicted copy).kdbx")
        let created = try CLI.run(["create", otherVault, "--kdf", "aes", "--rounds", "1000"], stdin: "demo\ndemo\n")
        #expect(created.status == 0, "\(created.stderrText)")

        let result = try mypass(["merge", vault, "--conflicts"], status: 1)
        #expect(try titles(vault).contains("Good copy"))
        #expect(!FileManager.default.fileExists(atPath: good))
        for left in [rekeyed, damaged, otherVault] { #expect(FileManager.default.fileExists(atPath: left), "\(left)") }
        #expect(result.stdoutText.contains("Not merged: 'demo (conflicted copy).kdbx' (Dropbox): it is another vault"), "\(result.stdoutText)")
        #expect(result.stdoutText.contains("it does not open with the vault's key"), "\(result.stdoutText)")
        #expect(result.stdoutText.contains("Not merged: 'demo.Conflict.kdbx' (Resilio Sync): it is damaged"), "\(result.stdoutText)")
        #expect(CLI.firstErrorLine(result).hasPrefix("Error: not merged (see above): "), "\(result.stderrText)")

        // With its key, the re-keyed copy merges (and the others are still left, exit 1).
        let keyed = try mypass(["merge", vault, "--conflicts", "--other-keyfile", keyFile], stdin: "demo\nother\n", status: 1)
        #expect(keyed.stdoutText.contains("Merged 'demo.sync-conflict-20261204-111111-BCDEFGH.kdbx' (Syncthing)"), "\(keyed.stdoutText)")
        #expect(!FileManager.default.fileExists(atPath: rekeyed))
    }
}
