import MyPassXML
import Testing

@Suite("XML: tokenizer constructs")
struct TokenizerConstructTests {
    @Test("elements, self-closing tags and text")
    func elementsAndText() throws {
        #expect(try events("<a><b>hi</b><c/><d /></a>") == [
            start("a"), start("b"), .text("hi"), end("b"), start("c"), end("c"), start("d"), end("d"), end("a"),
        ])
        #expect(try events("<root/>") == [start("root"), end("root")])
        #expect(try events("<a></a >") == [start("a"), end("a")])
    }

    @Test("attributes in both quote styles, in order")
    func attributes() throws {
        #expect(try events(#"<a x="1" y='two' z = "it's" w='say "hi"'/>"#) == [
            start("a", [("x", "1"), ("y", "two"), ("z", "it's"), ("w", "say \"hi\"")]), end("a"),
        ])
        #expect(try events(#"<a x=""/>"#) == [start("a", [("x", "")]), end("a")])
        #expect(try events("<a\n\tx=\"1\"\r\n>t</a>") == [start("a", [("x", "1")]), .text("t"), end("a")])
    }

    @Test("attribute-value normalisation (XML 1.0 §3.3.3)")
    func attributeNormalisation() throws {
        #expect(try events("<a v=\"x\ty\nz\r\nw\rq\"/>") == [start("a", [("v", "x y z w q")]), end("a")])
        #expect(try events(#"<a v="&#x9;&#xA;&#xD;&#32;"/>"#) == [start("a", [("v", "\t\n\r ")]), end("a")])
        #expect(try events(#"<a v="&lt;&gt;&amp;&apos;&quot;"/>"#) == [start("a", [("v", "<>&'\"")]), end("a")])
        #expect(try events(#"<a v="  lead  "/>"#) == [start("a", [("v", "  lead  ")]), end("a")])
    }

    @Test("the five entities and character references in text")
    func references() throws {
        #expect(try events("<a>&lt;&gt;&amp;&apos;&quot;</a>") == [start("a"), .text("<>&'\""), end("a")])
        #expect(errorCode("<a>&#X43;</a>") == .malformed)  // the x of a hex reference is lowercase (§4.1 [66])
        #expect(try events("<a>&#65;&#x42;&#x1F511;&#0000000065;&#xE9;</a>") == [start("a"), .text("AB🔑Aé"), end("a")])
        #expect(try events("<a>x &amp;amp; y</a>") == [start("a"), .text("x &amp; y"), end("a")])
        #expect(try events("<a>]]&gt; ] ]] > </a>") == [start("a"), .text("]]> ] ]] > "), end("a")])
    }

    @Test("line ends are normalised in text, CDATA, comments and PIs (XML 1.0 §2.11)")
    func lineEnds() throws {
        #expect(try events("<a>1\r\n2\r3\n4</a>") == [start("a"), .text("1\n2\n3\n4"), end("a")])
        #expect(try events("<a><![CDATA[1\r\n2]]></a>") == [start("a"), .cdata("1\n2"), end("a")])
        #expect(try events("<a><!--1\r\n2--></a>") == [start("a"), .comment("1\n2"), end("a")])
        #expect(try events("<a><?p 1\r2?></a>") == [start("a"), .processingInstruction(target: "p", data: "1\n2"), end("a")])
    }

    @Test("CDATA, comments and processing instructions")
    func otherMarkup() throws {
        #expect(try events("<a><![CDATA[<b>&amp;]] ]>]]></a>") == [start("a"), .cdata("<b>&amp;]] ]>"), end("a")])
        #expect(try events("<a><![CDATA[]]></a>") == [start("a"), .cdata(""), end("a")])
        #expect(try events("<a><!-- c - d --><!----></a>") == [start("a"), .comment(" c - d "), .comment(""), end("a")])
        #expect(try events("<a><?target  some data ?><?t?></a>") == [
            start("a"), .processingInstruction(target: "target", data: "some data "),
            .processingInstruction(target: "t", data: ""), end("a"),
        ])
        #expect(try events("<!--pro--><?pi x?><a/><!--epi-->") == [
            .comment("pro"), .processingInstruction(target: "pi", data: "x"), start("a"), end("a"), .comment("epi"),
        ])
        #expect(try events("<?xml-stylesheet href='x'?><a/>") == [
            .processingInstruction(target: "xml-stylesheet", data: "href='x'"), start("a"), end("a"),
        ])
    }

    @Test("XML declaration and byte-order mark are consumed")
    func declarationAndBOM() throws {
        let expected = [start("a"), end("a")]
        #expect(try events(#"<?xml version="1.0" encoding="utf-8" standalone="yes"?><a/>"#) == expected)
        #expect(try events("<?xml version='1.0'?>\n<a/>\n") == expected)
        #expect(try events(#"<?xml version="1.1" encoding="UTF-8"?><a/>"#) == expected)
        #expect(try events(bytes: [0xEF, 0xBB, 0xBF] + Array("<?xml version=\"1.0\"?><a/>".utf8)) == expected)
        #expect(try events(bytes: [0xEF, 0xBB, 0xBF] + Array("<a/>".utf8)) == expected)
        #expect(errorCode(#"<?xml version="1.0" encoding="ISO-8859-1"?><a/>"#) == .malformed)
        #expect(errorCode(#"<?xml encoding="utf-8"?><a/>"#) == .malformed)
        #expect(errorCode(#"<?xml version="2.0"?><a/>"#) == .malformed)
        #expect(errorCode(#"<?xml version="1.0" standalone="maybe"?><a/>"#) == .malformed)
        #expect(errorCode(#" <?xml version="1.0"?><a/>"#) == .malformed)  // declaration must come first
        #expect(errorCode(#"<a><?xml version="1.0"?></a>"#) == .malformed)
    }

    @Test("white space: outside the root is not reported; inside, skipsWhitespaceText drops it")
    func whitespace() throws {
        let doc = "\n <a>\n\t<b> x </b>\n\t<c>\r\n</c></a>\n\n"
        #expect(try events(doc) == [
            start("a"), .text("\n\t"), start("b"), .text(" x "), end("b"), .text("\n\t"), start("c"), .text("\n"),
            end("c"), end("a"),
        ])
        #expect(try events(doc, skipsWhitespaceText: true) == [
            start("a"), start("b"), .text(" x "), end("b"), start("c"), end("c"), end("a"),
        ])
    }

    @Test("non-ASCII names and text")
    func unicode() throws {
        #expect(try events("<日本 属性=\"値\"><é·x>ü 🔑</é·x></日本>") == [
            start("日本", [("属性", "値")]), start("é·x"), .text("ü 🔑"), end("é·x"), end("日本"),
        ])
        #expect(try events("<_:a-b.c9/>") == [start("_:a-b.c9"), end("_:a-b.c9")])
    }

    @Test("line and column of each event")
    func positions() throws {
        var tokenizer = XMLTokenizer()
        tokenizer.feed(Array("<a>\n  <b x='1'>t</b>\n</a>".utf8)[...])
        tokenizer.finish()
        var positions: [String] = []
        while try tokenizer.next() != nil { positions.append("\(tokenizer.line):\(tokenizer.column)") }
        // <a>, "\n  ", <b>, "t", </b>, "\n", </a>
        #expect(positions == ["1:1", "1:4", "2:3", "2:12", "2:13", "2:17", "3:1"])
    }

    @Test("errors carry the line and column of the problem")
    func errorPositions() throws {
        let error = try #require(xmlError(Array("<a>\n  <b></c>".utf8)))
        #expect(error.code == .mismatchedTag)
        #expect(error.line == 2)
        #expect(error.column == 6)
        let bad = try #require(xmlError(Array("<a>\nok\nbad \u{1}</a>".utf8)))
        #expect(bad.code == .invalidCharacter)
        #expect((bad.line, bad.column) == (3, 5))
        let entity = try #require(xmlError(Array("<a>\n\n   &nope;</a>".utf8)))
        #expect(entity.code == .unknownEntity)
        #expect((entity.line, entity.column) == (3, 4))
    }

    @Test("next() returns nil until more input or finish(); errors stick")
    func pullProtocol() throws {
        var tokenizer = XMLTokenizer()
        #expect(try tokenizer.next() == nil)
        tokenizer.feed(Array("<a>te".utf8)[...])
        #expect(try tokenizer.next() == start("a"))
        #expect(try tokenizer.next() == nil)  // text may continue
        tokenizer.feed(Array("xt</a".utf8)[...])
        #expect(try tokenizer.next() == .text("text"))
        #expect(try tokenizer.next() == nil)
        tokenizer.feed(Array(">".utf8)[...])
        #expect(try tokenizer.next() == end("a"))
        #expect(try tokenizer.next() == nil)
        tokenizer.finish()
        #expect(try tokenizer.next() == nil)

        var broken = XMLTokenizer()
        broken.feed(Array("<a></b>".utf8)[...])
        #expect(try broken.next() == start("a"))
        #expect(throws: XMLError(.mismatchedTag, line: 0, column: 0)) { try broken.next() }
        #expect(throws: XMLError(.mismatchedTag, line: 0, column: 0)) { try broken.next() }
    }
}
