import MyPassBytes
import MyPassCompression
import MyPassCrypto
import MyPassKDBX
import MyPassTestSupport
import Testing

/// Files assembled from the codec's public pieces with a chosen payload, so that damage behind a
/// proven key (gzip, XML, Meta/HeaderHash, inner header) can be tested.
@Suite("Corruption behind a proven key: gzip, XML, inner header, Meta/HeaderHash")
struct CorruptionPayloadTests {
    static let key = try! CompositeKey(password: "pw", keyFileContents: nil)

    /// A header for `version` with AES-256, AES-KDF (10 rounds) and the given compression.
    static func header(_ version: KDBXVersion, _ compression: PayloadCompression) -> KDBXHeader {
        KDBXHeader(
            version: version, cipher: .aes256, compression: compression, masterSeed: SecureRandom.bytes(count: 32),
            encryptionIV: SecureRandom.bytes(count: 16), kdf: KDFParameters.fresh(.aes(rounds: 10)),
            innerStreamAlgorithm: version.isKDBX4 ? nil : .salsa20,
            innerStreamKey: version.isKDBX4 ? nil : SecureBytes(SecureRandom.bytes(count: 32)),
            streamStartBytes: version.isKDBX4 ? nil : SecureRandom.bytes(count: 32))
    }

    /// Encrypts and frames `payload` (the bytes after decryption: compressed or not per the header).
    static func assemble(_ header: inout KDBXHeader, payload: [UInt8]) throws -> [UInt8] {
        let headerBytes = try header.serialized()
        let keys = try MasterKeys(compositeKey: key, masterSeed: header.masterSeed, kdf: header.kdf, limits: KDBXLimits())
        var file = headerBytes
        if header.version.isKDBX4 {
            file += SHA256.hash(headerBytes)
            file += HMACBlockStream.headerHMAC(header: headerBytes, hmacKey: keys.hmacKey)
            let ciphertext = try AESCBC.encrypt(payload, key: keys.cipherKey.unsafeArray, iv: header.encryptionIV)
            file += HMACBlockStream.write(ciphertext, hmacKey: keys.hmacKey)
        } else {
            let plain = header.streamStartBytes! + HashedBlockStream.write(payload)
            file += try AESCBC.encrypt(plain, key: keys.cipherKey.unsafeArray, iv: header.encryptionIV)
        }
        return file
    }

    static func innerHeader(_ algorithm: InnerStreamAlgorithm = .chacha20) -> [UInt8] {
        InnerHeader(streamAlgorithm: algorithm, streamKey: SecureBytes(SecureRandom.bytes(count: 64)), binaries: []).serialized()
    }

    static let vault = Vault.new(name: "Assembled", now: .minimum, format: VaultFormat(version: .v3_1, kdf: .aes(rounds: 10)))

    @Test("KDBX 4: a well-formed assembled file opens (the harness itself is right)")
    func wellFormed() throws {
        var header = Self.header(.v4_0, .gzip)
        var stream = try InnerRandomStream(algorithm: .chacha20, key: [1, 2, 3])
        let xml = VaultXMLWriter.write(Self.vault, version: .v4_0, stream: &stream, binaryPool: BinaryPool())
        let inner = InnerHeader(streamAlgorithm: .chacha20, streamKey: SecureBytes([1, 2, 3]), binaries: []).serialized()
        let file = try Self.assemble(&header, payload: Gzip.compress(inner + xml))
        let opened = try KDBXCodec.open(file, key: Self.key)
        #expect(opened.root.name == "Assembled")
    }

    @Test("KDBX 4: payload that is not gzip, truncated gzip, or malformed XML: corrupted")
    func badContent() throws {
        var header = Self.header(.v4_0, .gzip)
        let notGzip = try Self.assemble(&header, payload: Self.innerHeader() + Array("<KeePassFile>".utf8))
        #expect(throws: KDBXError(.corruptedFile)) { try KDBXCodec.open(notGzip, key: Self.key) }
        let gz = Gzip.compress(Self.innerHeader() + Array("<KeePassFile><Meta></Meta><Root></Root></KeePassFile>".utf8))
        var header2 = Self.header(.v4_0, .gzip)
        let truncated = try Self.assemble(&header2, payload: Array(gz.dropLast(6)))
        #expect(throws: KDBXError(.corruptedFile)) { try KDBXCodec.open(truncated, key: Self.key) }
        var header3 = Self.header(.v4_0, .none)
        let badXML = try Self.assemble(&header3, payload: Self.innerHeader() + Array("<KeePassFile><Meta></Root>".utf8))
        #expect(throws: KDBXError(.corruptedFile)) { try KDBXCodec.open(badXML, key: Self.key) }
        var header4 = Self.header(.v4_0, .none)
        let noInner = try Self.assemble(&header4, payload: [1, 4, 0])
        #expect(throws: KDBXError(.corruptedFile)) { try KDBXCodec.open(noInner, key: Self.key) }
    }

    @Test("KDBX 4: the ArcFourVariant inner stream is unsupported; a gzip bomb stops at the limit")
    func innerStreamAndBomb() throws {
        var header = Self.header(.v4_0, .none)
        let arcFour = try Self.assemble(&header, payload: Self.innerHeader(.arcFourVariant) + Array("<KeePassFile/>".utf8))
        #expect(throws: KDBXError(.unsupported)) { try KDBXCodec.open(arcFour, key: Self.key) }
        var header2 = Self.header(.v4_0, .gzip)
        let bomb = try Self.assemble(&header2, payload: Gzip.compress(Self.innerHeader() + [UInt8](repeating: 0x20, count: 4 << 20)))
        #expect(throws: KDBXError(.limitExceeded)) {
            try KDBXCodec.open(bomb, key: Self.key, limits: KDBXLimits(maxDecompressedBytes: 1 << 20))
        }
    }

    @Test("KDBX 3.1: Meta/HeaderHash is checked: right hash opens, wrong hash is corrupted")
    func headerHash() throws {
        for right in [true, false] {
            var header = Self.header(.v3_1, .gzip)
            let headerBytes = try header.serialized()
            var hash = SHA256.hash(headerBytes)
            if !right { hash[0] ^= 1 }
            var stream = try InnerRandomStream(algorithm: .salsa20, key: header.innerStreamKey!.unsafeArray)
            let xml = VaultXMLWriter.write(Self.vault, version: .v3_1, headerHash: hash, stream: &stream)
            let file = try Self.assemble(&header, payload: Gzip.compress(xml))
            if right {
                #expect(try KDBXCodec.open(file, key: Self.key).root.name == "Assembled")
            } else {
                #expect(throws: KDBXError(.corruptedFile)) { try KDBXCodec.open(file, key: Self.key) }
            }
        }
    }
}
