import Foundation
import MyPassBytes
import MyPassKDBX
import MyPassTestSupport
import Testing

/// Our saved files read by KeePassXC (`keepassxc-cli`) and by KeePass itself (`kporacle`).
@Suite("Interop: files we save open in KeePassXC and KeePass with nothing lost", .serialized)
struct InteropTests {
    static let fixtures: [Fixture] = [
        FixtureCatalog.keepass.first { $0.name.hasSuffix("kdbx31-aes-aeskdf") }!,
        FixtureCatalog.keepass.first { $0.name.hasSuffix("kdbx4-aes-argon2d") }!,
        FixtureCatalog.keepass.first { $0.name.hasSuffix("kdbx4-chacha20-argon2id") }!,
        FixtureCatalog.keepass.first { $0.name.hasSuffix("kdbx4-pw-keyfile-v2") }!,
        FixtureCatalog.keepass.first { $0.name.hasSuffix("kdbx31-keyfile-only") }!,
        FixtureCatalog.keepass.first { $0.name.hasSuffix("kxc-edited-argon2id") }!,
        FixtureCatalog.kdbxweb.first { $0.name.hasSuffix("KDBX4.1") }!,
        FixtureCatalog.kdbxweb.first { $0.name.hasSuffix("cyrillic") }!,
        FixtureCatalog.keepassRS.first { $0.name.hasSuffix("test_db_kdb3_with_file_larger_1mb") }!,
        FixtureCatalog.gokeepasslib.first { $0.name.hasSuffix("kdbx4_example") }!,
    ]

    static let scratch: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mypass-interop-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// Saves `vault` into the scratch folder and returns the path.
    static func write(_ bytes: [UInt8], _ name: String) throws -> URL {
        let url = scratch.appendingPathComponent(name.replacingOccurrences(of: "/", with: "_") + ".kdbx")
        try Data(bytes).write(to: url)
        return url
    }

    /// keepassxc-cli arguments for the fixture's key (password goes on stdin).
    static func keepassXCKeyArguments(_ fixture: Fixture) -> [String] {
        var arguments: [String] = []
        if let keyFile = fixture.keyFile { arguments += ["-k", TestVectors.url("kdbx/" + keyFile).path] }
        if fixture.password == nil { arguments.append("--no-password") }
        return arguments
    }

    /// kporacle arguments for the fixture's key.
    static func kporacleKeyArguments(_ fixture: Fixture) -> [String] {
        var arguments: [String] = fixture.password.map { ["--pw", $0] } ?? ["--nopw"]
        if let keyFile = fixture.keyFile { arguments += ["--keyfile", TestVectors.url("kdbx/" + keyFile).path] }
        return arguments
    }

    /// What `keepassxc-cli ls -R -f` prints for a vault: one line per group (`path/`, `path/[empty]`
    /// when it has nothing) and per entry (`path/title`).
    static func expectedListing(_ vault: Vault) -> Set<String> {
        var lines = Set<String>()
        vault.root.forEachGroup { group, path in
            let prefix = path.isEmpty ? "" : path.joined(separator: "/") + "/"
            if !path.isEmpty {
                lines.insert(prefix)
                if group.entries.isEmpty && group.groups.isEmpty { lines.insert(prefix + "[empty]") }
            }
            for entry in group.entries { lines.insert(prefix + entry.title) }
        }
        return lines
    }

    static func targets(for vault: Vault) -> [KDBXVersion?] {
        [nil, .v3_1, .v4_0, .v4_1].filter { target in
            (try? KDBXCodec.versionToWrite(for: vault, options: KDBXSaveOptions(targetVersion: target))) != nil
        }
    }

