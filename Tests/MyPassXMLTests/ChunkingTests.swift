import MyPassTestSupport
import MyPassXML
import Testing

/// Documents that put every construct, multi-byte UTF-8 and references where a chunk boundary can fall.
let chunkingDocuments: [String] = [
    "\u{FEFF}<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"yes\"?>\r\n<!-- head é -->"
        + "<Root a='1' b=\"x&amp;y&#x1F511;\tz\"><é>日本語 &lt;tag&gt; &#233;&#x20AC; 🔑</é>"
        + "<![CDATA[ <raw> & ]] ]]><?pi data ?><Empty/><Empty2 ></Empty2>\r\nline2</Root>\n<!--tail-->",
    "<a><b c=\"&quot;&apos;\">&amp;&amp;</b><b>ü</b>\n\t<b/></a>",
]

@Suite("XML: chunk boundaries")
struct ChunkingTests {
    @Test("every split point into two chunks gives the same events", arguments: chunkingDocuments.indices)
    func everySplitPoint(_ index: Int) throws {
        let bytes = Array(chunkingDocuments[index].utf8)
        let whole = try events(bytes: bytes)
        #expect(whole.count > 8)
        for k in 0...bytes.count {
            let split = try events(chunks: [bytes[0..<k], bytes[k...]])
            #expect(split == whole, "split at \(k)")
        }
    }

    @Test("byte-by-byte and random chunks give the same events", arguments: chunkingDocuments.indices)
    func byteByByte(_ index: Int) throws {
        let bytes = Array(chunkingDocuments[index].utf8)
        let whole = try events(bytes: bytes)
        #expect(try events(chunks: bytes.indices.map { bytes[$0...$0] }) == whole)
        for seed in 1...20 as ClosedRange<UInt64> {
            #expect(try events(chunks: randomSplits(bytes, seed: seed, maxPiece: 7)) == whole)
        }
        #expect(try events(chunks: [offsetSlice(bytes)]) == whole)
    }

    @Test("values are handed over whole across chunks (text, attribute, entity, UTF-8)")
    func valuesWhole() throws {
        let bytes = Array(chunkingDocuments[0].utf8)
        let all = try events(chunks: bytes.indices.map { bytes[$0...$0] })
        #expect(all.contains(.text("日本語 <tag> é€ 🔑")))
        #expect(all.contains(start("Root", [("a", "1"), ("b", "x&y🔑 z")])))
        #expect(all.contains(.cdata(" <raw> & ]] ")))
        #expect(all.contains(.text("\nline2")))
        #expect(all.contains(.comment(" head é ")))
    }

    @Test("rich-export.xml in random chunks gives the same events as whole")
    func richExportChunked() throws {
        let bytes = try TestVectors.bytes("xml/rich-export.xml")
        let whole = try events(bytes: bytes)
        for seed in [3, 77] as [UInt64] {
            #expect(try events(chunks: randomSplits(bytes, seed: seed, maxPiece: 300)) == whole)
        }
        #expect(try events(chunks: randomSplits(bytes, seed: 9, maxPiece: 5)) == whole)
    }

    @Test("an error is the same however the input is chunked")
    func errorsChunked() throws {
        let bytes = Array("<a>\n <b x='1'>&bogus;</b></a>".utf8)
        let whole = try #require(xmlError(bytes))
        #expect(whole.code == .unknownEntity)
        for k in 0...bytes.count {
            do {
                _ = try events(chunks: [bytes[0..<k], bytes[k...]])
                Issue.record("no error at split \(k)")
            } catch {
                #expect(error.code == .unknownEntity)
                #expect((error.line, error.column) == (whole.line, whole.column))
            }
        }
    }
}
