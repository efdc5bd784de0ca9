import Foundation
import MyPassBytes
import MyPassKDBX
import MyPassTestSupport
import Testing

@Suite("Plain XML export: KeePass imports it with nothing lost", .serialized)
struct ExportInteropTests {
    /// The rich export plus edits of every kind the export must carry.
    static func editedVault() throws -> Vault {
        var vault = Vault(format: VaultFormat(version: .v4_0, compression: .gzip), body: try readPlainExport("rich-export.xml"))
        let t = KDBXTime(year: 2030, month: 6, day: 15, hour: 8, minute: 9, second: 10)!
        var group = Group(uuid: KDBXUUID(hex: "0102030405060708090a0b0c0d0e0f10")!, name: "Added <&> \"group\"", iconID: 12, times: Times(all: t))
        group.notes = "multi\nline\tnotes"
        group.enableAutoType = true
        group.enableSearching = false
        group.defaultAutoTypeSequence = "{USERNAME}"
        group.customData = [CustomDataItem(key: "g", value: "group data")]
        var entry = Entry(uuid: KDBXUUID(hex: "1112131415161718191a1b1c1d1e1f20")!, times: Times(all: t))
        entry.title = "Added ✓ 🔑"
        entry.userName = "bob"
        entry.password = ProtectedString("p@ss <w&rd> ]]>")
        entry.url = "https://example.com/?a=1&b=2"
        entry.setValue("secret\ttab & <tag>", for: "Custom Secret", isProtected: true)
        entry.tags = ["one", "two words"]
        entry.backgroundColor = "#00FF00"
        entry.overrideURL = "cmd://x"
        entry.times.expires = true
        entry.times.expiry = .maximum
        entry.times.usageCount = 42
        entry.autoType = AutoType(isEnabled: false, obfuscation: 1, defaultSequence: "{PASSWORD}{ENTER}",
                                  associations: [AutoTypeAssociation(window: "Win*", sequence: "")])
        entry.customData = [CustomDataItem(key: "e", value: "entry data")]
        entry.attachments = [Attachment(name: "new.bin", data: (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7) }),
                             Attachment(name: "empty", data: [])]
        var old = entry
        old.password = ProtectedString("older")
        old.times.lastModification = KDBXTime(year: 2029, month: 1, day: 1)!
        entry.history = [old]
        group.entries = [entry]
        vault.root.groups.append(group)
        return vault
    }

    @Test("kporacle from-xml of our export, dumped by KeePass, equals our manifest")
    func keePassImportsOurExport() throws {
        guard let kporacle = InteropTools.kporacle else {
            if let message = InteropTools.missing("kporacle", test: "plain XML import") { Issue.record(Comment(rawValue: message)) }
            return
        }
        let vault = try Self.editedVault()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("mypass-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let xmlURL = scratch.appendingPathComponent("export.xml"), kdbxURL = scratch.appendingPathComponent("imported.kdbx")
        try Data(KeePassXMLExport.export(vault)).write(to: xmlURL)
        let imported = try runProcess(kporacle, ["from-xml", xmlURL.path, kdbxURL.path, "--pw", "test"])
        #expect(imported.status == 0, "\(imported.stderrText)")
        let dump = try runProcess(kporacle, ["dump", kdbxURL.path, "--pw", "test"])
        #expect(dump.status == 0, "\(dump.stderrText)")
        let expected = try parseJSON(VaultManifest.json(of: vault))
        let actual = try parseJSON(dump.stdoutText)
        let differences = manifestDifferences(expected: expected, actual: actual) { path in
            // KeePass's XML import does not keep UserName's in-memory protection (it does the same
            // with its own export: `kporacle from-xml rich-export.xml` dumps UserName unprotected).
            // Group tags are our own addition to the manifest (KDBX 4.1; KeePass 2.47 has none).
            path == "$.file" || path.hasSuffix(".fields.UserName.protected")
                || (path.hasPrefix("$.groups[") && path.hasSuffix("].tags"))
        }
        #expect(differences.isEmpty, "\(differences.prefix(30).joined(separator: "\n"))")
        // The manifest covers the new entry (guards against comparing two empty things).
        #expect(dump.stdoutText.contains("1112131415161718191a1b1c1d1e1f20"))
    }
}
