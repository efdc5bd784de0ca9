import MyPassXML
import Testing

@Suite("XML: writer")
struct WriterTests {
    @Test("KeePass's shape: declaration, tabs, LF, leaves, empty elements, no final newline")
    func shape() {
        var writer = XMLWriter()
        writer.writeDeclaration()
        writer.startElement("KeePassFile")
        writer.startElement("Meta")
        writer.writeElement("Generator", text: "")
        writer.writeElement("DatabaseName", text: "Name")
        writer.startElement("MemoryProtection")
        writer.endElement()
        writer.startElement("Binary", attributes: [XMLAttribute("ID", "0"), XMLAttribute("Compressed", "True")])
        writer.endElement()
        writer.writeElement("Value", text: "s", attributes: [XMLAttribute("ProtectInMemory", "True")])
        writer.endElement()
        writer.startElement("Root")
        let output = writer.finish()
        let expected = """
            <?xml version="1.0" encoding="utf-8" standalone="yes"?>
            <KeePassFile>
            \t<Meta>
            \t\t<Generator></Generator>
            \t\t<DatabaseName>Name</DatabaseName>
            \t\t<MemoryProtection />
            \t\t<Binary ID="0" Compressed="True" />
            \t\t<Value ProtectInMemory="True">s</Value>
            \t</Meta>
            \t<Root />
            </KeePassFile>
            """
        #expect(String(decoding: output, as: UTF8.self) == expected)
    }

    @Test("escaping in text and attributes, as KeePass/.NET does")
    func escaping() {
        var writer = XMLWriter()
        writer.writeElement("T", text: "<a> & \"q\" 'a' ]]> \t\n", attributes: [XMLAttribute("v", "<a> & \"q\" 'a' \t\n\r")])
        #expect(String(decoding: writer.finish(), as: UTF8.self)
            == "<T v=\"&lt;a&gt; &amp; &quot;q&quot; 'a' &#x9;&#xA;&#xD;\">&lt;a&gt; &amp; \"q\" 'a' ]]&gt; \t\n</T>")
        var crlf = XMLWriter()
        crlf.writeElement("N", text: "a\r\nb\rc\nd")
        #expect(String(decoding: crlf.finish(), as: UTF8.self) == "<N>a\nb\nc\nd</N>")
    }

    @Test("characters XML 1.0 forbids are dropped, so a Notes field with U+0002 saves as a valid file")
    func forbiddenCharactersDropped() throws {
        let notes = "a\u{2}b\u{0}c\u{1F}d\u{B}\u{C}e\u{FFFE}\u{FFFF}f\u{FFFD}\u{10FFFF}\t"
        #expect(xmlSanitized(notes) == "abcdef\u{FFFD}\u{10FFFF}\t")
        #expect(xmlSanitized("plain") == "plain")
        var writer = XMLWriter()
        writer.startElement("Entry")
        writer.writeElement("Notes", text: notes, attributes: [XMLAttribute("x", "y\u{1}z")])
        let output = writer.finish()
        let read = try events(bytes: output)
        #expect(read == [
            start("Entry"), .text("\n\t"), start("Notes", [("x", "yz")]), .text("abcdef\u{FFFD}\u{10FFFF}\t"), end("Notes"),
            .text("\n"), end("Entry"),
        ])
    }

    @Test("CDATA, comments and PIs are written so they read back")
    func otherMarkup() throws {
        var writer = XMLWriter()
        writer.startElement("a")
        writer.writeComment("x -- y -")
        writer.writeProcessingInstruction(target: "pi", data: "1 ?> 2")
        writer.startElement("b")
        writer.writeCDATA("x ]]> y")
        writer.endElement()
        let output = writer.finish()
        #expect(String(decoding: output, as: UTF8.self)
            == "<a>\n\t<!--x - - y - -->\n\t<?pi 1 ? > 2?>\n\t<b><![CDATA[x ]]]]><![CDATA[> y]]></b>\n</a>")
        #expect(try events(bytes: output, skipsWhitespaceText: true) == [
            start("a"), .comment("x - - y - "), .processingInstruction(target: "pi", data: "1 ? > 2"), start("b"),
            .cdata("x ]]"), .cdata("> y"), end("b"), end("a"),
        ])
    }

    @Test("mixed content: after text, children are not indented (.NET rule)")
    func mixedContent() {
        var writer = XMLWriter()
        writer.startElement("p")
        writer.writeText("one ")
        writer.startElement("b")
        writer.startElement("i")
        writer.endElement()
        writer.endElement()
        writer.writeText(" two")
        writer.endElement()
        writer.startElement("q")
        #expect(String(decoding: writer.finish(), as: UTF8.self) == "<p>one <b><i /></b> two</p>\n<q />")
    }

    @Test("output streams: takeOutput drains, finish closes what is open")
    func streaming() {
        var writer = XMLWriter()
        writer.writeDeclaration()
        writer.startElement("a")
        let first = writer.takeOutput()
        writer.writeElement("b", text: "x")
        let rest = writer.finish()
        #expect(String(decoding: first + rest, as: UTF8.self)
            == "<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"yes\"?>\n<a>\n\t<b>x</b>\n</a>")
        #expect(writer.takeOutput().isEmpty)
    }
}

