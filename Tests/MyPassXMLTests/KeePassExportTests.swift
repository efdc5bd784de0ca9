import MyPassTestSupport
import MyPassXML
import Testing

@Suite("XML: KeePass export")
struct KeePassExportTests {
    @Test("rich-export.xml reads without error, with its known content")
    func readsRichExport() throws {
        let bytes = try TestVectors.bytes("xml/rich-export.xml")
        let all = try events(bytes: bytes)
        #expect(all.first == start("KeePassFile"))
        #expect(all.last == end("KeePassFile"))
        let starts = all.filter { if case .startElement = $0 { return true } else { return false } }
        let ends = all.filter { if case .endElement = $0 { return true } else { return false } }
        #expect(starts.count == ends.count)
        #expect(all.contains(.text("Fixture xml-export")))
        #expect(all.contains(.text("Line1\nLine2\tTabbed\n<xml> & \"quotes\" 'apos' ]]>")))
        #expect(all.contains(.text("Cards & \"Stuff\" <x>")))
        #expect(all.contains(.text("http://例え.jp:8080/path?q=1&r=<2>")))
        #expect(all.contains(start("Binary", [("ID", "0"), ("Compressed", "True")])))
    }

    @Test("write(read(x)) is byte-identical to KeePass's export, but for <X></X> written <X />")
    func writerReproducesExport() throws {
        let bytes = try TestVectors.bytes("xml/rich-export.xml")
        let output = write(try events(bytes: bytes, skipsWhitespaceText: true))
        #expect(firstDifference(output, collapsingEmptyElements(bytes)) == nil)
        #expect(collapsingEmptyElements(bytes).count < bytes.count)
        let again = try events(bytes: output)
        #expect(withoutWhitespaceText(again) == withoutWhitespaceText(try events(bytes: bytes)))
    }
}
