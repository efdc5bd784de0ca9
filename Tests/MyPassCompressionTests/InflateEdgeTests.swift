import MyPassCompression
import MyPassTestSupport
import Testing

@Suite("Inflate: hand-built edge streams")
struct InflateEdgeTests {
    @Test("Edge streams (empty, one byte, 258-byte matches, distance 32768, all 286/30 codes, code length runs)")
    func edgeStreams() throws {
        let manifest = try edgeManifest()
        #expect(manifest.count == 6)
        for entry in manifest {
            let stream = try TestVectors.bytes("compression/\(entry.name).raw")
            let whole = try inflate(stream, format: .raw)
            #expect(whole.count == entry.size, "\(entry.name)")
            #expect(CRC32.checksum(whole) == entry.crc, "\(entry.name)")
            let pieces = try inflate(randomSplits(stream, seed: 5, maxPiece: 4), format: .raw)
            #expect(pieces == whole, "\(entry.name)")
        }
    }

    @Test("Distance 32768 copies the first 258 bytes of the output")
    func distance32768() throws {
        let out = try inflate(try TestVectors.bytes("compression/edge-distance-32768.raw"), format: .raw)
        #expect(out.count == 32768 + 258 + 3)
        #expect(Array(out[32768..<(32768 + 258)]) == Array(out[0..<258]))
        #expect(Array(out[(32768 + 258)...]) == Array(out[258..<261]))
        #expect(out[300] == 0 && out[0] != 0)
    }

    /// A stored block: BFINAL/BTYPE=00 in 3 bits, pad to a byte, LEN, NLEN, data (RFC 1951 §3.2.4).
    func storedBlock(_ data: [UInt8], final: Bool) -> [UInt8] {
        let len = UInt16(data.count)
        return [final ? 1 : 0, UInt8(len & 0xFF), UInt8(len >> 8), UInt8(~len & 0xFF), UInt8(~len >> 8)] + data
    }

    @Test("64 KiB stored blocks, an empty stored block, and a stored block after a fixed one")
    func storedBlocks() throws {
        let a = pseudoRandomBytes(65535, seed: 11)
        let b = pseudoRandomBytes(65535, seed: 12)
        let stream = storedBlock(a, final: false) + storedBlock([], final: false) + storedBlock(b, final: true)
        #expect(try inflate(stream, format: .raw) == a + b)
        #expect(try inflate(randomSplits(stream, seed: 3, maxPiece: 9000), format: .raw) == a + b)
        // Python zlib with Z_SYNC_FLUSH / Z_FULL_FLUSH between pieces: empty stored blocks that
        // start mid-byte after Huffman blocks, and Huffman blocks that start after stored ones.
        let flushed = try TestVectors.bytes("compression/gpl-3.txt.flushes.raw")
        let gpl = try TestVectors.bytes("compression/gpl-3.txt")
        let random = try TestVectors.bytes("compression/random-20000.bin")
        let expected = Array(gpl[0..<5000] + random[0..<2000] + gpl[7000..<12000])
        #expect(try inflate(flushed, format: .raw) == expected)
        #expect(try inflate(randomSplits(flushed, seed: 4, maxPiece: 13), format: .raw) == expected)
    }
}
