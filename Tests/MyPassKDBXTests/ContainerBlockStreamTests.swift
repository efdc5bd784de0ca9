import MyPassBytes
import MyPassCrypto
import MyPassKDBX
import MyPassTestSupport
import Testing

@Suite("Container: HMAC block stream, hashed block stream, inner header")
struct ContainerBlockStreamTests {
    static let hmacKey = SecureBytes((0..<64).map { UInt8($0) })

    @Test("HMAC block stream: framing, per-block keys, final empty block, round trip")
    func hmacRoundTrip() throws {
        let data = (0..<2500).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let framed = HMACBlockStream.write(data, hmacKey: Self.hmacKey, blockByteCount: 1000)
        // 3 data blocks (1000, 1000, 500) plus the empty block, 36 bytes of framing each.
        #expect(framed.count == data.count + 4 * 36)
        // Block 0: HMAC-SHA-256 keyed with SHA-512(LE64(0) || key) over LE64(0) || LE32(1000) || data.
        let key0 = SHA512.hash([UInt8](repeating: 0, count: 8) + Self.hmacKey.unsafeArray)
        #expect(HMACBlockStream.blockKey(index: 0, hmacKey: Self.hmacKey) == key0)
        let mac0 = HMAC<SHA256>.authenticationCode(for: [UInt8](repeating: 0, count: 8) + [0xE8, 0x03, 0, 0] + Array(data[0..<1000]), key: key0)
        #expect(Array(framed[0..<32]) == mac0)
        #expect(Array(framed[32..<36]) == [0xE8, 0x03, 0x00, 0x00])
        // The last block is empty and carries its HMAC.
        #expect(Array(framed.suffix(4)) == [0, 0, 0, 0])
        #expect(try HMACBlockStream.read(framed[...], hmacKey: Self.hmacKey) == data)
        #expect(try HMACBlockStream.read(offsetSlice(framed), hmacKey: Self.hmacKey) == data)
        // The streaming writer gives the same bytes for any way of feeding it.
        var writer = HMACBlockStream.Writer(hmacKey: Self.hmacKey, blockByteCount: 1000)
        var out = [UInt8]()
        for piece in randomSplits(data, seed: 7, maxPiece: 700) { writer.write(piece, into: &out) }
        writer.finish(into: &out)
        #expect(out == framed)
        // Empty data: only the final block.
        #expect(HMACBlockStream.write([], hmacKey: Self.hmacKey).count == 36)
    }

