import Foundation
import MyPassCrypto
import MyPassKDBX
import MyPassTestSupport
import Testing

/// Every changing command on one vault of each fixture family (KDBX 3.1 with AES, ChaCha20 and
/// Twofish payloads, 4.0, 4.1, key-file vaults), each step read back by KeePass (`kporacle dump`)
/// and KeePassXC (`keepassxc-cli`) with exactly that change: the file keeps its version, cipher,
/// KDF and compression, and every entry the step did not touch is as it was.
@Suite("Every changing command on every fixture family")
struct FixtureFamilyTests {
    struct Family: CustomStringConvertible, Sendable {
        var name: String
        var fixture: MyPassTestSupport.Fixture
        /// A 3.1 Twofish copy of the fixture, written by our codec (no fixture of that family exists
        /// and KeePass 2 has no Twofish without a plugin: KeePassXC alone reads it back).
        var asTwofish31 = false
        var description: String { name }
    }

    static let families: [Family] = {
        func fixture(_ name: String) -> MyPassTestSupport.Fixture {
            (FixtureCatalog.withManifest + FixtureCatalog.keepass).first { $0.name == name }!
        }
        return [
            Family(name: "3.1 AES", fixture: fixture("keepass/kdbx31-aes-aeskdf")),
            Family(name: "3.1 ChaCha20", fixture: fixture("thirdparty/kdbxweb/AesChaCha")),
            Family(name: "3.1 Twofish", fixture: fixture("keepass/kdbx31-aes-aeskdf"), asTwofish31: true),
            Family(name: "4.0 Argon2d", fixture: fixture("keepass/kdbx4-aes-argon2d")),
            Family(name: "4.1 AES-KDF", fixture: fixture("thirdparty/keepass-rs/test_db_kdbx41_with_password_aes")),
            Family(name: "4.0 password and key file", fixture: fixture("keepass/kdbx4-pw-keyfile-v2")),
            Family(name: "3.1 key file only", fixture: fixture("keepass/kdbx31-keyfile-only")),
        ]
    }()

    /// One family's vault in a scratch directory, with the arguments each tool needs for its key.
    struct Subject {
        let family: Family
        let scratch: Scratch
        let vault: String
        let keyFile: String?

        init(_ family: Family) throws {
            self.family = family
            let scratch = try Scratch()
            self.scratch = scratch
            let fixture = family.fixture
            vault = scratch.url.appendingPathComponent("vault.kdbx").path
            if family.asTwofish31 {
                var model = try KDBXCodec.open(try fixture.fileBytes, key: try fixture.compositeKey())
                model.format.cipher = PayloadCipher.twofish
                let bytes = try KDBXCodec.save(model, key: try fixture.compositeKey(), options: KDBXSaveOptions(targetVersion: .v3_1))
                try Data(bytes).write(to: URL(fileURLWithPath: vault))
            } else {
                try Data(try fixture.fileBytes).write(to: URL(fileURLWithPath: vault))
            }
            keyFile = try fixture.keyFile.map { try scratch.copy("kdbx/" + $0) }
        }

        var mypassKey: [String] {
            (keyFile.map { ["--keyfile", $0] } ?? []) + (family.fixture.password == nil ? ["--no-password"] : [])
        }
        var stdinPrefix: String { family.fixture.password.map { $0 + "\n" } ?? "" }

        func mypass(_ arguments: [String], extraStdin: String = "") throws {
            let result = try CLI.run(arguments + mypassKey, stdin: stdinPrefix + extraStdin)
            #expect(result.status == 0, "\(family): mypass \(arguments): \(result.stderrText)")
        }

        /// What KeePass sees, or nil (Twofish; kporacle missing: a visible skip, or a failure in CI).
        func keepass(_ test: String) throws -> [String: Any]? {
            guard !family.asTwofish31 else { return nil }
            guard let kporacle = InteropTools.kporacle else {
                if let message = InteropTools.missing("kporacle", test: test) { Issue.record(Comment(rawValue: message)) }
                return nil
            }
            var arguments = ["dump", vault]
            arguments += family.fixture.password.map { ["--pw", $0] } ?? ["--nopw"]
            arguments += keyFile.map { ["--keyfile", $0] } ?? []
            let result = try runProcess(kporacle, arguments)
            #expect(result.status == 0, "\(family): kporacle dump: \(result.stderrText)")
            return try parseJSON(result.stdoutText) as? [String: Any]
        }

