import MyPassBytes
import MyPassKDBX
import MyPassXML
import Testing

@Suite("KDBX XML body writer")
struct XMLBodyWriterTests {
    static let t0 = KDBXTime(year: 2026, month: 11, day: 29, hour: 22, minute: 3, second: 31)!

    /// A vault exercising most of the model, with no 4.x features unless asked.
    static func richVault(compression: PayloadCompression = .none) -> Vault {
        var vault = Vault.new(name: "Root", now: t0, format: VaultFormat(version: .v3_1, kdf: .aes(rounds: 6000), compression: compression))
        vault.meta.generator = "MyPass"
        vault.meta.customIcons = [CustomIcon(uuid: KDBXUUID(hex: "bf2d226a87527142bdaa919e8d9ff31d")!, data: [0x89, 0x50, 0x4E, 0x47])]
        vault.meta.customData = [CustomDataItem(key: "fixture.kind", value: "rich")]
        var work = Group(uuid: KDBXUUID(hex: "b70224d54e2f514691eadc38003540f5")!, name: "Work & <Co>", times: Times(all: t0))
        work.enableAutoType = false
        work.notes = "line1\nline2"
        var entry = Entry(uuid: KDBXUUID(hex: "85eda43d8946134bab3941097bfa4b21")!, times: Times(all: t0))
        entry.title = "Ünïcødé ✓ 🔑"
        entry.userName = "alice"
        entry.password = "pässwörd"
        entry.setValue("", for: "Empty Secret", isProtected: true)
        entry.notes = "<xml> & \"quotes\" ]]>"
        entry.tags = ["dev", "2fa"]
        entry.foregroundColor = "#FF0000"
        entry.times.expires = true
        entry.times.usageCount = 7
        entry.autoType.associations = [AutoTypeAssociation(window: "Target*", sequence: "{USERNAME}{ENTER}")]
        entry.autoType.defaultSequence = "{PASSWORD}"
        entry.attachments = [Attachment(name: "hello.txt", data: Array("Hello".utf8)),
                             Attachment(name: "key.bin", data: [1, 2, 3, 0, 255], isProtected: true)]
        var old = entry
        old.password = "old"
        old.attachments = [Attachment(name: "hello-old.txt", data: Array("Hello".utf8))]
        entry.history = [old]
        work.entries = [entry]
        var other = Entry(uuid: KDBXUUID(hex: "3a3076d46b41374b8f7f5d9599d6f010")!, times: Times(all: t0))
        other.title = "Copy"
        other.attachments = [Attachment(name: "copy.txt", data: Array("Hello".utf8))]
        vault.root.entries = [other]
        vault.root.groups = [work, Group(name: "Empty", times: Times(all: t0))]
        vault.deletedObjects = [DeletedObject(uuid: KDBXUUID(hex: "d1693b515ec7494591bf35b5ccd5066a")!, deletionTime: t0)]
        return vault
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test("Round trip at every version: write then read gives the same vault; the stream is consumed alike", arguments: [KDBXVersion.v3_1, .v4_0, .v4_1])
    func roundTrip(version: KDBXVersion) throws {
        let vault = Self.richVault()
        let pool = BinaryPool(vault: vault)
        var writeStream = TestKeystream(seed: 77)
        let xml = VaultXMLWriter.write(vault, version: version, headerHash: Array(repeating: 0xAB, count: 32), stream: &writeStream, binaryPool: pool)
        var readStream = TestKeystream(seed: 77)
        let body = try VaultXMLReader.read(xml, version: version, binaryPool: version.isKDBX4 ? pool.items : [], stream: &readStream)
        #expect(readStream.consumed == writeStream.consumed)
        #expect(writeStream.consumed > 0)
        var expected = vault
        if !version.isKDBX4 { expected.meta.settingsChanged = nil }  // a 4.x-only element
        #expect(Vault(format: vault.format, body: body) == expected)
        #expect(body.headerHash == (version.isKDBX4 ? nil : Array(repeating: 0xAB, count: 32)))
    }

    @Test("One copy of each attachment content in the pool, numbered as KeePass does (history first)")
    func poolDeduplication() {
        let pool = BinaryPool(vault: Self.richVault())
        // Root's entry ("Hello"), then Work's entry: history ("Hello"), then the entry ("Hello", key.bin protected).
        #expect(pool.items == [BinaryPoolItem(data: Array("Hello".utf8), isProtected: false),
                               BinaryPoolItem(data: [1, 2, 3, 0, 255], isProtected: true)])
        #expect(pool.reference(for: Attachment(name: "x", data: Array("Hello".utf8))) == 0)
        #expect(pool.reference(for: Attachment(name: "x", data: Array("Hello".utf8), isProtected: true)) == nil)
    }

    @Test("Duplicated pool items (other writers do not deduplicate) are read, then written once")
    func duplicatedPoolItems() throws {
        let xml = document(root: """
            <Group><Name>R</Name>
            <Entry><Binary><Key>a</Key><Value Ref="0"/></Binary></Entry>
            <Entry><Binary><Key>b</Key><Value Ref="1"/></Binary><Binary><Key>c</Key><Value Ref="2"/></Binary></Entry>
            </Group>
            """)
        let same = BinaryPoolItem(data: Array("same".utf8), isProtected: false)
        let body = try readBody(xml, pool: [same, same, BinaryPoolItem(data: [0], isProtected: true)])
        let vault = Vault(format: VaultFormat(), body: body)
        #expect(vault.allEntries.flatMap(\.attachments).map(\.name) == ["a", "b", "c"])
        let pool = BinaryPool(vault: vault)
        #expect(pool.items == [same, BinaryPoolItem(data: [0], isProtected: true)])
        var stream = NullStream()
        let text = Self.text(VaultXMLWriter.write(vault, version: .v4_0, stream: &stream, binaryPool: pool))
        #expect(text.components(separatedBy: "<Value Ref=\"0\" />").count == 3)
        #expect(text.components(separatedBy: "<Value Ref=\"1\" />").count == 2)
    }

    @Test("KDBX 4 shape: binary times, pool references, SettingsChanged, no HeaderHash or Meta/Binaries")
    func kdbx4Shape() {
        var stream = NullStream()
        let xml = Self.text(VaultXMLWriter.write(Self.richVault(), version: .v4_0, headerHash: [1, 2], stream: &stream))
        #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"yes\"?>\n<KeePassFile>\n\t<Meta>\n\t\t<Generator>MyPass</Generator>\n\t\t<SettingsChanged>M5ie4g4AAAA=</SettingsChanged>\n"))
        #expect(xml.contains("<CreationTime>M5ie4g4AAAA=</CreationTime>"))
        #expect(!xml.contains("HeaderHash") && !xml.contains("<Binaries"))
        #expect(xml.contains("<Key>copy.txt</Key>\n\t\t\t\t\t<Value Ref=\"0\" />"))
        #expect(xml.contains("<Key>key.bin</Key>\n\t\t\t\t\t\t<Value Ref=\"1\" />"))
        #expect(xml.contains("<EnableAutoType>false</EnableAutoType>\n\t\t\t\t<EnableSearching>null</EnableSearching>"))
        #expect(xml.contains("<Name>Work &amp; &lt;Co&gt;</Name>"))
        #expect(xml.contains("<Tags>dev;2fa</Tags>"))
        #expect(xml.contains("<Key>Empty Secret</Key>\n\t\t\t\t\t\t<Value Protected=\"True\" />"))
        #expect(xml.hasSuffix("\t\t<DeletedObjects>\n\t\t\t<DeletedObject>\n\t\t\t\t<UUID>0Wk7UV7HSUWRvzW1zNUGag==</UUID>\n\t\t\t\t<DeletionTime>M5ie4g4AAAA=</DeletionTime>\n\t\t\t</DeletedObject>\n\t\t</DeletedObjects>\n\t</Root>\n</KeePassFile>"))
    }

    @Test("KDBX 3.1 shape: ISO times, HeaderHash after Generator, pool in Meta with the protected item XORed")
    func kdbx3Shape() {
        var stream = TestKeystream(seed: 1)
        let xml = Self.text(VaultXMLWriter.write(Self.richVault(), version: .v3_1, headerHash: Array(0..<32), stream: &stream))
        #expect(xml.contains("<Generator>MyPass</Generator>\n\t\t<HeaderHash>AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=</HeaderHash>\n\t\t<DatabaseName>Root</DatabaseName>"))
        #expect(!xml.contains("SettingsChanged"))
        #expect(xml.contains("<CreationTime>2026-11-29T22:03:31Z</CreationTime>"))
        var expected: [UInt8] = [1, 2, 3, 0, 255]
        var fresh = TestKeystream(seed: 1)
        fresh.apply(to: &expected)  // the pool is the first protected value of the document
        #expect(xml.contains("<Binaries>\n\t\t\t<Binary ID=\"0\">SGVsbG8=</Binary>\n\t\t\t<Binary ID=\"1\" Protected=\"True\">\(base64(expected))</Binary>\n\t\t</Binaries>\n\t\t<CustomData>"))
    }

    @Test("Entry and group elements in KeePass's order")
    func elementOrder() throws {
        var vault = Self.richVault()
        vault.root.groups[0].entries[0].customData = [CustomDataItem(key: "k", value: "v")]
        vault.root.groups[0].entries[0].customIconUUID = KDBXUUID.random()
        vault.root.groups[0].entries[0].qualityCheck = false
        vault.root.groups[0].entries[0].previousParentGroup = vault.root.uuid
        vault.root.groups[0].tags = ["t"]
        vault.root.groups[0].previousParentGroup = vault.root.uuid
        vault.root.groups[0].customData = [CustomDataItem(key: "g", value: "v")]
        var stream = NullStream()
        let xml = VaultXMLWriter.write(vault, version: .v4_1, stream: &stream)
        let tree = try parseTree(xml)
        func children(_ node: XMLElementNode) -> [XMLElementNode] {
            node.children.compactMap { if case .element(let e) = $0 { return e } else { return nil } }
        }
        let root = try #require(children(tree).first(where: { $0.name == "Root" }).flatMap { children($0).first })
        let workGroup = try #require(children(root).first(where: { $0.name == "Group" }))
        let workEntry = try #require(children(workGroup).first(where: { $0.name == "Entry" }))
        var childrenByParent: [String: [String]] = [:]
        childrenByParent["Group3"] = children(workGroup).map(\.name)
        childrenByParent["Entry4"] = children(workEntry).map(\.name)
        #expect(childrenByParent["Group3"] == ["UUID", "Name", "Notes", "IconID", "Times", "IsExpanded", "DefaultAutoTypeSequence",
                                                            "EnableAutoType", "EnableSearching", "LastTopVisibleEntry", "PreviousParentGroup",
                                                            "Tags", "CustomData", "Entry"])
        let entryChildren = try #require(childrenByParent["Entry4"])
        #expect(Array(entryChildren.prefix(10)) == ["UUID", "IconID", "CustomIconUUID", "ForegroundColor", "BackgroundColor", "OverrideURL",
                                                     "QualityCheck", "Tags", "PreviousParentGroup", "Times"])
        let tail = entryChildren.drop(while: { $0 != "Binary" })
        #expect(Array(tail.prefix(5)) == ["Binary", "Binary", "AutoType", "CustomData", "History"])
    }

    /// The document's root element as a captured tree (white space between elements dropped).
    func parseTree(_ xml: [UInt8]) throws -> XMLElementNode {
        var tokenizer = XMLTokenizer(skipsWhitespaceText: true)
        tokenizer.feed(xml[...])
        tokenizer.finish()
        while let event = try tokenizer.next() {
            if case .startElement(let name, let attributes) = event {
                return try XMLElementNode.read(startName: name, attributes: attributes, from: &tokenizer)
            }
        }
        throw KDBXError(.corruptedFile)
    }

    @Test("4.1-only fields are left out below 4.1 (PreviousParentGroup, QualityCheck, group tags, icon name and time)")
    func fieldsGatedBy41() throws {
        var vault = Self.richVault()
        vault.root.groups[0].tags = ["t"]
        vault.root.groups[0].previousParentGroup = vault.root.uuid
        vault.root.groups[0].entries[0].qualityCheck = false
        vault.meta.customIcons[0].name = "star"
        vault.meta.customIcons[0].lastModification = Self.t0
        vault.meta.customData[0].lastModification = Self.t0
        var stream = NullStream()
        let xml40 = Self.text(VaultXMLWriter.write(vault, version: .v4_0, stream: &stream))
        for name in ["<Tags>t</Tags>", "PreviousParentGroup", "QualityCheck", "<Name>star</Name>", "<LastModificationTime>M5ie4g4AAAA=</LastModificationTime>\n\t\t\t</Item>"] {
            #expect(!xml40.contains(name), "\(name) written at 4.0")
        }
        let xml41 = VaultXMLWriter.write(vault, version: .v4_1, stream: &stream)
        let body = try VaultXMLReader.read(xml41, version: .v4_1, binaryPool: BinaryPool(vault: vault).items, stream: &stream)
        #expect(Vault(format: vault.format, body: body) == vault)
    }

    @Test("Characters XML forbids are dropped; unknown elements are written back in place with protected values re-masked")
    func sanitisingAndUnknowns() throws {
        var vault = Self.richVault()
        vault.root.groups[0].entries[0].notes = "a\u{1}b\u{FFFF}c"
        vault.root.groups[0].entries[0].unknownElements = [UnknownElement(
            node: XMLElementNode(name: "Plugin", children: [.element(XMLElementNode(name: "S", attributes: [XMLAttribute("Protected", "True")], children: [.text("psst")]))]),
            precedingElement: "Times")]
        var stream = TestKeystream(seed: 3)
        let xml = VaultXMLWriter.write(vault, version: .v4_0, stream: &stream)
        let text = Self.text(xml)
        #expect(text.contains("<Value>abc</Value>"))
        #expect(text.contains("</Times>\n\t\t\t\t\t<Plugin>\n\t\t\t\t\t\t<S Protected=\"True\">"))
        #expect(!text.contains("psst"))
        var readStream = TestKeystream(seed: 3)
        let body = try VaultXMLReader.read(xml, version: .v4_0, binaryPool: BinaryPool(vault: vault).items, stream: &readStream)
        let entry = try #require(body.root.groups.first?.entries.first)
        #expect(entry.notes == "abc")
        #expect(entry.unknownElements == vault.root.groups[0].entries[0].unknownElements)
    }
}
