import Foundation
import MyPassKDBX
import MyPassTestSupport
import Testing

@Suite("Vault manifest")
struct ManifestTests {
    /// The rich vault from KeePass's plain XML export, with the file section of KeePassXC's import.
    static func richVault() throws -> Vault {
        let body = try readPlainExport("rich-export.xml")
        let format = VaultFormat(version: .v4_0, cipher: .aes256, kdf: .aes(rounds: 5_555_555), compression: .gzip)
        return Vault(format: format, body: body)
    }

    @Test("The manifest of KeePass's XML export equals KeePass's manifest of the same vault imported by KeePassXC")
    func manifestMatchesOracle() throws {
        let vault = try Self.richVault()
        let actual = try parseJSON(VaultManifest.json(of: vault))
        let expected = try parseJSON(TestVectors.text("kdbx-xml/kxc-import-rich.json"))
        let differences = manifestDifferences(expected: expected, actual: actual) { path in
            // What KeePassXC's import changed (checked against KeePass's own manifest below): its
            // bookkeeping custom data item, sorted tags, and icon 66 (not in its icon set) reset to 0.
            path.hasSuffix(".customData._LAST_MODIFIED") || path == "$.entries[9].tags" || path == "$.groups[4].iconID"
        }
        #expect(differences.isEmpty, "\(differences.prefix(30).joined(separator: "\n"))")
        #expect(vault.allEntries[9].tags == ["dev", "2fa"])
        #expect(vault.allGroups[4].iconID == 66)
    }

    @Test("The export's content equals KeePass's manifest of the rich KDBX 3.1 vault (UUIDs and times aside)")
    func contentMatchesKeePassManifest() throws {
        let vault = try Self.richVault()
        let actual = try parseJSON(VaultManifest.json(of: vault))
        let expected = try parseJSON(TestVectors.text("kdbx-xml/kdbx31-aes-aeskdf.json"))
        let differences = manifestDifferences(expected: expected, actual: actual) { path in
            // The 3.1 vault was generated separately: its own name, other UUIDs and times, a 3.1 file section, and
            // no group or entry custom data (a KDBX 4 feature).
            let last = path.split(separator: ".").last.map(String.init) ?? ""
            return path == "$.file" || path == "$.meta.databaseName" || last.hasSuffix("uuid") || last.hasSuffix("UUID") || last == "times"
                || last == "lastTopVisibleEntry" || last == "deletionTime"
                || (path.hasSuffix(".customData") && !path.hasPrefix("$.meta"))
        }
        #expect(differences.isEmpty, "\(differences.prefix(30).joined(separator: "\n"))")
        #expect(vault.meta.databaseName == "Fixture xml-export")
    }
}

@Suite("Vault manifest JSON text")
struct ManifestTextTests {
    @Test("Strings are escaped so that any value parses back unchanged")
    func escaping() throws {
        var vault = Vault.new(name: "Q\"uote\\s", now: .minimum)
        var entry = Entry(uuid: KDBXUUID(hex: "000102030405060708090a0b0c0d0e0f")!)
        let nasty = "ctl\u{1}\u{1F} tab\t nl\n cr\r \"q\" \\b ✓ 🔑 \u{2028}"
        entry.setValue(nasty, for: "Weird \"key\"\n", isProtected: true)
        vault.root.entries = [entry]
        for indent in [0, 2] {
            let text = VaultManifest.json(of: vault, indent: indent)
            let json = try #require(try parseJSON(text) as? [String: Any])
            let entries = try #require(json["entries"] as? [[String: Any]])
            let fields = try #require(entries.first?["fields"] as? [String: [String: Any]])
            #expect(fields["Weird \"key\"\n"]?["value"] as? String == nasty)
            #expect(fields["Weird \"key\"\n"]?["protected"] as? Bool == true)
            #expect((json["meta"] as? [String: Any])?["databaseName"] as? String == "Q\"uote\\s")
            #expect(entries.first?["uuid"] as? String == "000102030405060708090a0b0c0d0e0f")
            #expect(text.contains("ctl\\u0001\\u001f tab\\t nl\\n cr\\r \\\"q\\\" \\\\b ✓ 🔑"))
        }
    }

    @Test("Value forms: null UUIDs, tri-states, colours, times, KDF and file section")
    func valueForms() throws {
        var vault = Vault.new(name: "R", now: KDBXTime(year: 2026, month: 11, day: 29, hour: 22, minute: 3, second: 31)!,
                              format: VaultFormat(version: .v4_1, cipher: .chacha20, kdf: .argon2(Argon2Settings(variant: .argon2id, memoryBytes: 4_194_304, iterations: 3, parallelism: 2)), compression: .none))
        vault.root.enableSearching = false
        var entry = Entry(uuid: .random())
        entry.foregroundColor = "#ff00aa"
        vault.root.entries = [entry]
        let json = try #require(try parseJSON(VaultManifest.json(of: vault)) as? [String: Any])
        let file = try #require(json["file"] as? [String: Any])
        #expect(file["version"] as? String == "4.1" && file["cipher"] as? String == "chacha20" && file["compression"] as? String == "none")
        let kdf = try #require(file["kdf"] as? [String: Any])
        #expect(kdf["type"] as? String == "argon2id" && kdf["memory"] as? Int == 4_194_304 && kdf["iterations"] as? Int == 3)
        #expect(kdf["parallelism"] as? Int == 2 && kdf["version"] as? Int == 19)
        let group = try #require((json["groups"] as? [[String: Any]])?.first)
        #expect(group["enableAutoType"] is NSNull && group["enableSearching"] as? Bool == false)
        #expect(group["customIconUUID"] is NSNull && group["lastTopVisibleEntry"] is NSNull)
        #expect(group["path"] as? [String] == [])
        #expect((group["times"] as? [String: Any])?["creation"] as? String == "2026-11-29T22:03:31Z")
        let manifestEntry = try #require((json["entries"] as? [[String: Any]])?.first)
        #expect(manifestEntry["foregroundColor"] as? String == "#FF00AA" && manifestEntry["backgroundColor"] as? String == "")
        #expect((json["meta"] as? [String: Any])?["recycleBinUUID"] is NSNull)
    }
}
