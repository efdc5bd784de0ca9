import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX
import MyPassTestSupport
import Testing

@Suite("Import and CSV export: KeePassXC CSV, Bitwarden JSON, KeePass XML")
struct ImportExportTests {
    let now = KDBXTime(unixSeconds: 1_800_000_000)

    func read(_ name: String, _ format: VaultImport.Format) throws -> VaultImport.Contents {
        try VaultImport.read(try TestVectors.bytes("import/" + name), format: format, now: now)
    }

    func bytes(_ name: String) throws(CoreError) -> [UInt8] {
        do { return try TestVectors.bytes("import/" + name) } catch { throw CoreError(.io, "missing test file \(name)") }
    }

    func entry(_ root: Group, _ path: [String], _ title: String) -> Entry? {
        var group = root
        for name in path {
            guard let next = group.groups.first(where: { $0.name == name }) else { return nil }
            group = next
        }
        return group.entries.first { $0.title == title }
    }

    func openDemo() throws -> Vault {
        try KDBXCodec.open(try TestVectors.bytes("demo/demo.kdbx"), key: try CompositeKey(password: "demo", keyFileContents: nil))
    }

    @Test("The CSV export of the demo vault equals `keepassxc-cli export -f csv` of it, byte for byte")
    func csvExportMatchesKeePassXC() throws {
        #expect(KeePassXCCSV.export(try openDemo()) == (try TestVectors.text("import/demo-keepassxc.csv")))
    }

    @Test("KeePassXC's CSV of the demo vault reads back to its entries, groups, passwords, TOTP, icons and times")
    func keePassXCCSVImport() throws {
        let root = try read("demo-keepassxc.csv", .keePassXCCSV).root
        let demo = try openDemo()
        #expect(root.entryCount == demo.allEntries.count)
        #expect(root.groups.map(\.name) == demo.root.groups.map(\.name))
        let github = try #require(entry(root, ["Work"], "GitHub"))
        #expect(github.userName == "sam-dev" && github.password.revealed == "gh-Xq8!vR2#mT5pL" && github.url == "https://github.com/login")
        #expect(github.field(named: "otp")?.isProtected == true && github.field(named: "Password")?.isProtected == true)
        #expect(github.value(of: "otp") == "otpauth://totp/GitHub:sam-dev?secret=JBSWY3DPEHPK3PXP&period=30&digits=6&issuer=GitHub")
        #expect(github.iconID == 1 && github.times.creation == KDBXTime(iso8601: "2026-01-15T09:30:00Z"))
        let mail = try #require(entry(root, ["Work", "Email"], "Company Mail"))
        #expect(mail.notes == "IMAP: imap.example.com:993\nSMTP: smtp.example.com:587" && mail.iconID == 19)
        // Written again, it is the same CSV apart from the root's name.
        var vault = Vault.new(name: "Demo", now: now)
        vault.root.groups = root.groups
        vault.root.entries = root.entries
        #expect(KeePassXCCSV.export(vault) == (try TestVectors.text("import/demo-keepassxc.csv")))
    }

    @Test("Bitwarden's JSON: folders as nested groups, URIs, TOTP, custom fields by type, notes, cards, favorites")
    func bitwardenImport() throws {
        let root = try read("bitwarden.json", .bitwardenJSON).root
        #expect(root.groups.map(\.name) == ["Work", "Finance"])
        #expect(root.groups[0].groups.map(\.name) == ["Servers"])
        let github = try #require(entry(root, ["Work"], "GitHub"))
        #expect(github.userName == "sam-dev" && github.password.revealed == "gh-Xq8!vR2#mT5pL")
        #expect(github.url == "https://github.com/login" && github.value(of: "KP2A_URL_1") == "https://gist.github.com/")
        #expect(github.value(of: "otp") == "otpauth://totp/GitHub:sam-dev?secret=JBSWY3DPEHPK3PXP&issuer=GitHub")
        #expect(github.notes == "Work account.\nRecovery codes in the safe.")
        #expect(github.field(named: "Recovery email")?.isProtected == false && github.value(of: "Recovery email") == "ops@example.com")
        #expect(github.field(named: "API token")?.isProtected == true && github.value(of: "API token") == "ghp_ExampleToken123")
        #expect(github.value(of: "Is admin") == "true" && github.value(of: "Login name") == "{USERNAME}")
        #expect(github.tags == ["Favorite"])
        #expect(github.times.creation == KDBXTime(iso8601: "2026-01-02T08:00:00Z"))
        #expect(github.times.lastModification == KDBXTime(iso8601: "2026-03-04T10:20:30Z"))
        #expect(try github.otpParameters() != nil)
        let server = try #require(entry(root, ["Work", "Servers"], "db-1 \"primary\""))
        #expect(server.password.revealed == "s3rv3r-Pässwörd")
        #expect(server.value(of: "otp") == "otpauth://totp/db-1%20%22primary%22:root?secret=JBSWY3DPEHPK3PXP&period=30&digits=6&issuer=db-1%20%22primary%22")
        let note = try #require(entry(root, [], "Wi-Fi at home"))
        #expect(note.notes == "SSID: SampleNet\nPassphrase: wifi-Demo-Passphrase" && note.userName.isEmpty)
        let card = try #require(entry(root, ["Finance"], "Visa"))
        #expect(card.value(of: "Card Number") == "4111111111111111" && card.field(named: "Card Number")?.isProtected == true)
        #expect(card.value(of: "Card Code") == "123" && card.value(of: "Card Holder") == "Sam Sample")
        #expect(card.value(of: "Card Expiry Month") == "12" && card.value(of: "Card Expiry Year") == "2030")
    }

