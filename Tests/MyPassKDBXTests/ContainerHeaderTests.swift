import MyPassBytes
import MyPassCrypto
import MyPassKDBX
import MyPassTestSupport
import Testing

@Suite("Container: outer header and VariantDictionary")
struct ContainerHeaderTests {
    @Test("VariantDictionary: every type code round-trips, bytes as KeePass lays them out")
    func variantDictionaryRoundTrip() throws {
        var d = VariantDictionary()
        d["u32"] = .uint32(0xDEAD_BEEF)
        d["u64"] = .uint64(0x0102_0304_0506_0708)
        d["b"] = .bool(true)
        d["i32"] = .int32(-2)
        d["i64"] = .int64(-3)
        d["s"] = .string("ü")
        d["a"] = .bytes([1, 2, 3])
        let bytes = d.serialized()
        // version 0x0100, first item: type 4, name length 3, "u32", value length 4, EF BE AD DE
        #expect(Array(bytes.prefix(18)) == [0x00, 0x01, 0x04, 3, 0, 0, 0, 0x75, 0x33, 0x32, 4, 0, 0, 0, 0xEF, 0xBE, 0xAD, 0xDE])
        #expect(bytes.last == 0)
        let parsed = try VariantDictionary(parsing: offsetSlice(bytes))
        #expect(parsed == d)
        #expect(parsed.items.map(\.value.typeCode) == [0x04, 0x05, 0x08, 0x0C, 0x0D, 0x18, 0x42])
        #expect(parsed["i64"] == .int64(-3))
    }

    @Test("VariantDictionary: newer major version, unknown type, truncation, trailing bytes refused")
    func variantDictionaryErrors() throws {
        var d = VariantDictionary()
        d["R"] = .uint64(6000)
        let good = d.serialized()
        var newer = good
        newer[1] = 0x02
        #expect(throws: KDBXError(.unsupported)) { try VariantDictionary(parsing: newer[...]) }
        var minorNewer = good
        minorNewer[0] = 0x05  // 0x0105: minor version changes are accepted
        #expect(try VariantDictionary(parsing: minorNewer[...]) == d)
        var unknownType = good
        unknownType[2] = 0x07
        #expect(throws: KDBXError(.corruptedFile)) { try VariantDictionary(parsing: unknownType[...]) }
        for cut in 0..<good.count {
            #expect(throws: KDBXError(.corruptedFile)) { try VariantDictionary(parsing: good[0..<cut]) }
        }
        #expect(throws: KDBXError(.corruptedFile)) { try VariantDictionary(parsing: (good + [0])[...]) }
        var wrongSize = good
        wrongSize[2] = 0x04  // UInt32 with an 8-byte value
        #expect(throws: KDBXError(.corruptedFile)) { try VariantDictionary(parsing: wrongSize[...]) }
    }

    @Test("KDF parameters: AES-KDF and Argon2 dictionaries, KeePassXC's AES UUID read, unknown UUID unsupported")
    func kdfParameters() throws {
        let aes = KDFParameters(settings: .aes(rounds: 60_000), seed: [UInt8](repeating: 7, count: 32))
        let d = aes.dictionary
        #expect(d["$UUID"] == .bytes(KDFParameters.aesKDFUUID))
        #expect(d["R"] == .uint64(60_000))
        #expect(try KDFParameters(dictionary: try VariantDictionary(parsing: d.serialized()[...])) == aes)
        var kxc = d
        kxc["$UUID"] = .bytes(KDFParameters.aesKDFKeePassXCUUID)
        #expect(try KDFParameters(dictionary: kxc) == aes)
        let argon = KDFParameters(
            settings: .argon2(Argon2Settings(variant: .argon2id, memoryBytes: 1 << 20, iterations: 3, parallelism: 2)),
            seed: [UInt8](repeating: 1, count: 32), secret: [9], associatedData: [8, 8])
        #expect(try KDFParameters(dictionary: argon.dictionary) == argon)
        #expect(argon.dictionary["M"] == .uint64(1 << 20))
        var unknown = d
        unknown["$UUID"] = .bytes([UInt8](repeating: 0, count: 16))
        #expect(throws: KDBXError(.unsupported)) { try KDFParameters(dictionary: unknown) }
        var noRounds = d
        noRounds["R"] = .uint32(5)
        #expect(throws: KDBXError(.corruptedFile)) { try KDFParameters(dictionary: noRounds) }
    }

