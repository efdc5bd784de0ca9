import Foundation
import MyPassTestSupport
import MyPassXML
import Testing

/// Well-formedness verdicts compared with libxml2 (`xmllint --noout`) on mutated documents.
/// Skipped (with a message) when xmllint is not installed, a failure when MYPASS_REQUIRE_INTEROP=1.
@Suite("XML: differential against xmllint")
struct DifferentialTests {
    /// Seeds without an XML declaration or DOCTYPE (where xmllint is knowingly more lenient or does
    /// more): each mutation is one to three byte edits drawn from markup-significant bytes.
    static let seeds: [[UInt8]] = [
        Array(#"<a x="1" y='2'><b>t&amp;x&#x41;</b><!-- c --><![CDATA[d]]><?p q?><e/></a>"#.utf8),
        Array("<r>\n\t<k v=\"a&lt;b\">café 😀</k>\n\t<k/>\n</r>\n".utf8),
        [0xEF, 0xBB, 0xBF] + Array("<!--x--><?pi d?><a\n b = \"v&#10;w\"><![CDATA[]]]]><c>&quot;&apos;&gt;</c>text]]&gt;</a>\n<!--y-->".utf8),
    ]

    static let alphabet: [UInt8] = Array("<>&;/?!-[]'\"= \t\r\nax#:\u{1}é😀".utf8) + [0xFF, 0xC3, 0x80, 0xED, 0xA0, 0xEF, 0xBF, 0xBE]

    @Test("our verdict equals libxml2's on 150 mutated documents")
    func sameVerdicts() throws {
        guard let xmllint = InteropTools.executable(named: "xmllint") else {
            if let failure = InteropTools.missing("xmllint", test: "sameVerdicts") { Issue.record(Comment(rawValue: failure)) }
            return
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mypass-xml-diff-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: file) }
        var state: UInt64 = 0x1234_5678_9ABC_DEF1
        func random() -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(truncatingIfNeeded: state >> 1)
        }
        var agreed = 0
        var rejected = 0
        for n in 0..<150 {
            var document = Self.seeds[n % Self.seeds.count]
            for _ in 0...(random() % 3) {
                let position = random() % document.count
                let byte = Self.alphabet[random() % Self.alphabet.count]
                switch random() % 3 {
                case 0: document[position] = byte
                case 1: document.insert(byte, at: position)
                default: document.remove(at: position)
                }
            }
            let ours = errorCode(document)
            try Data(document).write(to: file)
            let theirs = try runProcess(xmllint, ["--noout", "--nonet", file.path]).status == 0
            #expect((ours == nil) == theirs, "case \(n): ours \(String(describing: ours)), xmllint \(theirs): \(String(decoding: document, as: UTF8.self).debugDescription)")
            if (ours == nil) == theirs { agreed += 1 }
            if ours != nil { rejected += 1 }
        }
        #expect(agreed == 150)
        #expect(rejected > 30 && rejected < 150)  // the mutations produce both verdicts
    }
}
