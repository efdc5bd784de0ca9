import MyPassBytes
import MyPassKDBX
import MyPassTestSupport
import MyPassXML
import Testing

@Suite("KDBX XML body reader")
struct XMLBodyReaderTests {
    static let entryUUID = "he2kPYlGE0urOUEJe/pLIQ=="
    static let groupUUID = "twIk1U4vUUaR6tw4ADVA9Q=="

    /// An entry whose protected values, including one inside an unknown element, are masked in
    /// document order with a LCGTestKeystream seeded 42; returns the XML and the bytes consumed.
    static func maskedDocument() -> (String, Int) {
        var s = LCGTestKeystream(seed: 42)
        let password = maskedValue("pässwörd-🔒", &s)
        let unknownSecret = maskedValue("hidden in unknown", &s)
        let empty = maskedValue("", &s)
        let pin = maskedValue("0000", &s)
        let history = maskedValue("old-pass", &s)
        let xml = keePassDocument(root: """
            <Group><UUID>\(groupUUID)</UUID><Name>Root</Name>
            <Entry><UUID>\(entryUUID)</UUID>
            <String><Key>Password</Key><Value Protected="True">\(password)</Value></String>
            <Plugin Version="2"><Secret Protected="True">\(unknownSecret)</Secret><Plain>a &amp; b</Plain></Plugin>
            <String><Key>Empty</Key><Value Protected="True">\(empty)</Value></String>
            <String><Key>PIN</Key><Value Protected="True">\(pin)</Value></String>
            <String><Key>Title</Key><Value>T</Value></String>
            <History><Entry><UUID>\(entryUUID)</UUID>
              <String><Key>Password</Key><Value Protected="True">\(history)</Value></String>
              <History/>
            </Entry></History>
            </Entry></Group>
            """)
        return (xml, s.consumed)
    }

