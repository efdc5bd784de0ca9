import Foundation
import MyPassBytes
import MyPassKDBX
import MyPassTestSupport
import Testing

/// A vault whose KDF is made cheap when the fixture's is slow (the saved file then differs only in `file.kdf`).
func cheapened(_ vault: Vault, _ fixture: Fixture) -> Vault {
    guard fixture.slowKDF else { return vault }
    var copy = vault
    switch copy.format.kdf {
    case .aes: copy.format.kdf = .aes(rounds: 1000)
    case .argon2(var settings):
        settings.memoryBytes = 1 << 20
        settings.iterations = 1
        copy.format.kdf = .argon2(settings)
    }
    return copy
}

/// The manifest of `vault` without its `file` section, which a save may change.
func contentManifest(_ vault: Vault) throws -> [String: Any] {
    var object = try manifest(of: vault) as! [String: Any]
    object["file"] = nil
    return object
}

@Suite("Codec: save and reopen")
struct CodecRoundTripTests {
    static let targets: [KDBXVersion?] = [nil, .v3_1, .v4_0, .v4_1]

    @Test("save -> reopen gives the same manifest, for every fixture and target version", arguments: FixtureCatalog.withManifest)
    func roundTrip(_ fixture: Fixture) throws {
        let key = try fixture.compositeKey()
        let original = cheapened(try KDBXCodec.open(try fixture.fileBytes, key: key), fixture)
        let expected = try contentManifest(original)
        for target in Self.targets {
            let options = KDBXSaveOptions(targetVersion: target)
            let version: KDBXVersion
            do {
                version = try KDBXCodec.versionToWrite(for: original, options: options)
            } catch {
                #expect(error.code == .invalidModel)
                #expect(throws: KDBXError(.invalidModel)) { try KDBXCodec.save(original, key: key, options: options) }
                continue
            }
            let saved = try KDBXCodec.save(original, key: key, options: options)
            let reopened = try KDBXCodec.open(saved, key: key)
            #expect(reopened.format.version == version, "\(fixture.name) -> \(String(describing: target))")
            #expect(reopened.format.cipher == original.format.cipher)
            #expect(reopened.format.kdf == original.format.kdf)
            #expect(reopened.format.compression == original.format.compression)
            #expect(reopened.format.innerStream == (version.isKDBX4 ? .chacha20 : .salsa20))
            let differences = manifestDifferences(expected: expected, actual: try contentManifest(reopened))
            #expect(differences.isEmpty, "\(fixture.name) -> \(version): \(differences.joined(separator: "; "))")
        }
    }

    @Test("the 5,000-entry vaults save and reopen unchanged, entry by entry", arguments: FixtureCatalog.large)
    func largeRoundTrip(_ fixture: Fixture) throws {
        let key = try fixture.compositeKey()
        let vault = try KDBXCodec.open(try fixture.fileBytes, key: key)
        let reopened = try KDBXCodec.open(try KDBXCodec.save(vault, key: key), key: key)
        #expect(reopened.format == vault.format)
        #expect(reopened.root == vault.root)
        var meta = vault.meta
        meta.generator = Meta.writerName  // our saves name MyPass as their generator
        #expect(reopened.meta == meta)
        #expect(reopened.deletedObjects == vault.deletedObjects)
    }