    /// Fixture, version, cipher, KDF, compression (fixtures README tables).
    static let headers: [(String, KDBXVersion, PayloadCipher, KDFSettings, PayloadCompression)] = [
        ("keepass/kdbx31-aes-aeskdf-nocomp", .v3_1, .aes256, .aes(rounds: 1000), .none),
        ("keepass/kdbx31-aes-aeskdf", .v3_1, .aes256, .aes(rounds: 6000), .gzip),
        ("keepass/kdbx4-aes-argon2d", .v4_0, .aes256,
         .argon2(Argon2Settings(variant: .argon2d, memoryBytes: 1 << 20, iterations: 2, parallelism: 2)), .gzip),
        ("keepass/kdbx4-chacha20-aeskdf", .v4_0, .chacha20, .aes(rounds: 6000), .none),
        ("keepass/kdbx4-chacha20-argon2id", .v4_0, .chacha20,
         .argon2(Argon2Settings(variant: .argon2id, memoryBytes: 4 << 20, iterations: 3, parallelism: 2)), .gzip),
        ("keepassxc/kxc-edited-argon2id", .v4_1, .chacha20,
         .argon2(Argon2Settings(variant: .argon2id, memoryBytes: 4 << 20, iterations: 3, parallelism: 2)), .gzip),
        ("thirdparty/gokeepasslib/kdbx4_example-twofish", .v3_1, .twofish, .aes(rounds: 600_000), .gzip),
        ("thirdparty/kdbxweb/AesKdfKdbx4", .v3_1, .aes256, .aes(rounds: 123), .gzip),
        ("thirdparty/keepass-rs/test_db_kdbx4_with_password_aes", .v4_1, .aes256, .aes(rounds: 1_820_589), .gzip),
        ("thirdparty/kdbxweb/Argon2", .v4_0, .aes256,
         .argon2(Argon2Settings(variant: .argon2d, memoryBytes: 24 << 10, iterations: 2, parallelism: 3)), .gzip),
    ]

    @Test("fixture headers read as the README tables say", arguments: headers.indices)
    func fixtureHeader(_ index: Int) throws {
        let (name, version, cipher, kdf, compression) = Self.headers[index]
        let file = try TestVectors.bytes("kdbx/" + name + ".kdbx")
        let (header, offset) = try KDBXHeader.read(from: file[...])
        #expect(header.version == version)
        #expect(header.cipher == cipher)
        #expect(header.kdf.settings == kdf)
        #expect(header.compression == compression)
        #expect(header.masterSeed.count == 32)
        #expect(header.encryptionIV.count == cipher.ivByteCount)
        #expect(offset == header.rawBytes.count + (version.isKDBX4 ? 64 : 0))
        // Reading from a slice that does not start at 0 gives the same header.
        let shifted = try KDBXHeader.read(from: offsetSlice(file))
        #expect(shifted.header.rawBytes == header.rawBytes)
    }

    @Test("public custom data is kept raw; KeePassXC's KPXC_PUBLIC_UUID is in it")
    func publicCustomData() throws {
        let file = try TestVectors.bytes("kdbx/thirdparty/keepass-rs/test_db_kdbx4_with_password_argon2.kdbx")
        let (header, _) = try KDBXHeader.read(from: file[...])
        let custom = try VariantDictionary(parsing: header.publicCustomData[...])
        #expect(custom["KPXC_PUBLIC_UUID"] != nil)
    }