@Suite("XML: lossless subtrees")
struct NodeTests {
    static let unknown = """
        <Root><Known>1</Known><Plugin id="x" v='a&amp;b'>\
        <Item n="1">one &lt;1&gt;</Item><!-- note --><Item n="2"/><![CDATA[raw <x>]]><?pi data?>\
        <Deep><Deeper><Deepest>z</Deepest></Deeper></Deep></Plugin><After/></Root>
        """

    static let expectedNode = XMLElementNode(
        name: "Plugin", attributes: [XMLAttribute("id", "x"), XMLAttribute("v", "a&b")],
        children: [
            .element(XMLElementNode(name: "Item", attributes: [XMLAttribute("n", "1")], children: [.text("one <1>")])),
            .comment(" note "),
            .element(XMLElementNode(name: "Item", attributes: [XMLAttribute("n", "2")])),
            .cdata("raw <x>"),
            .processingInstruction(target: "pi", data: "data"),
            .element(XMLElementNode(name: "Deep", children: [
                .element(XMLElementNode(name: "Deeper", children: [
                    .element(XMLElementNode(name: "Deepest", children: [.text("z")]))
                ]))
            ])),
        ])

    @Test("XMLElementNode.read captures an unknown subtree and leaves the tokenizer after it")
    func readSubtree() throws {
        var tokenizer = XMLTokenizer()
        tokenizer.feed(Array(Self.unknown.utf8)[...])
        tokenizer.finish()
        var node: XMLElementNode?
        var after: [XMLEvent] = []
        while let event = try tokenizer.next() {
            if case .startElement("Plugin", let attributes) = event {
                node = try XMLElementNode.read(startName: "Plugin", attributes: attributes, from: &tokenizer)
            } else if node != nil {
                after.append(event)
            }
        }
        #expect(node == Self.expectedNode)
        #expect(after == [start("After"), end("After"), end("Root")])
    }

    @Test("XMLNodeBuilder resumes across feeds, one byte at a time")
    func builderIncremental() throws {
        let bytes = Array(Self.unknown.utf8)
        var tokenizer = XMLTokenizer()
        var builder: XMLNodeBuilder?
        var node: XMLElementNode?
        for k in bytes.indices {
            tokenizer.feed(bytes[k...k])
            while true {
                if builder != nil, node == nil {
                    guard let done = try builder!.read(from: &tokenizer) else { break }
                    node = done
                    continue
                }
                guard let event = try tokenizer.next() else { break }
                if case .startElement("Plugin", let attributes) = event {
                    builder = XMLNodeBuilder(startName: "Plugin", attributes: attributes)
                }
            }
        }
        #expect(node == Self.expectedNode)
        #expect(builder?.isComplete == true)
    }

    @Test("read throws when the subtree is not all there yet")
    func readIncomplete() throws {
        var tokenizer = XMLTokenizer()
        tokenizer.feed(Array("<a><b><c>".utf8)[...])
        #expect(try tokenizer.next() == start("a"))
        #expect(try tokenizer.next() == start("b"))
        #expect(throws: XMLError(.unexpectedEndOfInput, line: 0, column: 0)) {
            try XMLElementNode.read(startName: "b", attributes: [], from: &tokenizer)
        }
    }

    @Test("writeNode writes a captured subtree back to the same events")
    func writeNodeRoundTrip() throws {
        var writer = XMLWriter()
        writer.startElement("Root")
        writer.writeNode(Self.expectedNode)
        let output = writer.finish()
        var tokenizer = XMLTokenizer(skipsWhitespaceText: true)
        tokenizer.feed(output[...])
        tokenizer.finish()
        #expect(try tokenizer.next() == start("Root"))
        guard case .startElement(let name, let attributes) = try tokenizer.next() else {
            Issue.record("no start")
            return
        }
        #expect(try XMLElementNode.read(startName: name, attributes: attributes, from: &tokenizer) == Self.expectedNode)
        #expect(String(decoding: output, as: UTF8.self) == """
            <Root>
            \t<Plugin id="x" v="a&amp;b">
            \t\t<Item n="1">one &lt;1&gt;</Item>
            \t\t<!-- note -->
            \t\t<Item n="2" /><![CDATA[raw <x>]]><?pi data?><Deep><Deeper><Deepest>z</Deepest></Deeper></Deep></Plugin>
            </Root>
            """)
    }
}