    @Test("Bitwarden organisation export: collections as groups (first one wins), an SSH key item, password history as history items")
    func bitwardenOrganisationImport() throws {
        let root = try read("bitwarden-org.json", .bitwardenJSON).root
        #expect(root.groups.map(\.name) == ["Ops", "Shared"])
        let key = try #require(entry(root, ["Ops", "Servers"], "deploy key"))
        #expect(key.field(named: "SSH Private Key")?.isProtected == true)
        #expect(key.value(of: "SSH Private Key").hasPrefix("-----BEGIN OPENSSH PRIVATE KEY-----\n"))
        #expect(key.value(of: "SSH Public Key").hasPrefix("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5") && key.field(named: "SSH Public Key")?.isProtected == false)
        #expect(key.value(of: "SSH Key Fingerprint") == "SHA256:ExampleFingerprintExampleFingerprint0000000")
        let router = try #require(entry(root, ["Shared"], "Router"))
        #expect(router.password.revealed == "r0uter-Now")
        #expect(router.history.map(\.password.revealed) == ["r0uter-First", "r0uter-Later"])
        #expect(router.history.map(\.times.lastModification) == [KDBXTime(iso8601: "2026-02-01T10:00:00Z"), KDBXTime(iso8601: "2026-04-01T10:00:00Z")])
        #expect(router.history.allSatisfy { $0.uuid == router.uuid && $0.history.isEmpty && $0.userName == "admin" })
        #expect(entry(root, [], "Loose note")?.notes == "In no collection.")
    }

    @Test("KeePass XML: the plain export reads with its entries, groups and meta")
    func keePassXMLImport() throws {
        let contents = try VaultImport.read(try TestVectors.bytes("kdbx-xml/rich-export.xml"), format: .keePassXML, now: now)
        let manifest = try #require(try parseJSON(try TestVectors.text("kdbx-xml/kxc-import-rich.json")) as? [String: Any])
        #expect(contents.root.entryCount == (manifest["entries"] as? [Any])?.count)
        #expect(contents.meta?.databaseName == (manifest["meta"] as? [String: Any])?["databaseName"] as? String)
        var vault = SampleVault().vault
        let before = vault.allEntries.count
        let uuid = try vault.addImported(contents, asGroupNamed: "rich-export", now: now)
        #expect(vault.group(withUUID: uuid)?.name == "rich-export")
        #expect(vault.allEntries.count == before + contents.root.entryCount)
        // Importing the same file again under another name gives fresh UUIDs: none is used twice.
        try vault.addImported(contents, asGroupNamed: "again", now: now)
        let uuids = vault.allEntries.map(\.uuid)
        #expect(Set(uuids).count == uuids.count)
        #expect(throws: CoreError(.invalidImport)) { try vault.addImported(contents, asGroupNamed: "again", now: now) }
    }

    @Test("Bad files give .invalidImport naming the line", arguments: [
        ("bad-columns.csv", VaultImport.Format.keePassXCCSV, "line 1"),
        ("bad-duplicate-column.csv", .keePassXCCSV, "line 1"),
        ("bad-short-record.csv", .keePassXCCSV, "line 3"),
        ("bad-unclosed-quote.csv", .keePassXCCSV, "line 4"),
        ("bad-broken.json", .bitwardenJSON, "line 5"),
        ("bad-duplicate-folder.json", .bitwardenJSON, "line 5"),
        ("bad-duplicate-field.json", .bitwardenJSON, "line 10"),
        ("bitwarden.json", .keePassXCCSV, "line 2"),
        ("demo-keepassxc.csv", .bitwardenJSON, "line 1"),
    ])
    func badFiles(name: String, format: VaultImport.Format, line: String) throws {
        do throws(CoreError) {
            _ = try VaultImport.read(try bytes(name), format: format, now: now)
            Issue.record("\(name) was read")
        } catch {
            #expect(error.code == .invalidImport)
            #expect(error.location == line, "\(name): \(error.description)")
        }
    }