    @Test("not KDBX, KDB 1.x and version 42 are unsupported, at once")
    func unsupportedFiles() throws {
        for name in ["thirdparty/keepass-rs/broken_random_data.kdbx", "thirdparty/keepass-rs/test_db_kdb_with_password.kdb",
                     "thirdparty/keepass-rs/broken_kdbx_version.kdbx"] {
            let file = try TestVectors.bytes("kdbx/" + name)
            #expect(throws: KDBXError(.unsupported)) { try KDBXHeader.read(from: file[...]) }
        }
        let kdb = try TestVectors.bytes("kdbx/thirdparty/keepass-rs/test_db_kdb_with_password.kdb")
        do { _ = try KDBXHeader.read(from: kdb[...]) } catch { #expect(error.reason.contains("1.x")) }
        let v42 = try TestVectors.bytes("kdbx/thirdparty/keepass-rs/broken_kdbx_version.kdbx")
        do { _ = try KDBXHeader.read(from: v42[...]) } catch { #expect(error.reason.contains("42")) }
        #expect(throws: KDBXError(.unsupported)) { try KDBXHeader.read(from: [][...]) }
    }

    /// A 3.x header with the given extra fields inserted before EndOfHeader and the given EndOfHeader payload.
    static func header3(extra: [(UInt8, [UInt8])] = [], end: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A]) throws -> [UInt8] {
        var header = KDBXHeader(
            version: .v3_1, cipher: .aes256, compression: .gzip, masterSeed: [UInt8](repeating: 1, count: 32),
            encryptionIV: [UInt8](repeating: 2, count: 16),
            kdf: KDFParameters(settings: .aes(rounds: 10), seed: [UInt8](repeating: 3, count: 32)),
            innerStreamAlgorithm: .salsa20, innerStreamKey: SecureBytes([UInt8](repeating: 4, count: 32)),
            streamStartBytes: [UInt8](repeating: 5, count: 32))
        var bytes = try header.serialized()
        bytes.removeLast(7)  // EndOfHeader: id, u16 length, 4 bytes
        for (id, data) in extra {
            bytes.append(id)
            bytes.appendLittleEndian(UInt16(data.count))
            bytes.append(contentsOf: data)
        }
        bytes.append(0)
        bytes.appendLittleEndian(UInt16(end.count))
        bytes.append(contentsOf: end)
        return bytes
    }

    @Test("unknown fields and a comment are tolerated; any EndOfHeader payload is accepted")
    func lenientHeader() throws {
        for end in [[], [0x00, 0xD0, 0xAD, 0x0A], [0x0D, 0x0A, 0x0D, 0x0A], [UInt8](repeating: 0xFF, count: 100)] {
            let bytes = try Self.header3(extra: [(1, Array("hi".utf8)), (200, [1, 2, 3])], end: end)
            let (header, offset) = try KDBXHeader.read(from: bytes[...])
            #expect(offset == bytes.count)
            #expect(header.comment == Array("hi".utf8))
            #expect(header.unknownFields.count == 1)
            #expect(header.unknownFields.first?.id == 200)
            #expect(header.kdf.settings == .aes(rounds: 10))
            #expect(header.innerStreamAlgorithm == .salsa20)
        }
    }

    @Test("header limits and malformed fields")
    func headerLimits() throws {
        let big = try Self.header3(extra: [(1, [UInt8](repeating: 0, count: 5000))])
        #expect(throws: KDBXError(.limitExceeded)) {
            try KDBXHeader.read(from: big[...], limits: KDBXLimits(maxHeaderFieldBytes: 4096))
        }
        // A master seed of the wrong size.
        var header = KDBXHeader(
            version: .v4_0, cipher: .chacha20, compression: .none, masterSeed: [UInt8](repeating: 1, count: 31),
            encryptionIV: [UInt8](repeating: 2, count: 12),
            kdf: KDFParameters(settings: .aes(rounds: 10), seed: [UInt8](repeating: 3, count: 32)))
        var bytes = try header.serialized()
        bytes += SHA256.hash(bytes) + [UInt8](repeating: 0, count: 32)
        do {
            _ = try KDBXHeader.read(from: bytes[...])
            Issue.record("a 31-byte master seed must be refused")
        } catch {
            #expect(error.code == .corruptedFile)
            #expect(error.location?.contains("header field 4") == true)
        }
    }

    @Test("truncation at every header byte is a corrupted file with a location, never a crash")
    func headerTruncation() throws {
        let file = try TestVectors.bytes("kdbx/keepass/kdbx4-aes-argon2d.kdbx")
        let (header, offset) = try KDBXHeader.read(from: file[...])
        for cut in 12..<offset {
            do {
                _ = try KDBXHeader.read(from: file[0..<cut])
                Issue.record("cut at \(cut) read")
            } catch {
                #expect(error.code == .corruptedFile, "cut at \(cut)")
                #expect(error.location != nil)
            }
        }
        // A bit flipped in any field's data after the version is caught by the header hash.
        for position in stride(from: 12, to: header.rawBytes.count, by: 7) {
            var damaged = file
            damaged[position] ^= 0x10
            #expect(throws: KDBXError.self) { try KDBXHeader.read(from: damaged[...]) }
        }
    }

    @Test("write then read: 4.x and 3.x headers round-trip; 3.x refuses Argon2")
    func headerRoundTrip() throws {
        var h4 = KDBXHeader(
            version: .v4_1, cipher: .twofish, compression: .gzip, masterSeed: SecureRandom.bytes(count: 32),
            encryptionIV: SecureRandom.bytes(count: 16),
            kdf: KDFParameters.fresh(.argon2(.keePassDefault)), publicCustomData: { var d = VariantDictionary(); d["x"] = .string("y"); return d.serialized() }())
        var bytes = try h4.serialized()
        bytes += SHA256.hash(bytes) + [UInt8](repeating: 0, count: 32)
        let (read4, _) = try KDBXHeader.read(from: bytes[...])
        #expect(read4.kdf == h4.kdf)
        #expect(read4.cipher == .twofish)
        #expect(read4.publicCustomData == h4.publicCustomData)
        #expect(read4.rawBytes == h4.rawBytes)
        // 3.x with Argon2 is impossible.
        var h3 = h4
        h3.version = .v3_1
        h3.publicCustomData = []
        h3.innerStreamAlgorithm = .salsa20
        h3.innerStreamKey = SecureBytes([1])
        h3.streamStartBytes = [UInt8](repeating: 0, count: 32)
        #expect(throws: KDBXError(.invalidModel)) { try h3.serialized() }
        h3.kdf = KDFParameters.fresh(.aes(rounds: 1))
        let b3 = try h3.serialized()
        #expect(b3[8..<12] == [0x01, 0x00, 0x03, 0x00])
        let (read3, _) = try KDBXHeader.read(from: b3[...])
        #expect(read3.kdf == h3.kdf)
        #expect(read3.streamStartBytes == h3.streamStartBytes)
    }
}
