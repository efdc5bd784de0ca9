import MyPassCompression
import MyPassTestSupport
import Testing

@Suite("Inflate: hostile and corrupted input")
struct InflateErrorTests {
    func expectError(_ code: CompressionError.Code, _ data: [UInt8], _ format: CompressionFormat = .raw,
                     sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(throws: CompressionError(code), sourceLocation: sourceLocation) { try inflate(data, format: format) }
        // The same verdict when the input comes in small pieces.
        #expect(throws: CompressionError(code), sourceLocation: sourceLocation) {
            try inflate(randomSplits(data, seed: 77, maxPiece: 3), format: format)
        }
    }

    @Test("Block type 3 is rejected")
    func invalidBlockType() {
        expectError(.invalidBlockType, [0x07])
        // after a valid non-final fixed block holding 'A'
        var bits = TestBits()
        bits.put(0, 1); bits.put(1, 2); bits.fixedLitLen(0x41); bits.fixedLitLen(256)
        bits.put(1, 1); bits.put(3, 2)
        expectError(.invalidBlockType, bits.finished)
    }

    @Test("Invalid code lengths: HLIT > 286, HDIST > 30, repeat with no previous, runs past the end, no end-of-block")
    func invalidCodeLengths() {
        var b = TestBits()
        b.dynamicHeader(hlit: 287, hdist: 1, codeLengthLengths: [16: 1, 17: 1])
        expectError(.invalidCodeLengths, b.finished)
        b = TestBits()
        b.dynamicHeader(hlit: 257, hdist: 31, codeLengthLengths: [16: 1, 17: 1])
        expectError(.invalidCodeLengths, b.finished)
        // code length code: 16 → '0', 17 → '1'; the first code is 16 (repeat previous)
        b = TestBits()
        b.dynamicHeader(hlit: 257, hdist: 1, codeLengthLengths: [16: 1, 17: 1])
        b.code(0, 1); b.put(0, 2)
        expectError(.invalidCodeLengths, b.finished)
        // code length code: 17 → '0', 18 → '1'; 138 + 138 zeros > 258 lengths
        b = TestBits()
        b.dynamicHeader(hlit: 257, hdist: 1, codeLengthLengths: [17: 1, 18: 1])
        b.code(1, 1); b.put(127, 7); b.code(1, 1); b.put(127, 7)
        expectError(.invalidCodeLengths, b.finished)
        // 258 zero lengths: no code for end-of-block
        b = TestBits()
        b.dynamicHeader(hlit: 257, hdist: 1, codeLengthLengths: [17: 1, 18: 1])
        b.code(1, 1); b.put(127, 7); b.code(1, 1); b.put(117 - 11, 7); b.code(0, 1); b.put(0, 3)
        expectError(.invalidCodeLengths, b.finished)
    }

    @Test("Over-subscribed and incomplete Huffman codes, and the reserved literal/length codes 286/287")
    func invalidTrees() {
        // code length code over-subscribed: three codes of one bit
        var b = TestBits()
        b.dynamicHeader(hlit: 257, hdist: 1, codeLengthLengths: [16: 1, 17: 1, 18: 1])
        expectError(.invalidHuffmanTree, b.finished)
        // code length code incomplete: a single code
        b = TestBits()
        b.dynamicHeader(hlit: 257, hdist: 1, codeLengthLengths: [18: 1])
        expectError(.invalidHuffmanTree, b.finished)
        // literal/length code incomplete: symbols 0 and 256 with 2 bits each (Kraft sum 1/2)
        // code length code: 2 → '0', 18 → '1'
        b = TestBits()
        b.dynamicHeader(hlit: 257, hdist: 1, codeLengthLengths: [2: 1, 18: 1])
        b.code(0, 1); b.code(1, 1); b.put(138 - 11, 7); b.code(1, 1); b.put(117 - 11, 7); b.code(0, 1); b.code(0, 1)
        expectError(.invalidHuffmanTree, b.finished)
        // literal/length code over-subscribed: 258 codes of 8 bits
        // code length code: 8 → '0', 16 → '1'
        b = TestBits()
        b.dynamicHeader(hlit: 258, hdist: 1, codeLengthLengths: [8: 1, 16: 1])
        b.code(0, 1)
        for _ in 0..<42 { b.code(1, 1); b.put(3, 2) }  // 1 + 42 × 6 = 253
        for _ in 0..<5 { b.code(0, 1) }               // 258
        b.code(0, 1)                                 // distance code length 8
        expectError(.invalidHuffmanTree, b.finished)
        // fixed block decoding symbol 286
        b = TestBits()
        b.put(1, 1); b.put(1, 2); b.fixedLitLen(286)
        expectError(.invalidHuffmanTree, b.finished)
    }

    @Test("Distance codes 30/31 and distances before the start of the output")
    func invalidDistances() {
        var b = TestBits()
        b.put(1, 1); b.put(1, 2); b.fixedLitLen(0x61); b.fixedLitLen(257); b.code(30, 5); b.fixedLitLen(256)
        expectError(.invalidDistance, b.finished)
        b = TestBits()
        b.put(1, 1); b.put(1, 2); b.fixedLitLen(0x61); b.fixedLitLen(257); b.code(1, 5); b.fixedLitLen(256)
        expectError(.invalidDistance, b.finished)  // distance 2 after one byte
        b = TestBits()
        b.put(1, 1); b.put(1, 2); b.fixedLitLen(257); b.code(0, 5); b.fixedLitLen(256)
        expectError(.invalidDistance, b.finished)  // distance 1 with no output
        // A second gzip member may not reach back into the first one's output.
        let first = Gzip.compress(Array("abc".utf8))
        var second: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 255]
        b = TestBits()
        b.put(1, 1); b.put(1, 2); b.fixedLitLen(257); b.code(0, 5); b.fixedLitLen(256)
        second += b.finished + [0, 0, 0, 0, 3, 0, 0, 0]
        expectError(.invalidDistance, first + second, .gzip)
    }

    @Test("Stored block with NLEN not the complement of LEN")
    func invalidStoredLength() {
        expectError(.invalidStoredLength, [0x01, 0x03, 0x00, 0xFC, 0xFE, 1, 2, 3])
    }

    @Test("Truncated streams, cut anywhere, in every format", arguments: [
        ("gpl-3.txt.L6.zlib", CompressionFormat.zlib), ("gpl-3.txt.gz", .gzip), ("gpl-3.txt.L9.raw", .raw),
        ("random-20000.bin.L0.zlib", .zlib), ("allflags.txt.gz", .gzip), ("edge-all-codes.raw", .raw),
    ])
    func truncated(_ vector: (String, CompressionFormat)) throws {
        let data = try TestVectors.bytes("compression/" + vector.0)
        var cuts = Array(0..<min(data.count, 48)) + [data.count / 3, data.count / 2, data.count - 9, data.count - 1]
        if vector.1 == .raw { cuts.removeAll { $0 == data.count - 1 } }  // the last byte may be only padding
        for cut in cuts where cut >= 0 && cut < data.count {
            #expect(throws: CompressionError(.truncated), "cut at \(cut)") {
                try inflate(Array(data[..<cut]), format: vector.1)
            }
        }
    }

    @Test("Bad CRC-32, ISIZE, Adler-32 and header CRC-16")
    func checksums() throws {
        var gz = try TestVectors.bytes("compression/gpl-3.txt.gz")
        gz[gz.count - 8] ^= 1
        expectError(.checksumMismatch, gz, .gzip)
        gz = try TestVectors.bytes("compression/gpl-3.txt.gz")
        gz[gz.count - 4] ^= 1
        expectError(.lengthMismatch, gz, .gzip)
        var z = try TestVectors.bytes("compression/gpl-3.txt.L6.zlib")
        z[z.count - 1] ^= 0x80
        expectError(.checksumMismatch, z, .zlib)
        var flags = try TestVectors.bytes("compression/allflags.txt.gz")
        flags[39] ^= 1  // FHCRC: the 2 bytes after the header fields (10 + 2 + 8 + 9 + 10)
        expectError(.checksumMismatch, flags, .gzip)
        // the corruption of the data itself is caught by the CRC even when it still decodes
        var stored = try TestVectors.bytes("compression/random-20000.bin.L0.zlib")
        stored[1000] ^= 0x10
        expectError(.checksumMismatch, stored, .zlib)
    }

    @Test("Invalid gzip and zlib headers")
    func headers() throws {
        let gz = try TestVectors.bytes("compression/gpl-3.txt.gz")
        for (index, value) in [(0, UInt8(0x1E)), (1, 0x8C), (2, 7), (3, 0x20), (3, 0x80)] {
            var bad = gz
            bad[index] = value
            expectError(.invalidHeader, bad, .gzip)
        }
        let z = try TestVectors.bytes("compression/gpl-3.txt.L6.zlib")
        expectError(.invalidHeader, [0x78, 0x9D] + z.dropFirst(2), .zlib)  // FCHECK
        expectError(.invalidHeader, [0x77, 0x85] + z.dropFirst(2), .zlib)  // CM 7
        expectError(.invalidHeader, [0x88, 0x98] + z.dropFirst(2), .zlib)  // CINFO 8
        expectError(.invalidHeader, [0x78, 0xBB] + z.dropFirst(2), .zlib)  // FDICT
        expectError(.invalidHeader, gz, .zlib)
        expectError(.invalidHeader, z, .gzip)
    }

    @Test("Trailing garbage after the stream; a further gzip member is not garbage")
    func trailingGarbage() throws {
        let gz = try TestVectors.bytes("compression/allflags.txt.gz")
        expectError(.trailingGarbage, gz + [0], .gzip)
        expectError(.trailingGarbage, gz + Array("garbage".utf8), .gzip)
        expectError(.trailingGarbage, try TestVectors.bytes("compression/gpl-3.txt.L6.zlib") + [0x78], .zlib)
        expectError(.trailingGarbage, try TestVectors.bytes("compression/edge-one-byte.raw") + [0], .raw)
        expectError(.truncated, gz + [0x1F], .gzip)  // the start of a member that never comes
        // The error says where: the first byte after the member, however the input was split.
        for pieces in [[(gz + [0])[...]], randomSplits(gz + [0], seed: 2, maxPiece: 7)] {
            let error = #expect(throws: CompressionError.self) { try inflate(pieces, format: .gzip) }
            #expect(error?.offset == gz.count)
        }
        let text = try TestVectors.bytes("compression/allflags.txt")
        #expect(try inflate(gz + gz, format: .gzip) == text + text)
    }

    @Test("The output cap stops a decompression bomb early")
    func outputLimit() throws {
        let gz = try TestVectors.bytes("compression/gpl-3.txt.gz")
        #expect(try Gzip.decompress(gz, maxOutputBytes: 35149).count == 35149)
        #expect(throws: CompressionError(.outputLimitExceeded)) { try Gzip.decompress(gz, maxOutputBytes: 35148) }
        // 32 MiB of zeros in a few tens of KiB: the cap ends it after at most one work buffer.
        var deflater = Deflater(format: .gzip, level: 6)
        var bomb: [UInt8] = []
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        for _ in 0..<32 { bomb += deflater.update(zeros) }
        bomb += deflater.finish()
        #expect(bomb.count < 100_000)
        var inflater = Inflater(format: .gzip, maxOutputBytes: 1_000_000)
        var produced = 0
        let error = #expect(throws: CompressionError.self) {
            for piece in randomSplits(bomb, seed: 1, maxPiece: 4096) { produced += try inflater.update(piece).count }
        }
        #expect(error?.code == .outputLimitExceeded)
        #expect(produced <= 1_000_000)
        // After an error the inflater stays failed.
        #expect(throws: CompressionError(.outputLimitExceeded)) { try inflater.finish() }
    }

    @Test("Random corruption never crashes or hangs: each result is the original or a CompressionError")
    func mutations() throws {
        let sources: [(String, CompressionFormat)] = [
            ("allflags.txt.gz", .gzip), ("edge-code-length-runs.raw", .raw), ("edge-all-codes.raw", .raw),
            ("gpl-3.txt.L1.zlib", .zlib),
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(truncatingIfNeeded: state >> 1)
        }
        var failures = 0
        for (name, format) in sources {
            let original = try TestVectors.bytes("compression/" + name)
            for _ in 0..<150 {
                var data = original
                for _ in 0..<(1 + next() % 3) {
                    let i = next() % min(data.count, 600)
                    data[i] ^= UInt8(1 << (next() % 8))
                }
                do {
                    _ = try inflate(data, format: format, maxOutputBytes: 1 << 22)
                } catch {
                    failures += 1
                }
            }
        }
        #expect(failures > 300)  // nearly all of the 600 corruptions are detected
        // Pure noise as input in every format.
        for seed: UInt64 in 1...40 {
            let noise = pseudoRandomBytes(2000, seed: seed)
            for format in [CompressionFormat.raw, .zlib, .gzip] {
                #expect(throws: CompressionError.self) { try inflate(noise, format: format, maxOutputBytes: 1 << 22) }
            }
        }
    }
}