    @Test("Protected values are unmasked in document order, inside unknown elements too")
    func protectedDocumentOrder() throws {
        let (xml, consumed) = Self.maskedDocument()
        var stream = LCGTestKeystream(seed: 42)
        let body = try readBody(xml, stream: &stream)
        #expect(stream.consumed == consumed)
        let entry = try #require(body.root.entries.first)
        #expect(entry.password.revealed == "pässwörd-🔒")
        #expect(entry.field(named: "PIN")?.value == "0000")
        #expect(entry.field(named: "PIN")?.isProtected == true)
        #expect(entry.field(named: "Empty")?.value == "" && entry.field(named: "Empty")?.isProtected == true)
        #expect(entry.field(named: "Title")?.isProtected == false)
        #expect(entry.history.count == 1)
        #expect(entry.history[0].password.revealed == "old-pass")
        #expect(entry.history[0].unknownElements.isEmpty)  // the empty History in a history item is dropped
        #expect(entry.unknownElements.count == 1)
        let plugin = try #require(entry.unknownElements.first)
        #expect(plugin.precedingElement == "String")
        #expect(plugin.node == XMLElementNode(name: "Plugin", attributes: [XMLAttribute("Version", "2")], children: [
            .element(XMLElementNode(name: "Secret", attributes: [XMLAttribute("Protected", "True")], children: [.text("hidden in unknown")])),
            .element(XMLElementNode(name: "Plain", children: [.text("a & b")])),
        ]))
    }

    @Test("Any chunking gives the same body")
    func chunked() throws {
        let (xml, _) = Self.maskedDocument()
        var whole = LCGTestKeystream(seed: 42)
        let expected = try readBody(xml, stream: &whole)
        for seed in [1, 7, 99] as [UInt64] {
            var stream = LCGTestKeystream(seed: 42)
            var reader = VaultXMLReader(version: .v4_0)
            for piece in randomSplits(Array(xml.utf8), seed: seed, maxPiece: 13) {
                try reader.feed(piece, stream: &stream)
            }
            #expect(try reader.finish(stream: &stream) == expected)
        }
    }

    @Test("Lenient values: empty booleans, tri-states, UUIDs, times of any form")
    func leniency() throws {
        let xml = keePassDocument(root: """
            <Group><UUID></UUID><Name>R</Name><IsExpanded></IsExpanded>
            <EnableAutoType></EnableAutoType><EnableSearching>maybe</EnableSearching>
            <Times><CreationTime>2026-11-29T23:03:31.25+01:00</CreationTime><LastModificationTime>AQ==</LastModificationTime>
            <LastAccessTime>M5ie4g4AAAD/AQ==</LastAccessTime><Expires></Expires><UsageCount>x</UsageCount></Times>
            <Group><Name>no uuid</Name><EnableAutoType>null</EnableAutoType><EnableSearching>False</EnableSearching></Group>
            <Entry><UUID>AAAA</UUID><AutoType><Enabled></Enabled><DataTransferObfuscation>1</DataTransferObfuscation></AutoType></Entry>
            </Group>
            """, meta: "<RecycleBinEnabled></RecycleBinEnabled><HistoryMaxItems>-1</HistoryMaxItems><MemoryProtection><ProtectPassword/></MemoryProtection>")
        let body = try readBody(xml)
        let root = body.root
        #expect(!root.uuid.isZero)
        #expect(root.isExpanded == true)
        #expect(root.enableAutoType == nil && root.enableSearching == nil)
        #expect(root.times.creation.iso8601 == "2026-11-29T22:03:31Z")
        #expect(root.times.lastModification.secondsSinceEpoch == 1)
        #expect(root.times.lastAccess.iso8601 == "2026-11-29T22:03:31Z")
        #expect(root.times.expires == false && root.times.usageCount == 0)
        #expect(root.groups[0].enableAutoType == nil && root.groups[0].enableSearching == false)
        #expect(!root.groups[0].uuid.isZero && root.groups[0].uuid != root.uuid)
        #expect(!root.entries[0].uuid.isZero)
        #expect(root.entries[0].autoType.isEnabled == true && root.entries[0].autoType.obfuscation == 1)
        #expect(body.meta.recycleBinEnabled == true && body.meta.historyMaxItems == -1)
        #expect(body.meta.memoryProtection.protectPassword == true)
    }

    @Test("Attachments: pool references, inline values, missing references dropped")
    func attachments() throws {
        var s = LCGTestKeystream(seed: 5)
        var secret: [UInt8] = [9, 8, 7]
        s.apply(to: &secret)
        let xml = keePassDocument(root: """
            <Group><UUID>\(Self.groupUUID)</UUID><Name>R</Name>
            <Entry><UUID>\(Self.entryUUID)</UUID>
            <Binary><Key>a.txt</Key><Value Ref="1"/></Binary>
            <Binary><Key>gone</Key><Value Ref="7"/></Binary>
            <Binary><Key>inline</Key><Value>aGk=</Value></Binary>
            <Binary><Key>secret</Key><Value Protected="True">\(referenceBase64(secret))</Value></Binary>
            <Binary><Key>dup</Key><Value Ref="0">ignored text</Value></Binary>
            <String><Key>Title</Key><Value>kept</Value></String>
            </Entry></Group>
            """)
        var stream = LCGTestKeystream(seed: 5)
        let pool = [BinaryPoolItem(data: [1, 2, 3], isProtected: false), BinaryPoolItem(data: Array("hello".utf8), isProtected: true)]
        let entry = try #require(try readBody(xml, pool: pool, stream: &stream).root.entries.first)
        #expect(entry.title == "kept")
        #expect(entry.attachments.map(\.name) == ["a.txt", "inline", "secret", "dup"])
        #expect(entry.attachment(named: "a.txt") == Attachment(name: "a.txt", data: Array("hello".utf8), isProtected: true))
        #expect(entry.attachment(named: "inline")?.data == Array("hi".utf8))
        #expect(entry.attachment(named: "secret") == Attachment(name: "secret", data: [9, 8, 7], isProtected: true))
        #expect(entry.attachment(named: "dup")?.data == [1, 2, 3])
    }

    @Test("Meta fields, custom icons with 4.1 name and time, custom data with times, deleted objects, header hash")
    func metaAndDeleted() throws {
        let meta = """
            <Generator>KeePass</Generator><HeaderHash>AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=</HeaderHash>
            <DatabaseName>DB</DatabaseName><MaintenanceHistoryDays>30</MaintenanceHistoryDays><Color>#FF0000</Color>
            <MasterKeyChangeRec>90</MasterKeyChangeRec><MasterKeyChangeForceOnce>True</MasterKeyChangeForceOnce>
            <CustomIcons><Icon><UUID>\(Self.groupUUID)</UUID><Data>iVBO</Data><Name>star</Name><LastModificationTime>M5ie4g4AAAA=</LastModificationTime></Icon></CustomIcons>
            <RecycleBinUUID>\(Self.groupUUID)</RecycleBinUUID><HistoryMaxSize>1024</HistoryMaxSize>
            <CustomData><Item><Key>k</Key><Value>v</Value><LastModificationTime>M5ie4g4AAAA=</LastModificationTime></Item></CustomData>
            <FutureSetting>1</FutureSetting>
            """
        let xml = keePassDocument(root: """
            <Group><UUID>\(Self.groupUUID)</UUID><Name>R</Name><Tags>a;b</Tags><PreviousParentGroup>\(Self.entryUUID)</PreviousParentGroup></Group>
            <DeletedObjects><DeletedObject><UUID>\(Self.entryUUID)</UUID><DeletionTime>2026-03-14T15:09:26Z</DeletionTime></DeletedObject></DeletedObjects>
            """, meta: meta)
        let body = try readBody(xml, version: .v3_1)
        #expect(body.headerHash == Array(0..<32))
        #expect(body.meta.generator == "KeePass" && body.meta.databaseName == "DB")
        #expect(body.meta.maintenanceHistoryDays == 30 && body.meta.color == "#FF0000")
        #expect(body.meta.masterKeyChangeRec == 90 && body.meta.masterKeyChangeForceOnce)
        #expect(body.meta.customIcons.count == 1)
        #expect(body.meta.customIcons[0].name == "star" && body.meta.customIcons[0].data == [0x89, 0x50, 0x4E])
        #expect(body.meta.customIcons[0].lastModification?.iso8601 == "2026-11-29T22:03:31Z")
        #expect(body.meta.recycleBinUUID.hexString == "b70224d54e2f514691eadc38003540f5")
        #expect(body.meta.historyMaxSize == 1024)
        #expect(body.meta.customData == [CustomDataItem(key: "k", value: "v", lastModification: KDBXTime(secondsSinceEpoch: 63_931_586_611))])
        #expect(body.meta.unknownElements.map(\.node.name) == ["FutureSetting"])
        #expect(body.meta.unknownElements.first?.precedingElement == "CustomData")
        #expect(body.root.tags == ["a", "b"])
        #expect(body.root.previousParentGroup?.base64 == Self.entryUUID)
        #expect(body.deletedObjects.map(\.deletionTime.iso8601) == ["2026-03-14T15:09:26Z"])
        #expect(body.deletedObjects.first?.uuid.base64 == Self.entryUUID)
    }

    @Test("Malformed XML is a corrupted file with its XML line and column", arguments: [
        "<KeePassFile><Meta></Root></KeePassFile>", "<KeePassFile><Meta>", "", "<Other/>", "<KeePassFile><Root><Group><Entry><String><Value Protected=\"True\">!!!</Value></String></Entry></Group></Root></KeePassFile>",
    ])
    func malformed(xml: String) {
        do {
            _ = try readBody(xml)
            Issue.record("no error for \(xml)")
        } catch let error as KDBXError {
            #expect(error.code == .corruptedFile)
            if !xml.isEmpty && xml != "<Other/>" { #expect(error.location?.hasPrefix("XML line") == true) }
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test("Limits: group depth, entries, fields, XML depth")
    func limits() {
        let nested = String(repeating: "<Group><Name>g</Name>", count: 12) + String(repeating: "</Group>", count: 12)
        #expect(throws: KDBXError(.limitExceeded)) {
            _ = try readBody(keePassDocument(root: nested), limits: VaultXMLLimits(maxGroupDepth: 10))
        }
        #expect(throws: Never.self) {
            _ = try readBody(keePassDocument(root: nested), limits: VaultXMLLimits(maxGroupDepth: 11))
        }
        let fields = "<Group><Entry>" + (0..<5).map { "<String><Key>k\($0)</Key><Value>v</Value></String>" }.joined() + "</Entry></Group>"
        #expect(throws: KDBXError(.limitExceeded)) {
            _ = try readBody(keePassDocument(root: fields), limits: VaultXMLLimits(maxFieldsPerEntry: 4))
        }
        let entries = "<Group>" + String(repeating: "<Entry/>", count: 4) + "</Group>"
        #expect(throws: KDBXError(.limitExceeded)) {
            _ = try readBody(keePassDocument(root: entries), limits: VaultXMLLimits(maxEntries: 3))
        }
        #expect(throws: KDBXError(.limitExceeded)) {
            _ = try readBody(keePassDocument(root: nested), limits: VaultXMLLimits(xml: XMLLimits(maxDepth: 8)))
        }
    }
}

