import Foundation
import MyPassBytes
import MyPassKDBX
import MyPassTestSupport
import MyPassXML
import Testing

/// Unknown XML survives a read and a write in place: elements and comments in every element of the
/// KeePass document, protected values inside them masked again in inner stream order.
@Suite("XML fidelity: unknown elements and comments kept in place everywhere")
struct XMLFidelityTests {
    static let secret = "secret in an unknown element ✓"
    static let historySecret = "history-level secret"

    /// KeePass's rich fixture as our writer lays it out (the clear stream: protected values are
    /// base64 of their text), and the vault it came from.
    static func canonical() throws -> (xml: String, vault: Vault) {
        let key = try CompositeKey(password: ProtectedString("correct horse battery staple"), keyFileContents: nil)
        let vault = try KDBXCodec.open(try TestVectors.bytes("kdbx/keepass/kdbx4-aes-argon2d.kdbx"), key: key)
        return (write(vault), vault)
    }

    static func write(_ vault: Vault, stream: inout some ProtectedValueStream) -> String {
        String(decoding: VaultXMLWriter.write(vault, version: .v4_0, stream: &stream, binaryPool: BinaryPool(vault: vault)), as: UTF8.self)
    }

    static func write(_ vault: Vault) -> String {
        var clear = ClearTestStream()
        return write(vault, stream: &clear)
    }

    static func read(_ xml: String, like vault: Vault, stream: inout some ProtectedValueStream) throws -> Vault {
        let body = try VaultXMLReader.read(Array(xml.utf8), version: .v4_0, binaryPool: BinaryPool(vault: vault).items, stream: &stream)
        return Vault(format: vault.format, body: body)
    }

    /// The document without the white space between markup (the indentation the writer chooses).
    static func normalized(_ xml: String) -> String {
        xml.replacingOccurrences(of: ">[ \t\r\n]+<", with: "><", options: .regularExpression)
    }

    /// Inserts `snippet` right after the `occurrence`-th `marker`.
    static func inject(_ xml: inout String, after marker: String, occurrence: Int = 1, _ snippet: String) throws {
        var searchStart = xml.startIndex
        var found: Range<String.Index>?
        for _ in 0..<occurrence {
            found = xml.range(of: marker, range: searchStart..<xml.endIndex)
            guard let range = found else { throw TestFailure("marker \(marker) #\(occurrence) not found") }
            searchStart = range.upperBound
        }
        xml.insert(contentsOf: snippet, at: found!.upperBound)
    }

    struct TestFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// The canonical document with unknown elements and comments in every element KeePass writes.
    static func injected() throws -> (xml: String, vault: Vault, snippets: [String]) {
        var (xml, vault) = try canonical()
        let protected = Base64.encode(Array(secret.utf8))
        let historyProtected = Base64.encode(Array(historySecret.utf8))
        let injections: [(String, Int, String)] = [
            ("<KeePassFile>", 1, "<XKeePassFile a=\"1\">k</XKeePassFile>"),
            ("<Meta>", 1, "<!-- a comment in Meta -->"),
            ("</Generator>", 1, "<XMeta>m</XMeta>"),
            ("<MemoryProtection>", 1, "<XMemoryProtection>p</XMemoryProtection>"),
            ("<CustomIcons>", 1, "<XCustomIcons>c</XCustomIcons>"),
            ("<Icon>", 1, "<XIcon>i</XIcon>"),
            ("<CustomData>", 1, "<XCustomData>d</XCustomData>"),
            ("<Item>", 1, "<XItem>it<Deeper b=\"2\">x</Deeper></XItem>"),
            ("<Root>", 1, "<XRoot>r</XRoot>"),
            ("<Group>", 1, "<XGroup>g</XGroup>"),
            ("<Times>", 1, "<XTimes>t</XTimes>"),
            ("<Entry>", 1, "<XEntry>e</XEntry>"),
            ("<Entry>", 2, "<!--entry comment-->"),
            ("<String>", 1, "<!--string comment-->"),
            ("<String>", 2, "<XString><P Protected=\"True\">\(protected)</P></XString>"),
            ("</String>", 3, "<XBetweenStrings>third</XBetweenStrings>"),
            ("<Binary>", 1, "<XBinary>a</XBinary>"),
            ("<AutoType>", 1, "<XAutoType>x</XAutoType>"),
            ("<Association>", 1, "<XAssociation>s</XAssociation>"),
            ("<History>", 1, "<XHistory><Q Protected=\"True\">\(historyProtected)</Q></XHistory>"),
            ("<DeletedObjects>", 1, "<XDeletedObjects>o</XDeletedObjects>"),
            ("<DeletedObject>", 1, "<XDeletedObject>q</XDeletedObject><!--deleted comment-->"),
        ]
        var snippets: [String] = []
        for (marker, occurrence, snippet) in injections {
            try inject(&xml, after: marker, occurrence: occurrence, snippet)
            snippets.append(snippet)
        }
        return (xml, vault, snippets)
    }

