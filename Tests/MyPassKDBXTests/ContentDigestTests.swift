import MyPassBytes
import MyPassCrypto
import MyPassKDBX
import MyPassTestSupport
import Testing

/// The digest a save's check compares: what the writer hashes while it serializes equals what the
/// reader hashes while it decrypts and inflates, and both equal the BLAKE2b-256 of the content that
/// the staged reader decrypts and inflates on its own (an independent path to the same bytes).
@Suite("Content digests of the save and its check")
struct ContentDigestTests {
    static let names = ["kdbx31-aes-aeskdf", "kdbx31-aes-aeskdf-nocomp", "AesChaCha", "kdbx4-chacha20-aeskdf",
                        "kdbx4_example-twofish", "kdbx4_example-nocompression"]
    static let fixtures: [Fixture] = FixtureCatalog.quick.filter { fixture in
        names.contains { fixture.name.hasSuffix("/" + $0) }
    }

    @Test(arguments: fixtures)
    func theWritersDigestIsTheDigestOfTheDecryptedContent(_ fixture: Fixture) throws {
        let key = try fixture.compositeKey()
        let vault = try KDBXCodec.open(try fixture.fileBytes, key: key)
        let writer = KDBXWriter(vault: vault, options: KDBXSaveOptions())
        let plan = try writer.prepare()
        let keys = try writer.deriveKeys(plan, key: key)
        var sink = KDBXArraySink()
        let written = try writer.write(plan, keys: keys, to: &sink)
        #expect(written.count == 32)

        let reader = try KDBXReader(file: sink.bytes)
        let readKeys = try reader.deriveKeys(key)
        let content = try reader.decompress(try reader.decryptPayload(keys: readKeys))
        #expect(written == BLAKE2b.hash(content, outputByteCount: 32), "\(fixture.name)")
        #expect(try reader.contentDigest(keys: readKeys) == written, "\(fixture.name)")
        // The content starts as the version says: the inner header (4.x: field 1, the stream id)
        // or the XML declaration (3.x).
        if plan.version.isKDBX4 {
            #expect(content.first == 0x01)
        } else {
            #expect(content.starts(with: Array("<?xml".utf8)))
        }
    }

    @Test(arguments: fixtures)
    func aDamagedPayloadFailsTheDigestRead(_ fixture: Fixture) throws {
        let key = try fixture.compositeKey()
        let vault = try KDBXCodec.open(try fixture.fileBytes, key: key)
        let writer = KDBXWriter(vault: vault, options: KDBXSaveOptions())
        let plan = try writer.prepare()
        let keys = try writer.deriveKeys(plan, key: key)
        var sink = KDBXArraySink()
        try writer.write(plan, keys: keys, to: &sink)
        let payloadOffset = try KDBXReader(file: sink.bytes).payloadOffset
        for position in [payloadOffset, (payloadOffset + sink.bytes.count) / 2, sink.bytes.count - 1] {
            var damaged = sink.bytes
            damaged[position] ^= 0x20
            let reader = try KDBXReader(file: damaged)
            #expect(throws: KDBXError.self, "\(fixture.name) at byte \(position)") { try reader.contentDigest(keys: keys) }
        }
    }
}
