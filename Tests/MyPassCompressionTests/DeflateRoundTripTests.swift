import MyPassCompression
import MyPassTestSupport
import Testing

@Suite("Deflate: round trips through our inflater")
struct DeflateRoundTripTests {
    static func corpus() throws -> [(String, [UInt8])] {
        [
            ("empty", []),
            ("one byte", [0x41]),
            ("random 20000", try TestVectors.bytes("compression/random-20000.bin")),
            ("zeros 100000", [UInt8](repeating: 0, count: 100_000)),
            ("period 3 x 70000", (0..<70000).map { UInt8($0 % 3) }),
            ("gpl-3.txt", try TestVectors.bytes("compression/gpl-3.txt")),
            ("rich-export.xml", try TestVectors.bytes("compression/rich-export.xml")),
            ("word soup 150000", wordSoup(150_000, seed: 42)),
        ]
    }

    @Test("inflate(deflate(x)) == x for every level, format and data kind", arguments: 0...9)
    func everyLevel(_ level: Int) throws {
        for (name, data) in try Self.corpus() {
            for format in [CompressionFormat.raw, .zlib, .gzip] {
                let compressed = Deflater.compress(data[...], format: format, level: level)
                #expect(try inflate(compressed, format: format) == data, "\(name) level \(level) \(format)")
            }
        }
    }

    @Test("Sizes around block, window and buffer boundaries", arguments: [6, 1, 0, 9])
    func boundarySizes(_ level: Int) throws {
        let soup = wordSoup(140_000, seed: 3)
        let noise = pseudoRandomBytes(140_000, seed: 4)
        let sizes = [2, 3, 4, 257, 258, 259, 261, 262, 263, 32767, 32768, 32769, 65274, 65535, 65536, 65537,
                     98303, 131_072]
        for size in sizes {
            for data in [Array(soup.prefix(size)), Array(noise.prefix(size))] {
                let compressed = Deflater.compress(data[...], format: .raw, level: level)
                #expect(try inflate(compressed, format: .raw) == data, "size \(size) level \(level)")
            }
        }
    }

    @Test("Streaming deflate: input in random pieces gives a valid stream, same size as one shot")
    func streamingInput() throws {
        let xml = try TestVectors.bytes("compression/rich-export.xml")
        for seed: UInt64 in [1, 2] {
            let pieces = randomSplits(xml, seed: seed, maxPiece: 5000)
            for level in [0, 1, 6, 9] {
                let streamed = deflate(pieces, format: .gzip, level: level)
                #expect(try inflate(streamed, format: .gzip) == xml)
                let oneShot = Gzip.compress(xml, level: level)
                #expect(streamed == oneShot, "level \(level): output depends only on the data, not on chunking")
            }
        }
        // Output leaves while input is fed (bounded buffering).
        var deflater = Deflater(format: .raw, level: 6)
        var early = 0
        for piece in randomSplits(wordSoup(600_000, seed: 8), seed: 3, maxPiece: 20000) { early += deflater.update(piece).count }
        #expect(early > 0)
    }

    @Test("Large input: 2 MB through both directions in pieces, from offset slices")
    func large() throws {
        let data = wordSoup(1_000_000, seed: 21) + pseudoRandomBytes(200_000, seed: 22) + wordSoup(800_000, seed: 21)
        let compressed = deflate(randomSplits(data, seed: 8, maxPiece: 100_000), format: .gzip, level: 6)
        #expect(compressed == Gzip.compress(data))
        #expect(try inflate(randomSplits(compressed, seed: 9, maxPiece: 50_000), format: .gzip) == data)
        #expect(try inflate([offsetSlice(compressed)], format: .gzip) == data)
        #expect(Deflater.compress(offsetSlice(data), format: .raw, level: 1) == Deflater.compress(data[...], format: .raw, level: 1))
    }

    @Test("Levels outside 0...9 are clamped")
    func levelClamping() {
        #expect(Deflater(format: .raw, level: -3).level == 0)
        #expect(Deflater(format: .raw, level: 12).level == 9)
    }

    @Test("A copied Deflater continues independently (value semantics)")
    func valueSemantics() throws {
        let data = wordSoup(50000, seed: 1)
        var a = Deflater(format: .zlib)
        var prefix = a.update(data[..<20000])
        var b = a
        let restA = a.update(data[20000...]) + a.finish()
        let restB = b.update(data[20000...]) + b.finish()
        #expect(restA == restB)
        prefix += restA
        #expect(try inflate(prefix, format: .zlib) == data)
    }

    @Test("Gzip helpers round trip and write a plain header")
    func gzipHelpers() throws {
        let data = Array("KeePass\n".utf8)
        let gz = Gzip.compress(data)
        #expect(Array(gz.prefix(4)) == [0x1F, 0x8B, 8, 0])
        #expect(try Gzip.decompress(gz) == data)
    }
}
