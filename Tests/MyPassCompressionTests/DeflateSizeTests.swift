import MyPassCompression
import MyPassTestSupport
import Testing

@Suite("Deflate: output size against zlib")
struct DeflateSizeTests {
    /// zlib level 6 (Python's zlib 1.2.13) sizes come from the `.L6.zlib` vectors: the zlib
    /// stream minus its 2-byte header and 4-byte Adler-32 is the raw DEFLATE size.
    @Test("Default level within 2% of zlib level 6 on the KeePass XML export and a text corpus",
          arguments: [("rich-export.xml", "rich-export.xml.L6.zlib"), ("gpl-3.txt", "gpl-3.txt.L6.zlib")])
    func withinTwoPercent(_ names: (String, String)) throws {
        let data = try TestVectors.bytes("compression/" + names.0)
        let zlibSize = try TestVectors.bytes("compression/" + names.1).count - 6
        let ours = Deflater.compress(data[...], format: .raw).count
        let ratio = Double(ours) / Double(zlibSize)
        print("size \(names.0): ours \(ours) bytes, zlib -6 \(zlibSize) bytes, ratio \(ratio)")
        #expect(ratio <= 1.02, "\(names.0): \(ours) vs zlib \(zlibSize)")
        #expect(ours * 10 < data.count * 6)  // the export holds base64 attachments, so about 54%
    }

    @Test("Default level within 2% of zlib level 6 on KeePass's own XML payload (KDBX 3.1 fixture)")
    func keePassPayload() throws {
        let fields = try TestVectors.text("compression/payload-manifest.txt").split(whereSeparator: { $0 == " " || $0 == "\n" })
        let xml = try Gzip.decompress(try TestVectors.bytes("compression/\(fields[0])"))
        let zlibSize = Int(fields[3])!
        let ours = Deflater.compress(xml[...], format: .raw).count
        print("size KeePass payload XML: ours \(ours) bytes, zlib -6 \(zlibSize) bytes")
        #expect(Double(ours) <= Double(zlibSize) * 1.02)
        #expect(try Gzip.decompress(Gzip.compress(xml)) == xml)
    }

    @Test("Higher levels never do worse than level 1 on text; level 0 is stored size plus block overhead")
    func levelsOrder() throws {
        let data = try TestVectors.bytes("compression/gpl-3.txt")
        let sizes = (0...9).map { Deflater.compress(data[...], format: .raw, level: $0).count }
        print("gpl-3.txt sizes by level: \(sizes)")
        #expect(sizes[0] == data.count + 5)  // one stored block: 35149 bytes < 65535
        #expect(sizes[9] <= sizes[6] && sizes[6] < sizes[1])
        let zlibL1 = try TestVectors.bytes("compression/gpl-3.txt.L1.zlib").count - 6
        #expect(Double(sizes[1]) <= Double(zlibL1) * 1.02)
        let zlibL9 = try TestVectors.bytes("compression/gpl-3.txt.L9.raw").count
        #expect(Double(sizes[9]) <= Double(zlibL9) * 1.02)
    }

    @Test("Incompressible data grows by stored-block overhead only")
    func incompressible() throws {
        let data = try TestVectors.bytes("compression/random-20000.bin")
        let size = Deflater.compress(data[...], format: .raw).count
        #expect(size <= data.count + 5 * 2)
    }

    @Test("A long incompressible stretch goes into stored blocks cheaply; text after it compresses as alone",
          arguments: [1, 6, 9])
    func incompressibleThenText(level: Int) throws {
        var state: UInt64 = 1
        let random = (0..<(1 << 20)).map { _ -> UInt8 in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        let text = try TestVectors.bytes("compression/gpl-3.txt")
        let stored = Deflater.compress(random[...], format: .raw, level: level)
        // A stored block per block of symbols (16,383), 5 bytes of framing each.
        #expect(stored.count <= random.count + 5 * (random.count / 16_383 + 2))
        let alone = Deflater.compress(text[...], format: .raw, level: level).count
        let mixed = random + text
        let both = Deflater.compress(mixed[...], format: .raw, level: level)
        #expect(both.count <= stored.count + alone + alone / 50 + 64, "level \(level): \(both.count) vs \(stored.count) + \(alone)")
        #expect(try Inflater.decompress(both[...], format: .raw) == mixed)
    }
}