    @Test("Hostile input: deep JSON nesting, stray quotes and non-UTF-8 are refused, never a crash")
    func hostileInput() throws {
        let deep = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
        #expect(throws: CoreError(.invalidImport)) { try VaultImport.read(deep, format: .bitwardenJSON, now: now) }
        #expect(throws: CoreError(.invalidImport)) { try CSVTable(parsing: "a,b\"c\n") }
        #expect(throws: CoreError(.invalidImport)) { try CSVTable(parsing: "\"a\"b\n") }
        #expect(throws: CoreError(.invalidImport)) { try VaultImport.read([0x22, 0xFF, 0xFE, 0x22], format: .keePassXCCSV, now: now) }
        #expect(throws: CoreError(.invalidImport)) { try VaultImport.read(Array("{\"items\": \"\\ud800\"}".utf8), format: .bitwardenJSON, now: now) }
        #expect(throws: CoreError(.invalidImport)) { try VaultImport.read(Array("<KeePassFile><Root>".utf8), format: .keePassXML, now: now) }
        let table = try CSVTable(parsing: "\u{FEFF}\"a\",\"b \"\"q\"\"\"\r\n\r\n\"multi\nline\",x\n")
        #expect(table.records == [CSVTable.Record(fields: ["a", "b \"q\""], line: 1), CSVTable.Record(fields: ["multi\nline", "x"], line: 3)])
    }

    @Test("Bitwarden passkeys (fido2Credentials) become KeePassXC passkey fields; the ones that cannot are named in warnings")
    func bitwardenPasskeys() throws {
        let contents = try read("bitwarden-passkeys.json", .bitwardenJSON)
        let json = try #require(try parseJSON(try TestVectors.text("import/bitwarden-passkeys.json")) as? [String: Any])
        let items = try #require(json["items"] as? [[String: Any]])
        func keyValue(_ item: Int, _ credential: Int = 0) throws -> [UInt8] {
            let login = try #require(items[item]["login"] as? [String: Any])
            let credentials = try #require(login["fido2Credentials"] as? [[String: Any]])
            return try Base64URL.decode(try #require(credentials[credential]["keyValue"] as? String))
        }
        let example = try #require(entry(contents.root, ["Web"], "Example"))
        let passkey = try #require(try example.passkey())
        #expect(passkey.credentialID == [UInt8](hex: "3f2a9c4e51b74d089e6a0c1d2e3f4a5b"))
        #expect(passkey.relyingParty == "example.com" && passkey.username == "sam" && passkey.userHandle == Array("user-handle-sam-1".utf8))
        #expect(passkey.privateKey.pkcs8DER.withUnsafeBytes { Array($0) } == (try keyValue(0)))
        #expect(example.password.revealed == "ex-Passw0rd" && example.url == "https://example.com/login" && example.tags == ["Passkey"])
        #expect(example.field(named: PasskeyFieldNames.privateKeyPEM)?.isProtected == true)
        let only = try #require(entry(contents.root, [], "Passkey only"))
        let onlyKey = try #require(try only.passkey())
        #expect(onlyKey.credentialID == Array(0..<32) && onlyKey.userHandle == [1, 2, 3, 4])
        #expect(only.userName == "alice" && only.url == "https://login.example.org")
        let two = try #require(entry(contents.root, [], "Two passkeys"))
        #expect(try two.passkey()?.username == "bob")
        #expect(try two.passkey()?.privateKey.pkcs8DER.withUnsafeBytes { Array($0) } == (try keyValue(2)))
        let unreadable = try #require(entry(contents.root, [], "Unreadable passkey"))
        #expect(!unreadable.hasPasskey && unreadable.password.revealed == "c-Pw")
        #expect(contents.warnings == [
            "item 'Two passkeys' (line 124): passkey 2 of 2 (two.example.net) was not imported: an entry holds one passkey",
            "item 'Unreadable passkey' (line 168): its passkey (broken.example.com) was not imported: its keyValue is not a P-256 private key in PKCS#8",
        ])
        // The other Bitwarden exports have no passkey and nothing to warn about.
        #expect(try read("bitwarden.json", .bitwardenJSON).warnings.isEmpty)
    }

    @Test("The format of an export from its name and first bytes, the content winning")
    func formatDetection() throws {
        func detect(_ name: String?, _ text: String) -> String {
            guard let found = VaultImport.detectFormat(fileName: name, bytes: Array(text.utf8)) else { return "none" }
            return "\(found.format.rawValue) \(found.byExtension) \(found.byContent) \(found.contradictedExtension?.rawValue ?? "-")"
        }
        let csv = try TestVectors.text("import/demo-keepassxc.csv")
        #expect(detect("export.json", "{\"items\": []}") == "bitwarden-json true true -")
        #expect(detect(nil, "\u{FEFF}\n  {") == "bitwarden-json false true -")
        #expect(detect("Export.CSV", csv) == "keepassxc-csv true true -")
        #expect(detect("export.txt", csv) == "keepassxc-csv false true -")
        #expect(detect("export.txt", "Group,Title,Username,Password,URL,Notes,TOTP,Icon,Last Modified,Created\n") == "keepassxc-csv false true -")
        #expect(detect("a.xml", "<?xml version=\"1.0\"?><KeePassFile>") == "keepass-xml true true -")
        #expect(detect("a.json", "<KeePassFile>") == "keepass-xml false true bitwarden-json")
        #expect(detect("a.csv", "") == "keepassxc-csv true false -")
        #expect(detect("a.csv", "name,login_uri\n") == "keepassxc-csv true false -")
        #expect(detect("a.dat", "name,login_uri\n") == "none")
        #expect(detect("dir.json/file", "") == "none")
        #expect(detect(nil, "<html>") == "none")
    }
}