    @Test("version rules: 3.1 stays 3.1, with ChaCha20 too; impossible targets are invalid")
    func versionRules() throws {
        let kdbx31 = FixtureCatalog.keepass[1]
        let v31 = try KDBXCodec.open(try kdbx31.fileBytes, key: try kdbx31.compositeKey())
        #expect(try KDBXCodec.versionToWrite(for: v31) == .v3_1)
        let saved = try KDBXCodec.save(v31, key: try kdbx31.compositeKey())
        #expect(Array(saved[8..<12]) == [0x01, 0x00, 0x03, 0x00])
        let aesChaCha = FixtureCatalog.kdbxweb.first { $0.name.hasSuffix("AesChaCha") }!
        let chacha = try KDBXCodec.open(try aesChaCha.fileBytes, key: try aesChaCha.compositeKey())
        #expect(chacha.format.version == .v3_1)
        #expect(try KDBXCodec.versionToWrite(for: chacha) == .v3_1)
        let savedChaCha = try KDBXCodec.save(chacha, key: try aesChaCha.compositeKey(), options: KDBXSaveOptions(targetVersion: .v3_1))
        #expect(Array(savedChaCha[8..<12]) == [0x01, 0x00, 0x03, 0x00])
        #expect(try KDBXCodec.open(savedChaCha, key: try aesChaCha.compositeKey()) == chacha.asWritten(version: .v3_1))
        var argon = chacha
        argon.format.kdf = .argon2(Argon2Settings(variant: .argon2d, memoryBytes: 1 << 20, iterations: 1, parallelism: 1))
        #expect(throws: KDBXError(.invalidModel)) {
            try KDBXCodec.save(argon, key: try aesChaCha.compositeKey(), options: KDBXSaveOptions(targetVersion: .v3_1))
        }
        #expect(throws: KDBXError(.invalidModel)) {
            try KDBXCodec.save(v31, key: try kdbx31.compositeKey(), options: KDBXSaveOptions(targetVersion: KDBXVersion(major: 4, minor: 2)))
        }
        let kxc41 = FixtureCatalog.keepass.first { $0.name.hasSuffix("kxc-edited-argon2id") }!
        let v41 = try KDBXCodec.open(try kxc41.fileBytes, key: try kxc41.compositeKey())
        #expect(try KDBXCodec.versionToWrite(for: v41) == .v4_1)
    }

    @Test("every save draws fresh master seed, IV, KDF seed, inner stream key and start bytes")
    func freshRandomValues() throws {
        for fixture in [FixtureCatalog.keepass[1], FixtureCatalog.keepass[6]] {
            let key = try fixture.compositeKey()
            let vault = try KDBXCodec.open(try fixture.fileBytes, key: key)
            let a = try KDBXReader(file: try KDBXCodec.save(vault, key: key))
            let b = try KDBXReader(file: try KDBXCodec.save(vault, key: key))
            #expect(a.header.masterSeed != b.header.masterSeed)
            #expect(a.header.encryptionIV != b.header.encryptionIV)
            #expect(a.header.kdf.seed != b.header.kdf.seed)
            #expect(a.header.kdf.settings == b.header.kdf.settings)
            if a.header.version.isKDBX4 {
                func innerKey(_ reader: KDBXReader) throws -> [UInt8] {
                    let content = try reader.decompress(try reader.decryptPayload(keys: try reader.deriveKeys(key)))
                    var parser = InnerHeader.Parser(limits: KDBXLimits())
                    _ = try parser.feed(content[...])
                    let inner = try #require(parser.header)
                    #expect(inner.streamAlgorithm == .chacha20)
                    #expect(inner.streamKey.count == 64)
                    return inner.streamKey.unsafeArray
                }
                #expect(try innerKey(a) != innerKey(b))
            } else {
                #expect(a.header.innerStreamKey != b.header.innerStreamKey)
                #expect(a.header.innerStreamKey?.count == 32)
                #expect(a.header.innerStreamAlgorithm == .salsa20)
                #expect(a.header.streamStartBytes != b.header.streamStartBytes)
            }
        }
    }

    @Test("saved KDBX 4 files: KeePass AES-KDF UUID, UInt64 rounds, final empty HMAC block, 1 MiB blocks")
    func savedLayout() throws {
        let fixture = FixtureCatalog.keepass.first { $0.name.hasSuffix("kdbx4-chacha20-aeskdf") }!
        let key = try fixture.compositeKey()
        var vault = try KDBXCodec.open(try fixture.fileBytes, key: key)
        // Make the payload span several 1 MiB blocks.
        var entry = vault.root.entries.first ?? Entry()
        entry.uuid = .random()
        entry.setAttachment(Attachment(name: "big.bin", data: SecureRandom.bytes(count: 2_500_000)))
        vault.root.entries.append(entry)
        let saved = try KDBXCodec.save(vault, key: key)
        let reader = try KDBXReader(file: saved)
        let dictionary = try VariantDictionary(parsing: reader.header.kdf.dictionary.serialized()[...])
        #expect(dictionary["$UUID"] == .bytes(KDFParameters.aesKDFUUID))
        #expect(dictionary["R"] == .uint64(6000))
        // Walk the blocks: all but the last two are exactly 1 MiB; the last is empty.
        var offset = reader.payloadOffset
        var sizes: [Int] = []
        while offset < saved.count {
            let size = Int(saved[offset + 32]) | Int(saved[offset + 33]) << 8 | Int(saved[offset + 34]) << 16 | Int(saved[offset + 35]) << 24
            sizes.append(size)
            offset += 36 + size
        }
        #expect(offset == saved.count)
        #expect(sizes.last == 0)
        #expect(sizes.count >= 4)
        #expect(sizes.dropLast(2).allSatisfy { $0 == 1 << 20 })
        let reopened = try KDBXCodec.open(saved, key: key)
        #expect(reopened.root.entries.last?.attachment(named: "big.bin")?.data.count == 2_500_000)
    }

    @Test("edits survive a round trip: entry added, field changed, attachment added, entry deleted")
    func edits() throws {
        for fixture in [FixtureCatalog.keepass[1], FixtureCatalog.keepass[5]] {
            let key = try fixture.compositeKey()
            var vault = try KDBXCodec.open(try fixture.fileBytes, key: key)
            var added = Entry()
            added.setValue("Added entry", for: "Title")
            added.setProtectedValue("s3cr3t ✓", for: "Password")
            added.setAttachment(Attachment(name: "note.txt", data: Array("hello".utf8)))
            vault.root.entries.append(added)
            let victim = vault.allEntries[2].uuid
            let changed = vault.allEntries[3].uuid
            _ = vault.root.modifyEntry(withUUID: changed) { $0.setValue("changed user", for: "UserName") }
            _ = vault.root.removeEntry(withUUID: victim)
            let reopened = try KDBXCodec.open(try KDBXCodec.save(vault, key: key), key: key)
            let differences = manifestDifferences(expected: try contentManifest(vault), actual: try contentManifest(reopened))
            #expect(differences.isEmpty, "\(fixture.name): \(differences.joined(separator: "; "))")
            #expect(reopened.entry(withUUID: victim) == nil)
            #expect(reopened.entry(withUUID: changed)?.userName == "changed user")
            #expect(reopened.entry(withUUID: added.uuid)?.password.revealed == "s3cr3t ✓")
        }
    }

    @Test("a new vault saves and reopens in every version")
    func newVault() throws {
        let key = try CompositeKey(password: "new", keyFileContents: nil)
        for format in [VaultFormat(version: .v3_1, kdf: .aes(rounds: 100), innerStream: .salsa20),
                       VaultFormat(version: .v4_0, cipher: .chacha20, kdf: .argon2(Argon2Settings(variant: .argon2id, memoryBytes: 1 << 20, iterations: 1, parallelism: 1))),
                       VaultFormat(version: .v4_1, cipher: .twofish, kdf: .aes(rounds: 100), compression: .none)] {
            var vault = Vault.new(name: "New", now: .minimum, format: format)
            var entry = Entry()
            entry.setValue("T", for: "Title")
            vault.root.entries.append(entry)
            let reopened = try KDBXCodec.open(try KDBXCodec.save(vault, key: key), key: key)
            #expect(reopened.format.version == format.version)
            #expect(reopened.format.cipher == format.cipher)
            #expect(reopened.allEntries.map(\.title) == ["T"])
        }
    }
}