    @Test("the canonical document is stable: read and written again it is the same")
    func canonicalIsStable() throws {
        let (xml, vault) = try Self.canonical()
        var clear = ClearTestStream()
        #expect(Self.write(try Self.read(xml, like: vault, stream: &clear)) == xml)
    }

    @Test("22 unknown elements and comments in every KeePass element survive read and write in place")
    func unknownsSurviveInPlace() throws {
        let (xml, vault, snippets) = try Self.injected()
        var clear = ClearTestStream()
        let read = try Self.read(xml, like: vault, stream: &clear)
        let written = Self.write(read)
        for snippet in snippets {
            #expect(Self.normalized(written).contains(Self.normalized(snippet)), "lost: \(snippet)")
        }
        #expect(Self.normalized(written) == Self.normalized(xml))
        // The known content is what it was.
        #expect(read.root.entryCount == vault.root.entryCount)
        let field = try #require(read.root.allEntries.first { $0.fields.contains { !$0.unknownElements.isEmpty } })
        #expect(field.title == vault.root.allEntries.first { $0.uuid == field.uuid }?.title)
    }

    @Test("protected values inside unknown elements are masked again in inner stream order (ChaCha20)")
    func protectedUnknownsInStreamOrder() throws {
        let (xml, vault, _) = try Self.injected()
        var clear = ClearTestStream()
        let model = try Self.read(xml, like: vault, stream: &clear)
        let key = [UInt8](repeating: 0x5A, count: 64)
        var writeStream = try InnerRandomStream(algorithm: .chacha20, key: key)
        let masked = Self.write(model, stream: &writeStream)
        #expect(!masked.contains(Base64.encode(Array(Self.secret.utf8))))
        #expect(!masked.contains(Base64.encode(Array(Self.historySecret.utf8))))
        var readStream = try InnerRandomStream(algorithm: .chacha20, key: key)
        let again = try Self.read(masked, like: vault, stream: &readStream)
        #expect(again == model)
        #expect(Self.normalized(Self.write(again)) == Self.normalized(xml))
        // The whole file: saved as KDBX 4 and opened again.
        let password = try CompositeKey(password: ProtectedString("x"), keyFileContents: nil)
        var fast = model
        fast.format.kdf = .argon2(Argon2Settings(variant: .argon2d, memoryBytes: 1 << 20, iterations: 1, parallelism: 1))
        let reopened = try KDBXCodec.open(try KDBXCodec.save(fast, key: password), key: password)
        #expect(Self.normalized(Self.write(reopened)) == Self.normalized(xml))
    }

    @Test("an unknown element after the n-th of several equal siblings goes back after the n-th")
    func occurrencePlacement() throws {
        let xml = keePassDocument(root: """
            <Group><UUID>AAAAAAAAAAAAAAAAAAAAAA==</UUID><Name>R</Name>\
            <Entry><UUID>AQEBAQEBAQEBAQEBAQEBAQ==</UUID>\
            <String><Key>A</Key><Value>1</Value></String>\
            <String><Key>B</Key><Value>2</Value></String><After2>x</After2>\
            <String><Key>C</Key><Value>3</Value></String>\
            </Entry></Group>
            """)
        let body = try readBody(xml)
        let entry = try #require(body.root.entries.first)
        let unknown = try #require(entry.unknownElements.first)
        #expect(unknown.precedingElement == "String")
        #expect(unknown.precedingOccurrence == 2)
        let vault = Vault(format: VaultFormat(), body: body)
        let written = Self.normalized(Self.write(vault))
        #expect(written.contains("<Key>B</Key><Value>2</Value></String><After2>x</After2><String><Key>C</Key>"))
    }