        /// `keepassxc-cli COMMAND [options] VAULT ARGS`, or nil when it is missing.
        func keepassxc(_ command: String, _ options: [String] = [], _ arguments: [String] = [], test: String) throws -> ProcessResult? {
            guard let tool = InteropTools.executable(named: "keepassxc-cli") else {
                if let message = InteropTools.missing("keepassxc-cli", test: test) { Issue.record(Comment(rawValue: message)) }
                return nil
            }
            var all = [command, "-q"] + options
            if let keyFile { all += ["-k", keyFile] }
            if family.fixture.password == nil { all.append("--no-password") }
            let result = try runProcess(tool, all + [vault] + arguments, stdin: Array(stdinPrefix.utf8))
            #expect(result.status == 0, "\(family): keepassxc-cli \(command): \(result.stderrText)")
            return result
        }
    }

    static func entries(_ manifest: [String: Any]) -> [[String: Any]] { manifest["entries"] as? [[String: Any]] ?? [] }
    static func groupPaths(_ manifest: [String: Any]) -> [[String]] {
        (manifest["groups"] as? [[String: Any]] ?? []).map { $0["path"] as? [String] ?? [] }
    }

    @Test("mkdir, add, edit, attachment import and rm, mv, rm, rmdir: each read back by KeePass and KeePassXC", arguments: families)
    func everyCommand(_ family: Family) throws {
        let subject = try Subject(family)
        let test = "everyCommand(\(family))"
        let original = try subject.keepass(test)
        var previous = original
        /// Checks the step in KeePass: the file settings as they were, the entries other than
        /// `changed` as they were, then `check` on the new manifest.
        func step(_ label: String, changed: Set<String>, _ check: ([String: Any]) -> Void) throws {
            guard let before = previous, let after = try subject.keepass(test) else { return }
            #expect(manifestDifferences(expected: original?["file"] ?? [:], actual: after["file"] ?? [:]) == [], "\(family) \(label): file settings")
            let old = Set(Self.entries(before).compactMap { $0["uuid"] as? String })
            let added = Set(Self.entries(after).compactMap { $0["uuid"] as? String }).subtracting(old)
            #expect(added.count <= (label == "add" ? 1 : 0), "\(family) \(label): entries appeared")
            #expect(Interop.otherEntriesUnchanged(before: before, after: after, changed: changed.union(added)) == [], "\(family) \(label)")
            check(after)
            previous = after
        }

        try subject.mypass(["mkdir", subject.vault, "MyPassFamily"])
        try step("mkdir", changed: []) { after in
            #expect(Self.groupPaths(after).contains(["MyPassFamily"]))
            #expect(Self.groupPaths(after).count == Self.groupPaths(original!).count + 1)
        }
        if let xc = try subject.keepassxc("ls", [], ["MyPassFamily"], test: test) { #expect(xc.stdoutText == "[empty]\n") }

        try subject.mypass(["add", subject.vault, "MyPassFamily/Login", "--username", "alice", "--url", "https://login.example.com",
                            "--protected-field", "PIN=4711", "--password-prompt"], extraStdin: "s3cret-Ω\n")
        var uuid = ""
        try step("add", changed: []) { after in
            let added = Self.entries(after).filter { ($0["path"] as? [String]) == ["MyPassFamily"] }
            #expect(added.count == 1)
            guard let entry = added.first else { return }
            uuid = entry["uuid"] as? String ?? ""
            #expect(Interop.fieldValue(entry, "Title") == "Login")
            #expect(Interop.fieldValue(entry, "UserName") == "alice")
            #expect(Interop.fieldValue(entry, "URL") == "https://login.example.com")
            #expect(Interop.fieldValue(entry, "Password") == "s3cret-Ω")
            #expect(Interop.fieldValue(entry, "PIN") == "4711")
            #expect(Interop.fieldProtected(entry, "PIN") == true)
            #expect(Self.entries(after).count == Self.entries(original!).count + 1)
        }
        if let xc = try subject.keepassxc("show", ["-s"], ["MyPassFamily/Login"], test: test) {
            #expect(xc.stdoutText.contains("UserName: alice\n"))
            #expect(xc.stdoutText.contains("Password: s3cret-Ω\n"))
        }

        try subject.mypass(["edit", subject.vault, "MyPassFamily/Login", "--username", "bob", "--notes", "edited"])
        try step("edit", changed: [uuid]) { after in
            guard let entry = Interop.entry(after, uuid) else { Issue.record("\(family): edited entry missing"); return }
            #expect(Interop.fieldValue(entry, "UserName") == "bob")
            #expect(Interop.fieldValue(entry, "Notes") == "edited")
            let history = entry["history"] as? [[String: Any]] ?? []
            #expect(history.count == 1)
            #expect(history.first.flatMap { Interop.fieldValue($0, "UserName") } == "alice")
        }

        let attachment = subject.scratch.url.appendingPathComponent("data.bin")
        let data = (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try Data(data).write(to: attachment)
        try subject.mypass(["attachment", "import", subject.vault, "MyPassFamily/Login", "data.bin", attachment.path])
        try step("attachment import", changed: [uuid]) { after in
            let attachments = Interop.entry(after, uuid)?["attachments"] as? [String: Any]
            let item = attachments?["data.bin"] as? [String: Any]
            #expect(item?["size"] as? Int == 3000)
            #expect(item?["sha256"] as? String == hexString(SHA256.hash(data)))
        }
        let exported = subject.scratch.url.appendingPathComponent("exported.bin")
        if try subject.keepassxc("attachment-export", [], ["MyPassFamily/Login", "data.bin", exported.path], test: test) != nil {
            #expect(try [UInt8](Data(contentsOf: exported)) == data)
        }
        try subject.mypass(["attachment", "rm", subject.vault, "MyPassFamily/Login", "data.bin"])
        try step("attachment rm", changed: [uuid]) { after in
            #expect((Interop.entry(after, uuid)?["attachments"] as? [String: Any])?.isEmpty == true)
        }

        try subject.mypass(["mv", subject.vault, "MyPassFamily/Login", "/"])
        try step("mv", changed: [uuid]) { after in
            #expect(Interop.entry(after, uuid)?["path"] as? [String] == [])
        }
        if let xc = try subject.keepassxc("show", ["-s"], ["Login"], test: test) { #expect(xc.stdoutText.contains("UserName: bob\n")) }

        try subject.mypass(["rm", subject.vault, "Login"])
        try step("rm", changed: [uuid]) { after in
            let bin = (after["meta"] as? [String: Any])?["recycleBinUUID"] as? String
            let binPath = (after["groups"] as? [[String: Any]] ?? []).first { $0["uuid"] as? String == bin }?["path"] as? [String]
            if let entry = Interop.entry(after, uuid) {
                #expect(binPath != nil && entry["path"] as? [String] == binPath, "\(family): deleted entry outside the bin")
            } else {
                let deleted = (after["deletedObjects"] as? [[String: Any]] ?? []).compactMap { $0["uuid"] as? String }
                #expect(deleted.contains(uuid))
            }
        }

        try subject.mypass(["rmdir", subject.vault, "MyPassFamily"])
        try step("rmdir", changed: [uuid]) { after in
            #expect(!Self.groupPaths(after).contains(["MyPassFamily"]))
        }
        if let xc = try subject.keepassxc("ls", ["-R", "-f"], [], test: test) {
            let lines = xc.stdoutText.split(separator: "\n").map(String.init)
            #expect(!lines.contains("MyPassFamily/"))
            #expect(!lines.contains("Login"))
        }
        // The format survived all of it in KeePassXC's eyes too (Twofish included).
        if let xc = try subject.keepassxc("db-info", [], [], test: test) {
            let expectedCipher = family.asTwofish31 ? "Twofish 256-bit" : nil
            if let expectedCipher { #expect(xc.stdoutText.contains(expectedCipher), "\(xc.stdoutText)") }
        }
    }
}
