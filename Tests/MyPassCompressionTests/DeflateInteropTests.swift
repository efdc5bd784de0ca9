import MyPassCompression
import MyPassTestSupport
import Testing

/// Our deflate output read by independent inflaters: Python's zlib and Debian's `gzip -d`.
@Suite("Deflate: zlib and gzip -d accept our output")
struct DeflateInteropTests {
    /// Reads frames `format(1) length(4, big-endian) data` from stdin, inflates each with zlib
    /// (wbits -15 raw, 15 zlib, 31 gzip) and prints `length crc32` of the result per frame, or
    /// `error <message>`.
    static let pythonInflate = """
        import sys, zlib
        data = sys.stdin.buffer.read(); i = 0; out = []
        while i < len(data):
            fmt = data[i]; n = int.from_bytes(data[i+1:i+5], 'big'); frame = data[i+5:i+5+n]; i += 5 + n
            try:
                d = zlib.decompressobj({0: -15, 1: 15, 2: 31}[fmt]); r = d.decompress(frame) + d.flush()
                out.append('%d %08x %d %d' % (len(r), zlib.crc32(r), int(d.eof), len(d.unused_data)))
            except Exception as e:
                out.append('error ' + str(e))
        print('\\n'.join(out))
        """

    @Test("Python zlib inflates every level and format of our output to the original")
    func pythonInflatesOurOutput() throws {
        guard let python = InteropTools.executable(named: "python3") else {
            if let failure = InteropTools.missing("python3", test: "pythonInflatesOurOutput") { Issue.record(Comment(rawValue: failure)) }
            return
        }
        let inputs: [[UInt8]] = [
            [], [7], try TestVectors.bytes("compression/rich-export.xml"), try TestVectors.bytes("compression/gpl-3.txt"),
            try TestVectors.bytes("compression/random-20000.bin"), wordSoup(70_000, seed: 5),
            [UInt8](repeating: 0x61, count: 70_000),
        ]
        var frames: [UInt8] = []
        var expected: [String] = []
        for data in inputs {
            for level in 0...9 {
                for (code, format) in [(0, CompressionFormat.raw), (1, .zlib), (2, .gzip)] {
                    let compressed = Deflater.compress(data[...], format: format, level: level)
                    frames.append(UInt8(code))
                    let n = UInt32(compressed.count)
                    frames += [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
                    frames += compressed
                    let crc = String(CRC32.checksum(data), radix: 16)
                    expected.append("\(data.count) \(String(repeating: "0", count: 8 - crc.count) + crc) 1 0")
                }
            }
        }
        let result = try runProcess(python, ["-c", Self.pythonInflate], stdin: frames)
        #expect(result.status == 0, "\(result.stderrText)")
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.count == expected.count)
        for (k, (line, want)) in zip(lines, expected).enumerated() {
            #expect(line == want, "case \(k)")
        }
    }

    @Test("Debian gzip -d decompresses our gzip output")
    func gzipDecompressesOurOutput() throws {
        guard let gzip = InteropTools.executable(named: "gzip") else {
            if let failure = InteropTools.missing("gzip", test: "gzipDecompressesOurOutput") { Issue.record(Comment(rawValue: failure)) }
            return
        }
        let xml = try TestVectors.bytes("compression/rich-export.xml")
        for level in [0, 1, 6, 9] {
            let result = try runProcess(gzip, ["-dc"], stdin: Gzip.compress(xml, level: level))
            #expect(result.status == 0, "\(result.stderrText)")
            #expect(result.stdout == xml, "level \(level)")
        }
        // gzip -d also accepts two of our members in a row, as we accept its concatenations.
        let two = Gzip.compress(Array("first\n".utf8)) + Gzip.compress(Array("second\n".utf8))
        let result = try runProcess(gzip, ["-dc"], stdin: two)
        #expect(result.stdoutText == "first\nsecond\n")
        #expect(try Gzip.decompress(two) == Array("first\nsecond\n".utf8))
    }

    @Test("Our inflater reads zlib's output for 1.5 MB (window slides, matches across buffer boundaries)")
    func inflateLargeZlibOutput() throws {
        guard let python = InteropTools.executable(named: "python3") else {
            if let failure = InteropTools.missing("python3", test: "inflateLargeZlibOutput") { Issue.record(Comment(rawValue: failure)) }
            return
        }
        let data = wordSoup(1_500_000, seed: 99) + pseudoRandomBytes(100_000, seed: 5) + wordSoup(400_000, seed: 99)
        for (level, wbits, format) in [(1, 15, CompressionFormat.zlib), (6, 31, .gzip), (9, -15, .raw)] {
            let script = "import sys, zlib; c = zlib.compressobj(\(level), zlib.DEFLATED, \(wbits)); "
                + "sys.stdout.buffer.write(c.compress(sys.stdin.buffer.read()) + c.flush())"
            let result = try runProcess(python, ["-c", script], stdin: data)
            #expect(result.status == 0, "\(result.stderrText)")
            #expect(try inflate(result.stdout, format: format) == data, "level \(level)")
            #expect(try inflate(randomSplits(result.stdout, seed: 6, maxPiece: 70_000), format: format) == data)
        }
    }
}
