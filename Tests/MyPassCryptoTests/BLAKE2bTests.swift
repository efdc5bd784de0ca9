import MyPassCrypto
import MyPassTestSupport
import Testing

/// Hashes `message` one-shot (when unkeyed), as an offset slice and in random pieces; all ways must
/// agree. Returns the digest.
func blake2bAllWays(_ message: [UInt8], key: [UInt8] = [], outputByteCount: Int = 64, seed: UInt64) throws -> [UInt8] {
    var whole = try BLAKE2b(outputByteCount: outputByteCount, key: key)
    whole.update(message)
    let digest = whole.finalize()
    if key.isEmpty { #expect(BLAKE2b.hash(message, outputByteCount: outputByteCount) == digest) }
    var slice = try BLAKE2b(outputByteCount: outputByteCount, key: key)
    slice.update(offsetSlice(message))
    #expect(slice.finalize() == digest)
    var pieces = try BLAKE2b(outputByteCount: outputByteCount, key: key)
    for piece in randomSplits(message, seed: seed, maxPiece: 200) { pieces.update(piece) }
    #expect(pieces.finalize() == digest)
    var raw = try BLAKE2b(outputByteCount: outputByteCount, key: key)
    for piece in randomSplits(message, seed: seed &+ 3, maxPiece: 129) { piece.withUnsafeBytes { raw.update($0) } }
    #expect(raw.finalize() == digest)
    #expect(digest.count == outputByteCount)
    return digest
}

@Suite("BLAKE2b against the reference KAT, pyca, pycryptodome and Botan")
struct BLAKE2bTests {
    /// BLAKE2/BLAKE2 `blake2b-kat.txt`: keyed BLAKE2b-512 of 00..(n-1), n = 0..255.
    @Test func referenceKeyedKAT() throws {
        let lines = try TestVectors.text("blake2b/blake2b-kat.txt").split(whereSeparator: \.isNewline)
        var input: [UInt8] = [], key: [UInt8] = []
        var checked = 0
        for line in lines {
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            let value = hexBytes(String(parts[1]))
            switch parts[0] {
            case "in:": input = value
            case "key:": key = value
            case "hash:":
                #expect(try blake2bAllWays(input, key: key, seed: UInt64(checked + 1)) == value, "in length \(input.count)")
                checked += 1
            default: Issue.record("unexpected line \(line)")
            }
        }
        #expect(checked == 256)
    }

    @Test func pycaUnkeyed() throws {
        let records = try responseRecords("blake2b/pyca-blake2b.txt").filter { $0["MD"] != nil }
        #expect(records.count == 7)
        for (index, record) in records.enumerated() {
            let message = Array(record.bytes("Msg").prefix(record.int("Len") / 8))
            #expect(try blake2bAllWays(message, seed: UInt64(index + 1)).hexString == record["MD"]!)
        }
    }

    /// Botan (libsodium-generated) BLAKE2b-256/384/512 of messages of many lengths.
    @Test func botanUnkeyed() throws {
        let records = try responseRecords("blake2b/botan-blake2b.vec").filter { $0["Out"] != nil }
        #expect(records.count == 771)
        for (index, record) in records.enumerated() {
            let bits = Int(record.section.dropFirst("BLAKE2b(".count).dropLast())!
            let digest = try blake2bAllWays(record.bytes("In"), outputByteCount: bits / 8, seed: UInt64(index + 1))
            #expect(digest == record.bytes("Out"), "\(record.section) In length \(record.bytes("In").count)")
        }
    }

    /// pycryptodome tv1: for each digest size d, h(1) = BLAKE2b-d(""), h(x) = BLAKE2b-d(h(x-1) || ... || h(1)),
    /// compare h(100). tv2: the same with BLAKE2b-512 keyed by k bytes of "A".
    @Test func pycryptodomeChains() throws {
        func chain(outputByteCount: Int, key: [UInt8]) throws -> [UInt8] {
            var history: [[UInt8]] = []
            for _ in 1...100 {
                var hasher = try BLAKE2b(outputByteCount: outputByteCount, key: key)
                for previous in history.reversed() { hasher.update(previous) }
                history.append(hasher.finalize())
            }
            return history.last!
        }
        let sizes = try TestVectors.text("blake2b/pycryptodome-blake2b-tv1.txt").split(whereSeparator: \.isNewline)
            .filter { $0.hasPrefix("digest: ") }.map { hexBytes(String($0.dropFirst("digest: ".count))) }
        #expect(sizes.count >= 63)
        for (index, expected) in sizes.enumerated() {
            #expect(expected.count == index + 1)
            #expect(try chain(outputByteCount: index + 1, key: []) == expected, "digest size \(index + 1)")
        }
        let keyed = try TestVectors.text("blake2b/pycryptodome-blake2b-tv2.txt").split(whereSeparator: \.isNewline)
            .filter { $0.hasPrefix("digest(") }
        #expect(keyed.count >= 63)
        for line in keyed {
            let keyLength = Int(line.dropFirst("digest(".count).prefix { $0 != ")" })!
            let expected = hexBytes(String(line.split(separator: " ").last!))
            let key = [UInt8](repeating: 0x41, count: keyLength)
            #expect(try chain(outputByteCount: 64, key: key) == expected, "key length \(keyLength)")
        }
    }

    /// RFC 7693 Appendix A: BLAKE2b-512("abc").
    @Test func rfc7693Example() {
        #expect(
            BLAKE2b.hash(Array("abc".utf8)).hexString
                == "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923")
    }

    @Test func rejectsBadParameters() {
        #expect(throws: CryptoError(.invalidParameter)) { try BLAKE2b(outputByteCount: 0) }
        #expect(throws: CryptoError(.invalidParameter)) { try BLAKE2b(outputByteCount: 65) }
        #expect(throws: CryptoError(.invalidKeySize)) { try BLAKE2b(key: [UInt8](repeating: 1, count: 65)) }
        #expect(throws: Never.self) { try BLAKE2b(outputByteCount: 1, key: [UInt8](repeating: 1, count: 64)) }
    }
}