    @Test("keepassxc-cli ls -R and show read our files, every target version", arguments: fixtures)
    func keepassXC(_ fixture: Fixture) throws {
        guard let cli = InteropTools.executable(named: "keepassxc-cli") else {
            if let failure = InteropTools.missing("keepassxc-cli", test: "keepassXC") { Issue.record(Comment(rawValue: failure)) }
            return
        }
        let key = try fixture.compositeKey()
        let vault = try KDBXCodec.open(try fixture.fileBytes, key: key)
        let stdin = Array(((fixture.password ?? "") + "\n").utf8)
        for target in Self.targets(for: vault) {
            let saved = try KDBXCodec.save(vault, key: key, options: KDBXSaveOptions(targetVersion: target))
            let url = try Self.write(saved, fixture.name + "-\(String(describing: target))")
            let ls = try runProcess(cli, ["ls", "-R", "-f", "-q"] + Self.keepassXCKeyArguments(fixture) + [url.path], stdin: stdin)
            #expect(ls.status == 0, "\(fixture.name) \(String(describing: target)): \(ls.stderrText)")
            let listed = Set(ls.stdoutText.split(separator: "\n", omittingEmptySubsequences: true).map(String.init))
            #expect(listed == Self.expectedListing(vault), "\(fixture.name) \(String(describing: target))")
            // show: the first entry with a title unique in its group gives our password back.
            var checked = false
            vault.root.forEachGroup { group, path in
                guard !checked else { return }
                for entry in group.entries where !entry.title.isEmpty && group.entries.filter({ $0.title == entry.title }).count == 1 {
                    let entryPath = (path + [entry.title]).joined(separator: "/")
                    guard let show = try? runProcess(cli, ["show", "-s", "-q", "-a", "Password", "-a", "UserName"]
                        + Self.keepassXCKeyArguments(fixture) + [url.path, entryPath], stdin: stdin) else { return }
                    #expect(show.status == 0, "\(fixture.name): show \(entryPath): \(show.stderrText)")
                    #expect(show.stdoutText == entry.password.revealed + "\n" + entry.userName + "\n", "\(fixture.name): show \(entryPath)")
                    checked = true
                    return
                }
            }
            #expect(checked, "\(fixture.name): no entry to show")
        }
    }

    @Test("kporacle dump of our file equals KeePass's manifest of the original", arguments: fixtures)
    func keePassDump(_ fixture: Fixture) throws {
        guard let kporacle = InteropTools.kporacle else {
            if let failure = InteropTools.missing("kporacle", test: "keePassDump") { Issue.record(Comment(rawValue: failure)) }
            return
        }
        let key = try fixture.compositeKey()
        let vault = try KDBXCodec.open(try fixture.fileBytes, key: key)
        var expected = try fixture.expectedManifest() as! [String: Any]
        let expectedFile = expected["file"] as! [String: Any]
        expected["file"] = nil
        let targets = Self.targets(for: vault)
        for target in [targets.first!, targets.last!] {
            let version = try KDBXCodec.versionToWrite(for: vault, options: KDBXSaveOptions(targetVersion: target))
            let saved = try KDBXCodec.save(vault, key: key, options: KDBXSaveOptions(targetVersion: target))
            let url = try Self.write(saved, fixture.name + "-dump-\(version)")
            let dump = try runProcess(kporacle, ["dump", url.path] + Self.kporacleKeyArguments(fixture))
            #expect(dump.status == 0, "\(fixture.name) \(version): \(dump.stderrText)")
            guard dump.status == 0 else { continue }
            var actual = try JSONSerialization.jsonObject(with: Data(dump.stdout)) as! [String: Any]
            let actualFile = actual["file"] as! [String: Any]
            actual["file"] = nil
            #expect(actualFile["version"] as? String == version.description)
            #expect(actualFile["cipher"] as? String == expectedFile["cipher"] as? String)
            #expect(actualFile["compression"] as? String == expectedFile["compression"] as? String)
            let differences = manifestDifferences(expected: expected, actual: actual)
            #expect(differences.isEmpty, "\(fixture.name) \(version): \(differences.joined(separator: "; "))")
        }
    }

    @Test("files we save survive KeePass re-saving them and read back unchanged")
    func keePassResave() throws {
        guard let kporacle = InteropTools.kporacle else {
            if let failure = InteropTools.missing("kporacle", test: "keePassResave") { Issue.record(Comment(rawValue: failure)) }
            return
        }
        for fixture in [Self.fixtures[0], Self.fixtures[2], Self.fixtures[3]] {
            let key = try fixture.compositeKey()
            let vault = try KDBXCodec.open(try fixture.fileBytes, key: key)
            let ours = try Self.write(try KDBXCodec.save(vault, key: key), fixture.name + "-ours")
            let theirs = Self.scratch.appendingPathComponent(ours.lastPathComponent + ".kp.kdbx")
            let result = try runProcess(kporacle, ["save", ours.path, theirs.path] + Self.kporacleKeyArguments(fixture))
            #expect(result.status == 0, "\(fixture.name): \(result.stderrText)")
            guard result.status == 0 else { continue }
            let reread = try KDBXCodec.open([UInt8](try Data(contentsOf: theirs)), key: key)
            let differences = manifestDifferences(expected: try contentManifest(vault), actual: try contentManifest(reread))
            #expect(differences.isEmpty, "\(fixture.name): \(differences.joined(separator: "; "))")
        }
    }
}
