import Foundation
import MyPassBytes
import MyPassCrypto
import MyPassKDBX
import MyPassTestSupport
import MyPassXML
import Testing

/// The tokenizer's whole observable behaviour, pinned: for every plain XML file of Vectors/, every
/// decrypted fixture body, the XML fuzz corpus and 3,000 seeded mutations of one small document,
/// a canonical dump of the events (with the line and column of each) and of the final error
/// (code, line, column) is the same whole and fed in chunks of 1, 7, 61 and 4,096 bytes, and its
/// SHA-256 equals the one recorded in Vectors/xml/tokenizer-digests.txt by the tokenizer before
/// its speed-ups (see Vectors/xml/PROVENANCE.md). `MYPASS_RECORD_XML_DIGESTS=PATH` writes the
/// digests to PATH instead of comparing (for re-recording after a deliberate change).
@Suite("XML tokenizer: event and error digests pinned")
struct TokenizerDigestTests {
    static let chunkSizes = [1, 7, 61, 4096]

    static let plainFiles = [
        "xml/rich-export.xml", "kdbx-xml/rich-export.xml", "kdbx-xml/regressions/gzip-binaries-add-up-3x.xml",
        "compression/rich-export.xml", "passkey/keepass-passkeys.xml", "cli/paths.xml", "demo/demo.xml",
    ]

    /// The canonical dump of tokenizing `bytes` fed as `chunk`-byte pieces (0: whole).
    static func dump(_ bytes: [UInt8], chunk: Int) -> [UInt8] {
        var out: [UInt8] = []
        func field(_ text: String) {
            out += Array(String(text.utf8.count).utf8) + [0x3A] + Array(text.utf8)
        }
        var tokenizer = XMLTokenizer()
        func drain() throws(XMLError) {
            while let event = try tokenizer.next() {
                switch event {
                case .startElement(let name, let attributes):
                    out.append(0x53)
                    field(name)
                    field(String(attributes.count))
                    for attribute in attributes {
                        field(attribute.name)
                        field(attribute.value)
                    }
                case .endElement(let name): out.append(0x45); field(name)
                case .text(let text): out.append(0x54); field(text)
                case .cdata(let text): out.append(0x44); field(text)
                case .comment(let text): out.append(0x43); field(text)
                case .processingInstruction(let target, let data): out.append(0x50); field(target); field(data)
                }
                field("\(tokenizer.line),\(tokenizer.column)")
            }
        }
        do throws(XMLError) {
            let step = chunk == 0 ? max(1, bytes.count) : chunk
            var start = 0
            while start < bytes.count {
                let end = min(start + step, bytes.count)
                tokenizer.feed(bytes[start..<end])
                try drain()
                start = end
            }
            tokenizer.finish()
            try drain()
            out.append(0x2E)
        } catch {
            out.append(0x21)
            field("\(error.code) \(error.line),\(error.column) \(tokenizer.line),\(tokenizer.column)")
        }
        return out
    }

    /// SHA-256 over the whole-document dumps of `documents`; expects each chunked dump to equal the whole one.
    static func digest(_ documents: [[UInt8]], label: String) -> String {
        var hash = SHA256()
        for (n, document) in documents.enumerated() {
            let whole = dump(document, chunk: 0)
            for size in chunkSizes {
                let chunked = dump(document, chunk: size)
                #expect(chunked == whole, "\(label) #\(n): \(size)-byte chunks give other events or errors")
            }
            whole.withUnsafeBytes { hash.update($0) }
        }
        return hexString(hash.finalize())
    }

    /// The decrypted XML body of a fixture (KDBX 4: after the inner header).
    static func body(_ fixture: Fixture) throws -> [UInt8] {
        let reader = try KDBXReader(file: try fixture.fileBytes)
        let content = try reader.decompress(try reader.decryptPayload(keys: try reader.deriveKeys(try fixture.compositeKey())))
        guard reader.header.version.isKDBX4 else { return content }
        var parser = InnerHeader.Parser(limits: reader.limits)
        return Array(try #require(try parser.feed(content[...])))
    }

    /// `count` seeded mutations of `seed`: one to three byte edits from markup-significant bytes.
    static func mutations(of seed: [UInt8], count: Int) -> [[UInt8]] {
        let alphabet: [UInt8] = Array("<>&;/?!-[]'\"= \t\r\nax#:\u{1}é😀".utf8) + [0xFF, 0xC3, 0x80, 0xED, 0xA0, 0xEF, 0xBF, 0xBE]
        var state: UInt64 = 0x5EED_0F_70_4E_12
        func random() -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(truncatingIfNeeded: state >> 1)
        }
        return (0..<count).map { _ in
            var document = seed
            for _ in 0...(random() % 3) {
                let position = random() % document.count
                let byte = alphabet[random() % alphabet.count]
                switch random() % 3 {
                case 0: document[position] = byte
                case 1: document.insert(byte, at: position)
                default: document.remove(at: position)
                }
            }
            return document
        }
    }

    /// Every pinned case: a label and its documents.
    static func cases() throws -> [(String, [[UInt8]])] {
        var result: [(String, [[UInt8]])] = []
        for path in plainFiles { result.append(("file " + path, [try TestVectors.bytes(path)])) }
        for fixture in FixtureCatalog.quick + FixtureCatalog.large {
            result.append(("body " + fixture.name, [try body(fixture)]))
        }
        let corpus = try TestVectors.text("xml/fuzz-corpus.b64").split(separator: "\n").map {
            [UInt8](try #require(Data(base64Encoded: String($0))))
        }
        result.append(("fuzz corpus xml/fuzz-corpus.b64", corpus))
        result.append(("3000 mutations of passkey/keepass-passkeys.xml",
                       mutations(of: try TestVectors.bytes("passkey/keepass-passkeys.xml"), count: 3000)))
        return result
    }

    @Test("every document gives the recorded digest, whole and in 1, 7, 61, 4096-byte chunks")
    func pinned() throws {
        let lines = try Self.cases().map { label, documents in Self.digest(documents, label: label) + "  " + label }
        if let path = ProcessInfo.processInfo.environment["MYPASS_RECORD_XML_DIGESTS"], !path.isEmpty {
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
            return
        }
        let expected = try TestVectors.text("xml/tokenizer-digests.txt").split(separator: "\n").map(String.init)
        #expect(lines.count == expected.count)
        for (line, recorded) in zip(lines, expected) {
            #expect(line == recorded)
        }
    }
}