    @Test("HMAC block stream: any flipped bit, a wrong key, truncation, reordering: corrupted")
    func hmacTamper() throws {
        let data = (0..<300).map { UInt8(truncatingIfNeeded: $0) }
        let framed = HMACBlockStream.write(data, hmacKey: Self.hmacKey, blockByteCount: 100)
        for position in stride(from: 0, to: framed.count, by: 3) {
            var damaged = framed
            damaged[position] ^= 0x01
            #expect(throws: KDBXError.self) { try HMACBlockStream.read(damaged[...], hmacKey: Self.hmacKey) }
        }
        for cut in stride(from: 0, to: framed.count, by: 5) {
            #expect(throws: KDBXError(.corruptedFile)) { try HMACBlockStream.read(framed[0..<cut], hmacKey: Self.hmacKey) }
        }
        let otherKey = SecureBytes([UInt8](repeating: 9, count: 64))
        #expect(throws: KDBXError(.corruptedFile)) { try HMACBlockStream.read(framed[...], hmacKey: otherKey) }
        // Swap blocks 0 and 1 (same size): the index in the MAC catches it.
        let swapped = Array(framed[136..<272]) + Array(framed[0..<136]) + Array(framed[272...])
        #expect(throws: KDBXError(.corruptedFile)) { try HMACBlockStream.read(swapped[...], hmacKey: Self.hmacKey) }
        #expect(throws: KDBXError(.limitExceeded)) {
            try HMACBlockStream.read(framed[...], hmacKey: Self.hmacKey, limits: KDBXLimits(maxBlockBytes: 50))
        }
    }

    @Test("hashed block stream: layout, round trip, chunked reading")
    func hashedRoundTrip() throws {
        let data = (0..<2500).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let framed = HashedBlockStream.write(data, blockByteCount: 1000)
        #expect(framed.count == data.count + 4 * 40)
        #expect(Array(framed[0..<4]) == [0, 0, 0, 0])
        #expect(Array(framed[4..<36]) == SHA256.hash(Array(data[0..<1000])))
        #expect(Array(framed.suffix(40)) == [3, 0, 0, 0] + [UInt8](repeating: 0, count: 36))
        #expect(try HashedBlockStream.read(framed) == data)
        for seed in 1...5 as ClosedRange<UInt64> {
            var reader = HashedBlockStream.Reader(limits: KDBXLimits())
            var out = [UInt8]()
            for piece in randomSplits(framed, seed: seed, maxPiece: 333) { out += try reader.feed(piece) }
            out += try reader.finish()
            #expect(out == data)
        }
        #expect(try HashedBlockStream.read(HashedBlockStream.write([])) == [])
    }

    @Test("hashed block stream: flipped bits and truncation are corrupted")
    func hashedTamper() throws {
        let data = (0..<300).map { UInt8(truncatingIfNeeded: $0) }
        let framed = HashedBlockStream.write(data, blockByteCount: 100)
        for position in 0..<framed.count {
            var damaged = framed
            damaged[position] ^= 0x80
            #expect(throws: KDBXError.self) { try HashedBlockStream.read(damaged) }
        }
        for cut in 0..<framed.count {
            #expect(throws: KDBXError(.corruptedFile)) { try HashedBlockStream.read(Array(framed[0..<cut])) }
        }
    }

    @Test("inner header: round trip with binaries and flags, chunked, unknown fields skipped")
    func innerHeader() throws {
        let header = InnerHeader(
            streamAlgorithm: .chacha20, streamKey: SecureBytes([UInt8](repeating: 0x42, count: 64)),
            binaries: [BinaryPoolItem(data: Array("hello".utf8), isProtected: true),
                       BinaryPoolItem(data: [], isProtected: false)])
        // Printing the header never shows the stream key (0x42 ... would print as "66, 66").
        #expect("\(header)" == "InnerHeader(chacha20, key: 64 bytes, binaries: 2)")
        #expect(!String(reflecting: header).contains("66"))
        let bytes = header.serialized()
        // Field 1: id 1, size 4, value 3.
        #expect(Array(bytes[0..<9]) == [1, 4, 0, 0, 0, 3, 0, 0, 0])
        let xml = Array("<KeePassFile/>".utf8)
        for seed in 1...4 as ClosedRange<UInt64> {
            var parser = InnerHeader.Parser(limits: KDBXLimits())
            var rest: [UInt8] = []
            var done = false
            for piece in randomSplits(bytes + xml, seed: seed, maxPiece: 7) {
                if done { rest += piece; continue }
                if let tail = try parser.feed(piece) { rest += tail; done = true }
            }
            #expect(rest == xml)
            #expect(parser.header?.binaries == header.binaries)
            #expect(parser.header?.streamKey == header.streamKey)
            #expect(parser.header?.streamAlgorithm == .chacha20)
        }
        // An unknown field id (9) before End is skipped.
        var withUnknown = Array(bytes.dropLast(5))
        withUnknown += [9, 2, 0, 0, 0, 0xAA, 0xBB, 0, 0, 0, 0, 0]
        var parser = InnerHeader.Parser(limits: KDBXLimits())
        #expect(try parser.feed(withUnknown[...]) != nil)
        #expect(parser.header?.binaries.count == 2)
        // Missing stream id -> corrupted; negative size -> corrupted.
        var noStream = InnerHeader.Parser(limits: KDBXLimits())
        #expect(throws: KDBXError(.corruptedFile)) { try noStream.feed([0, 0, 0, 0, 0][...]) }
        var negative = InnerHeader.Parser(limits: KDBXLimits())
        #expect(throws: KDBXError(.corruptedFile)) { try negative.feed([3, 0xFF, 0xFF, 0xFF, 0xFF][...]) }
        var tooBig = InnerHeader.Parser(limits: KDBXLimits(maxBinaryBytes: 2))
        #expect(throws: KDBXError(.limitExceeded)) { try tooBig.feed(bytes[...]) }
    }
}
