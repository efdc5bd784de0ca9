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
