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

    /// Lengths of a complete prefix code over `count` symbols (`count` ≥ 2): with k = ⌈log2 count⌉,
    /// 2^k − count codes of k − 1 bits and the rest of k bits.
    static func completeLengths(_ count: Int) -> [Int] {
        var k = 1
        while 1 << k < count { k += 1 }
        let short = (1 << k) - count
        return (0..<count).map { $0 < short ? k - 1 : k }
    }

    /// Canonical codes (RFC 1951 §3.2.2) for `lengths`.
    static func canonicalCodes(_ lengths: [Int]) -> [Int] {
        var counts = [Int](repeating: 0, count: 16)
        for l in lengths where l > 0 { counts[l] += 1 }
        var next = [Int](repeating: 0, count: 16)
        var code = 0
        for bits in 1..<16 {
            code = (code + counts[bits - 1]) << 1
            next[bits] = code
        }
        return lengths.map { l in
            guard l > 0 else { return 0 }
            defer { next[l] += 1 }
            return next[l]
        }
    }

    @Test("Dynamic headers with HCLEN 4...19: every prefix of the permuted code length order carries lengths",
          arguments: 4...19)
    func codeLengthOrder(_ hclen: Int) throws {
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        let used = Array(order.prefix(hclen))
        var clLengths = [Int](repeating: 0, count: 19)
        for (symbol, length) in zip(used, Self.completeLengths(hclen)) { clLengths[symbol] = length }
        let clCodes = Self.canonicalCodes(clLengths)
        var b = TestBits()
        b.dynamicHeader(hlit: 257, hdist: 1, codeLengthLengths: Dictionary(uniqueKeysWithValues: used.map { ($0, clLengths[$0]) }))
        func send(_ symbol: Int) { b.code(clCodes[symbol], clLengths[symbol]) }
        if hclen == 4 {
            // Only 0, 16, 17, 18 exist: every length is zero, so end-of-block has no code.
            send(18); b.put(138 - 11, 7); send(18); b.put(119 - 11, 7); send(0)
            #expect(throws: CompressionError(.invalidCodeLengths)) { try inflate(b.finished, format: .raw) }
            return
        }
        // Literals 0...254 and end-of-block with 8 bits (256 codes: complete), literal 255 none,
        // no distance codes: 8, 42 × (16, repeat 6), 8, 8, 0, 8, 0.
        send(8)
        for _ in 0..<42 { send(16); b.put(3, 2) }
        send(8); send(8); send(0); send(8); send(0)
        let text = Array("Hello, HCLEN \(hclen)".utf8)
        for byte in text { b.code(Int(byte), 8) }  // canonical: literal n has code n
        b.code(255, 8)                              // end-of-block is the 256th code
        #expect(try inflate(b.finished, format: .raw) == text)
        #expect(try inflate(randomSplits(b.finished, seed: UInt64(hclen), maxPiece: 2), format: .raw) == text)
    }
}
