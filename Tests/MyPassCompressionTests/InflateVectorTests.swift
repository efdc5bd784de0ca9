import MyPassCompression
import MyPassTestSupport
import Testing

/// A compressed vector made by Python's zlib or Debian gzip, and the file it decompresses to.
struct CompressedVector: CustomStringConvertible, Sendable {
    var file: String
    var format: CompressionFormat
    var original: [String]
    var description: String { file }
}

let compressedVectors: [CompressedVector] = [
    .init(file: "gpl-3.txt.L1.zlib", format: .zlib, original: ["gpl-3.txt"]),
    .init(file: "gpl-3.txt.L6.zlib", format: .zlib, original: ["gpl-3.txt"]),
    .init(file: "gpl-3.txt.L9.raw", format: .raw, original: ["gpl-3.txt"]),
    .init(file: "gpl-3.txt.filtered.raw", format: .raw, original: ["gpl-3.txt"]),
    .init(file: "gpl-3.txt.huffman.raw", format: .raw, original: ["gpl-3.txt"]),
    .init(file: "gpl-3.txt.rle.raw", format: .raw, original: ["gpl-3.txt"]),
    .init(file: "gpl-3.txt.fixed.gz", format: .gzip, original: ["gpl-3.txt"]),
    .init(file: "gpl-3.txt.window9.zlib", format: .zlib, original: ["gpl-3.txt"]),
    .init(file: "gpl-3.txt.gz", format: .gzip, original: ["gpl-3.txt"]),
    .init(file: "rich-export.xml.L6.zlib", format: .zlib, original: ["rich-export.xml"]),
    .init(file: "rich-export.xml.gz", format: .gzip, original: ["rich-export.xml"]),
    .init(file: "random-20000.bin.L6.raw", format: .raw, original: ["random-20000.bin"]),
    .init(file: "random-20000.bin.L0.zlib", format: .zlib, original: ["random-20000.bin"]),
    .init(file: "allflags.txt.gz", format: .gzip, original: ["allflags.txt"]),
    .init(file: "concat.gz", format: .gzip, original: ["gpl-3.txt", "allflags.txt"]),
]

@Suite("Inflate: vectors from Python zlib and Debian gzip")
struct InflateVectorTests {
    func load(_ v: CompressedVector) throws -> (compressed: [UInt8], expected: [UInt8]) {
        let compressed = try TestVectors.bytes("compression/" + v.file)
        var expected: [UInt8] = []
        for name in v.original { expected += try TestVectors.bytes("compression/" + name) }
        return (compressed, expected)
    }

    @Test("Whole input, as an offset slice, and through the one-shot helpers", arguments: compressedVectors)
    func whole(_ v: CompressedVector) throws {
        let (compressed, expected) = try load(v)
        #expect(try inflate(compressed, format: v.format) == expected)
        #expect(try inflate([offsetSlice(compressed)], format: v.format) == expected)
        #expect(try Inflater.decompress(offsetSlice(compressed), format: v.format) == expected)
        if v.format == .gzip { #expect(try Gzip.decompress(compressed) == expected) }
    }

    @Test("Streaming: random splits, and one byte at a time", arguments: compressedVectors)
    func streaming(_ v: CompressedVector) throws {
        let (compressed, expected) = try load(v)
        for seed: UInt64 in [1, 2, 3] {
            #expect(try inflate(randomSplits(compressed, seed: seed, maxPiece: 700), format: v.format) == expected)
        }
        #expect(try inflate(randomSplits(compressed, seed: 9, maxPiece: 3), format: v.format) == expected)
        let bytes = compressed.indices.map { compressed[$0...$0] }
        #expect(try inflate(bytes, format: v.format) == expected)
    }

    @Test("KeePass's own gzip payload (KDBX 3.1 fixture) inflates to the XML that Python's zlib saw")
    func keePassPayload() throws {
        let fields = try TestVectors.text("compression/payload-manifest.txt").split(whereSeparator: { $0 == " " || $0 == "\n" })
        let payload = try TestVectors.bytes("compression/\(fields[0])")
        let xml = try inflate(randomSplits(payload, seed: 12, maxPiece: 4096), format: .gzip)
        #expect(xml.count == Int(fields[1]))
        #expect(CRC32.checksum(xml) == UInt32(fields[2], radix: 16))
        #expect(xml.starts(with: Array("<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"yes\"?>".utf8)))
        #expect(try Gzip.decompress(payload, maxOutputBytes: xml.count) == xml)
    }

    @Test("Output arrives while input is fed, not only at finish()")
    func outputIsIncremental() throws {
        let compressed = try TestVectors.bytes("compression/rich-export.xml.gz")
        let expected = try TestVectors.bytes("compression/rich-export.xml")
        var inflater = Inflater(format: .gzip)
        let half = compressed.count / 2
        let first = try inflater.update(compressed[..<half])
        #expect(first.count > 50_000)
        #expect(Array(expected.prefix(first.count)) == first)
        let rest = try inflater.update(compressed[half...]) + inflater.finish()
        #expect(first + rest == expected)
    }
}