    @Test("tags keep the file's separator; a KDBX body names MyPass as its generator, the plain export keeps the name")
    func tagsAndGenerator() throws {
        let xml = keePassDocument(root: """
            <Group><UUID>AAAAAAAAAAAAAAAAAAAAAA==</UUID><Name>R</Name>\
            <Entry><UUID>AQEBAQEBAQEBAQEBAQEBAQ==</UUID><Tags>solo</Tags></Entry>\
            <Entry><UUID>AgICAgICAgICAgICAgICAg==</UUID><Tags>a, b</Tags></Entry>\
            <Entry><UUID>AwMDAwMDAwMDAwMDAwMDAw==</UUID><Tags>later</Tags></Entry>\
            </Group>
            """, meta: "<Generator>KeePassXC</Generator>")
        var vault = Vault(format: VaultFormat(), body: try readBody(xml))
        #expect(vault.meta.generator == "KeePassXC")
        #expect(vault.root.entries.map(\.tagSeparator) == [";", ",", ","])
        for index in vault.root.entries.indices { vault.root.entries[index].tags.append("new") }
        let written = Self.write(vault)
        #expect(written.contains("<Tags>solo;new</Tags>"))  // before any separator was seen: KeePass's
        #expect(written.contains("<Tags>a,b,new</Tags>"))
        #expect(written.contains("<Tags>later,new</Tags>"))
        #expect(written.contains("<Generator>MyPass</Generator>"))
        let plain = String(decoding: VaultXMLWriter.plainXML(vault), as: UTF8.self)
        #expect(plain.contains("<Generator>KeePassXC</Generator>"))
        // A new vault's entries use KeePass's ';'.
        var fresh = Entry()
        fresh.tags = ["x", "y"]
        #expect(Entry.joinTags(fresh.tags, separator: fresh.tagSeparator) == "x;y")
    }

    /// Replaces the `occurrence`-th `tag` with `replacement`.
    static func replace(_ xml: inout String, _ tag: String, occurrence: Int, with replacement: String) throws {
        var searchStart = xml.startIndex
        var found: Range<String.Index>?
        for _ in 0..<occurrence {
            found = xml.range(of: tag, range: searchStart..<xml.endIndex)
            guard let range = found else { throw TestFailure("tag \(tag) #\(occurrence) not found") }
            searchStart = range.upperBound
        }
        xml.replaceSubrange(found!, with: replacement)
    }

    @Test("unknown attributes on every kind of known element survive in place (after the known ones)")
    func unknownAttributesSurvive() throws {
        var (xml, vault) = try Self.canonical()
        let changes: [(String, Int, String)] = [
            ("<KeePassFile>", 1, "<KeePassFile fileAttr=\"1\">"),
            ("<Meta>", 1, "<Meta metaAttr=\"m\" second=\"2\">"),
            ("<Generator>", 1, "<Generator genAttr=\"g\">"),
            ("<MemoryProtection>", 1, "<MemoryProtection mp=\"1\">"),
            ("<CustomIcons>", 1, "<CustomIcons ci=\"1\">"),
            ("<Icon>", 1, "<Icon ic=\"1\">"),
            ("<CustomData>", 1, "<CustomData cd=\"1\">"),
            ("<Item>", 1, "<Item it=\"1\">"),
            ("<Root>", 1, "<Root r=\"1\">"),
            ("<Group>", 2, "<Group groupAttr=\"1\">"),
            ("<Times>", 3, "<Times timesAttr=\"t\">"),
            ("<Entry>", 2, "<Entry entryAttr=\"e\">"),
            ("<String>", 3, "<String stringAttr=\"s\">"),
            ("<Key>", 4, "<Key keyAttr=\"k\">"),
            ("<Value Protected=\"True\">", 1, "<Value Protected=\"True\" valueAttr=\"v\">"),
            ("<Binary>", 1, "<Binary ba=\"1\">"),
            ("<AutoType>", 1, "<AutoType at=\"1\">"),
            ("<Association>", 1, "<Association as=\"1\">"),
            ("<History>", 1, "<History historyAttr=\"h\">"),
            ("<DeletedObjects>", 1, "<DeletedObjects ds=\"1\">"),
            ("<DeletedObject>", 1, "<DeletedObject d=\"1\">"),
        ]
        for (tag, occurrence, replacement) in changes {
            try Self.replace(&xml, tag, occurrence: occurrence, with: replacement)
        }
        var clear = ClearTestStream()
        let read = try Self.read(xml, like: vault, stream: &clear)
        let written = Self.write(read)
        for (_, _, replacement) in changes {
            #expect(written.contains(replacement), "lost: \(replacement)")
        }
        #expect(Self.normalized(written) == Self.normalized(xml))
        // Through a real inner stream too.
        let key = [UInt8](repeating: 0x33, count: 64)
        var writeStream = try InnerRandomStream(algorithm: .chacha20, key: key)
        let masked = Self.write(read, stream: &writeStream)
        var readStream = try InnerRandomStream(algorithm: .chacha20, key: key)
        #expect(try Self.read(masked, like: vault, stream: &readStream) == read)
    }
}
