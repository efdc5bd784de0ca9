import MyPassBytes
import MyPassKDBX
import MyPassTestSupport
import Testing

/// One outer header field's place in a file.
struct FieldSpan {
    var id: UInt8
    /// Offset of the id byte.
    var start: Int
    /// Offset of the first data byte.
    var dataStart: Int
    /// Offset after the data.
    var end: Int
}

/// Walks the outer header's TLV fields (test-side, independent of the codec's parser).
func headerSpans(_ file: [UInt8]) -> [FieldSpan] {
    let isKDBX4 = file[10] >= 4
    var spans: [FieldSpan] = []
    var offset = 12
    while true {
        let id = file[offset]
        let lengthBytes = isKDBX4 ? 4 : 2
        var length = 0
        for i in 0..<lengthBytes { length |= Int(file[offset + 1 + i]) << (8 * i) }
        let span = FieldSpan(id: id, start: offset, dataStart: offset + 1 + lengthBytes, end: offset + 1 + lengthBytes + length)
        spans.append(span)
        offset = span.end
        if id == 0 { return spans }
    }
}

/// A small deterministic generator for sampling positions.
struct XorShift {
    var state: UInt64
    mutating func next(below bound: Int) -> Int {
        state ^= state << 13; state ^= state >> 7; state ^= state << 17
        return Int(state % UInt64(bound))
    }
}

@Suite("Corruption: truncation and bit flips give the right error class, quickly, never a crash")
struct CorruptionTests {
    static let fixtures: [Fixture] = [
        FixtureCatalog.keepass.first { $0.name.hasSuffix("kdbx31-aes-aeskdf-nocomp") }!,
        FixtureCatalog.keepassRS.first { $0.name.hasSuffix("test_db_with_keyfile") }!,
        FixtureCatalog.keepassRS.first { $0.name.hasSuffix("test_db_few_rounds") }!,
        FixtureCatalog.keepass.first { $0.name.hasSuffix("kdbx4-chacha20-aeskdf") }!,
        FixtureCatalog.keepassRS.first { $0.name.hasSuffix("argon2_twofish") }!,
    ]

    /// KDF costs a flipped bit may not push beyond (so that every case finishes fast).
    static let limits = KDBXLimits(maxArgon2MemoryBytes: 8 << 20, maxArgon2Iterations: 8, maxAESKDFRounds: 100_000)

    /// Opens `file`; returns the error code, checking that it took under a second in release builds.
    static func openCode(_ file: [UInt8], _ key: CompositeKey, _ what: String) -> KDBXError.Code? {
        let clock = ContinuousClock()
        let start = clock.now
        defer {
            if !_isDebugAssertConfiguration() {
                #expect(clock.now - start < .seconds(1), "\(what) took too long")
            }
        }
        do {
            _ = try KDBXCodec.open(file, key: key, limits: limits)
            return nil
        } catch {
            #expect(!error.description.contains("correct horse"))
            return error.code
        }
    }

    @Test("truncation at each header field boundary and at random points is a corrupted file", arguments: fixtures)
    func truncation(_ fixture: Fixture) throws {
        let file = try fixture.fileBytes
        let key = try fixture.compositeKey()
        let spans = headerSpans(file)
        var cuts = Set<Int>([4, 8, 11, 12])
        for span in spans {
            for cut in [span.start, span.start + 1, span.dataStart, span.dataStart + 1, span.end - 1] where cut > 0 { cuts.insert(cut) }
        }
        let headerEnd = spans.last!.end
        for extra in [0, 1, 16, 31, 32, 33, 63, 64, 65, 100] { cuts.insert(headerEnd + extra) }
        var random = XorShift(state: 0x9E37_79B9_7F4A_7C15)
        for _ in 0..<25 { cuts.insert(headerEnd + random.next(below: file.count - headerEnd)) }
        cuts.insert(file.count - 1)
        for cut in cuts.sorted() where cut < file.count {
            let code = Self.openCode(Array(file[0..<cut]), key, "\(fixture.name) cut at \(cut)")
            #expect(code == .corruptedFile, "\(fixture.name) cut at \(cut): \(String(describing: code))")
        }
        // Cut inside the first signature: not a KeePass file.
        #expect(Self.openCode(Array(file[0..<3]), key, "3 bytes") == .unsupported)
    }

    @Test("bit flips in the header, the header hash and HMAC, the blocks, the ciphertext and the padding", arguments: fixtures)
    func bitFlips(_ fixture: Fixture) throws {
        let file = try fixture.fileBytes
        let key = try fixture.compositeKey()
        let spans = headerSpans(file)
        let headerEnd = spans.last!.end
        let isKDBX4 = file[10] >= 4
        var random = XorShift(state: 0xDEAD_BEEF_1234_5678)
        func flipped(_ position: Int) -> [UInt8] {
            var copy = file
            copy[position] ^= UInt8(1) << UInt8(random.next(below: 8))
            return copy
        }
        func check(_ position: Int, _ allowed: Set<KDBXError.Code>, _ region: String) {
            let code = Self.openCode(flipped(position), key, "\(fixture.name) \(region) flip at \(position)")
            #expect(code.map { allowed.contains($0) } == true,
                    "\(fixture.name): \(region) flip at \(position) gave \(String(describing: code)), expected one of \(allowed)")
        }
        for position in 0..<8 { check(position, [.unsupported], "signature") }
        for position in 8..<12 { check(position, [.unsupported, .corruptedFile, .wrongKey], "version") }
        for span in spans {
            for position in span.start..<span.dataStart { check(position, [.corruptedFile, .unsupported, .wrongKey], "field \(span.id) id/length") }
            var dataPositions = Array(span.dataStart..<span.end)
            if dataPositions.count > 12 { dataPositions = (0..<12).map { _ in dataPositions[random.next(below: dataPositions.count)] } }
            for position in dataPositions {
                if isKDBX4 {
                    check(position, [.corruptedFile], "header field \(span.id)")
                } else {
                    switch span.id {
                    case 4, 5, 7, 9: check(position, [.wrongKey], "header field \(span.id)")
                    case 6: check(position, [.wrongKey, .limitExceeded], "header field 6")
                    case 8: check(position, [.corruptedFile], "header field 8")
                    case 2, 3, 10: check(position, [.unsupported, .corruptedFile], "header field \(span.id)")
                    default: check(position, [.corruptedFile, .unsupported, .wrongKey], "header field \(span.id)")
                    }
                }
            }
        }
        var payloadStart = headerEnd
        if isKDBX4 {
            for _ in 0..<8 { check(headerEnd + random.next(below: 32), [.corruptedFile], "header hash") }
            for _ in 0..<8 { check(headerEnd + 32 + random.next(below: 32), [.wrongKey], "header HMAC") }
            payloadStart += 64
            for _ in 0..<40 { check(payloadStart + random.next(below: file.count - payloadStart), [.corruptedFile], "HMAC block stream") }
            for offset in 1...36 { check(file.count - offset, [.corruptedFile], "final block") }
        } else {
            for _ in 0..<8 { check(payloadStart + random.next(below: 32), [.wrongKey], "start bytes") }
            for _ in 0..<40 { check(payloadStart + 32 + random.next(below: file.count - payloadStart - 32), [.corruptedFile], "ciphertext") }
            for offset in 1...32 { check(file.count - offset, [.corruptedFile], "padding") }
        }
    }
}
