import MyPassKDBX
import MyPassTestSupport
import Testing

@Suite("KeePass plain XML export")
struct ExportTests {
    /// The lines of a document, leaving out `Meta/Binaries` items (gzip output differs between
    /// deflate implementations; their content is compared through the attachments instead).
    static func comparableLines(_ text: String) -> [Substring] {
        text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("<Binary ID=") }
    }

    @Test("Re-exporting KeePass's export reproduces it line for line (pool binaries aside)")
    func reExportMatchesKeePass() throws {
        let original = try TestVectors.text("kdbx-xml/rich-export.xml")
        let body = try readPlainExport("rich-export.xml")
        let vault = Vault(format: VaultFormat(version: .v4_0, compression: .none), body: body)
        let exported = String(decoding: KeePassXMLExport.export(vault), as: UTF8.self)
        let expectedLines = Self.comparableLines(original)
        let actualLines = Self.comparableLines(exported)
        let firstDifference = zip(expectedLines, actualLines).enumerated().first(where: { $0.element.0 != $0.element.1 })
        #expect(firstDifference == nil, "line \(firstDifference.map { $0.offset + 1 } ?? 0): \(firstDifference.map { "\($0.element.0) | \($0.element.1)" } ?? "")")
        #expect(expectedLines.count == actualLines.count)
        // And it reads back to the same vault.
        var stream = ClearTestStream()
        let again = try VaultXMLReader.read(Array(exported.utf8), version: .v4_0, stream: &stream)
        #expect(Vault(format: vault.format, body: again) == vault)
    }

    @Test("With gzip compression the pool is written Compressed=\"True\" and reads back to the same attachments")
    func compressedPool() throws {
        let body = try readPlainExport("rich-export.xml")
        let vault = Vault(format: VaultFormat(version: .v3_1, kdf: .aes(rounds: 1), compression: .gzip), body: body)
        let exported = KeePassXMLExport.export(vault)
        let text = String(decoding: exported, as: UTF8.self)
        #expect(text.contains("<Binary ID=\"0\" Compressed=\"True\" />"))  // empty.dat
        #expect(text.contains("<Binary ID=\"1\" Compressed=\"True\">H4sI"))
        var stream = ClearTestStream()
        let again = try VaultXMLReader.read(exported, version: .v4_0, stream: &stream)
        #expect(Vault(format: vault.format, body: again) == vault)
        // KDBX 3.1 with a real stream: the protected pool item is XORed, not compressed.
        var vault31 = vault
        vault31.root.modifyEntry(withUUID: vault.allEntries.first(where: { $0.attachments.count == 4 })!.uuid) {
            $0.attachments[3].isProtected = true
        }
        vault31.meta.settingsChanged = nil  // not written before KDBX 4
        vault31.meta.generator = Meta.writerName  // a KDBX body names MyPass
        var write = LCGTestKeystream(seed: 9)
        let xml = VaultXMLWriter.write(vault31, version: .v3_1, stream: &write)
        #expect(String(decoding: xml, as: UTF8.self).contains("<Binary ID=\"3\" Protected=\"True\">"))
        var read = LCGTestKeystream(seed: 9)
        #expect(Vault(format: vault31.format, body: try VaultXMLReader.read(xml, version: .v3_1, stream: &read)) == vault31)
    }

    @Test("Known values of the rich export: paths, fields, protection, attachments, history, tags, times")
    func knownValues() throws {
        let vault = Vault(format: VaultFormat(), body: try readPlainExport("rich-export.xml"))
        #expect(vault.allGroups.map(\.name) == ["Root", "Work", "Email", "Personal", "Banking", "Cards & \"Stuff\" <x>", "Empty group", "Recycle Bin"])
        let cards = try #require(vault.allGroups.first(where: { $0.name.hasPrefix("Cards") }))
        #expect(vault.path(ofGroup: cards.uuid) == ["Personal", "Banking", "Cards & \"Stuff\" <x>"])
        #expect(vault.allEntries.count == 28)
        let unicode = try #require(vault.allEntries.first(where: { $0.uuid.base64 == "he2kPYlGE0urOUEJe/pLIQ==" }))
        #expect(unicode.title == "Ünïcødé ✓ 日本語 🔑")
        #expect(unicode.password.revealed == "pässwörd-🔒-שלום")
        #expect(unicode.field(named: "Password")?.isProtected == true)
        #expect(unicode.notes == "Line1\nLine2\tTabbed\n<xml> & \"quotes\" 'apos' ]]>")
        #expect(unicode.url == "http://例え.jp:8080/path?q=1&r=<2>")
        #expect(unicode.field(named: "Empty Field") == EntryField(key: "Empty Field", value: ""))
        #expect(unicode.customData == [CustomDataItem(key: "entry.key", value: "entry value")])
        #expect(unicode.foregroundColor == "#FF0000" && unicode.overrideURL == "cmd://firefox %1")
        #expect(unicode.times.creation.iso8601 == "2026-11-29T22:03:31Z" && unicode.times.expiry.iso8601 == "2026-11-29T22:03:30Z")
        let github = try #require(vault.allEntries.first(where: { $0.title == "GitHub" }))
        #expect(github.tags == ["dev", "2fa"])
        #expect(github.history.map { $0.password.revealed } == ["old-pass-1", "old-pass-2"])
        let withFiles = try #require(vault.allEntries.first(where: { $0.attachments.count == 4 }))
        #expect(withFiles.attachments.map(\.name) == ["empty.dat", "hello.txt", "random.bin", "secret.key"])
        #expect(withFiles.attachment(named: "empty.dat")?.data == [])
        #expect(withFiles.attachment(named: "hello.txt")?.data.count == 16)
        #expect(withFiles.attachment(named: "random.bin")?.data.count == 70_000)
        let copy = try #require(vault.allEntries.first(where: { $0.attachment(named: "hello-copy.txt") != nil }))
        #expect(copy.attachment(named: "hello-copy.txt")?.data == withFiles.attachment(named: "hello.txt")?.data)
        #expect(BinaryPool(vault: vault).items.count == 4)  // the shared content is stored once
        #expect(vault.meta.customIcons.count == 1 && vault.meta.customIcons[0].data.prefix(4) == [0x89, 0x50, 0x4E, 0x47])
        #expect(vault.deletedObjects.map(\.deletionTime.iso8601) == ["2026-03-14T15:09:26Z"])
        #expect(vault.recycleBin?.name == "Recycle Bin")
    }
}