@Suite("KDBX XML body reader: hostile input")
struct XMLBodyHostileInputTests {
    @Test("Mutated and truncated copies of a real body give a vault or a KDBXError, never a crash")
    func mutations() throws {
        let original = try TestVectors.bytes("kdbx-xml/rich-export.xml")
        var state: UInt64 = 0x5DEECE66D
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        let interesting: [UInt8] = Array("<>/&;\"=!?[]-0AZaz ".utf8) + [0x00, 0x80, 0xC3, 0xFF, 0x0A]
        var outcomes = (read: 0, failed: 0, truncationsFailed: 0)
        var codes: Set<String> = []
        for round in 0..<120 {
            var bytes = original
            let truncated = round % 4 == 0
            if truncated {
                bytes = Array(bytes.prefix(next() % bytes.count))
            } else {
                for _ in 0..<(1 + next() % 4) {
                    bytes[next() % bytes.count] = interesting[next() % interesting.count]
                }
            }
            var stream = LCGTestKeystream(seed: UInt64(round))
            do {
                _ = try VaultXMLReader.read(bytes, version: .v4_0, stream: &stream)
                #expect(!truncated, "round \(round): a truncated body was read")
                outcomes.read += 1
            } catch {
                // A typed error of the two classes a damaged body may give, with a bounded reason that
                // names where in the XML it happened, and no control character from the input.
                #expect(error.code == .corruptedFile || error.code == .limitExceeded, "round \(round): \(error.code)")
                codes.insert(error.code.rawValue)
                #expect(error.reason.utf8.count <= 300, "round \(round): reason of \(error.reason.utf8.count) bytes")
                #expect(!error.description.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "round \(round)")
                if error.code == .corruptedFile && !bytes.isEmpty {
                    #expect(error.location?.hasPrefix("XML line") == true, "round \(round): location \(error.location ?? "none")")
                }
                outcomes.failed += 1
                if truncated { outcomes.truncationsFailed += 1 }
            }
        }
        #expect(outcomes.truncationsFailed == 30)  // every truncation fails, as corrupted
        #expect(outcomes.read + outcomes.failed == 120)
        #expect(codes.contains(KDBXError.Code.corruptedFile.rawValue))
    }
}
