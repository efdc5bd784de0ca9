import Foundation
import MyPassBytes
import MyPassCrypto
import MyPassKDBX
import MyPassTestSupport
import Testing

@Suite("Fixtures: every vault opens to KeePass's manifest; wrong keys fail as wrong keys")
struct FixtureTests {
    @Test("opens with its key; manifest equals KeePass's", arguments: FixtureCatalog.withManifest + FixtureCatalog.large)
    func opensToManifest(_ fixture: Fixture) throws {
        let vault = try KDBXCodec.open(try fixture.fileBytes, key: try fixture.compositeKey())
        let differences = manifestDifferences(expected: try fixture.expectedManifest(), actual: try manifest(of: vault))
        #expect(differences.isEmpty, "\(fixture.name): \(differences.joined(separator: "; "))")
    }

    @Test("a wrong password is a wrong key", arguments: FixtureCatalog.withManifest)
    func wrongPassword(_ fixture: Fixture) throws {
        let file = try fixture.fileBytes
        #expect(throws: KDBXError(.wrongKey)) { try KDBXCodec.open(file, key: try fixture.wrongKey()) }
    }

    @Test("no password where one is needed, and a key file where none is: wrong key")
    func missingComponents() throws {
        let emptyPass = try TestVectors.bytes("kdbx/thirdparty/kdbxweb/EmptyPass.kdbx")
        let keyFile = try TestVectors.bytes("kdbx/thirdparty/kdbxweb/EmptyPassWithKeyFile.key")
        #expect(throws: KDBXError(.wrongKey)) {
            try KDBXCodec.open(emptyPass, key: try CompositeKey(password: nil, keyFileContents: keyFile))
        }
        let noPass = try TestVectors.bytes("kdbx/thirdparty/kdbxweb/NoPassWithKeyFile.kdbx")
        let noPassKey = try TestVectors.bytes("kdbx/thirdparty/kdbxweb/NoPassWithKeyFile.key")
        #expect(throws: KDBXError(.wrongKey)) {
            try KDBXCodec.open(noPass, key: try CompositeKey(password: "", keyFileContents: noPassKey))
        }
    }

    @Test("challenge-response vaults without the response fail as wrong keys, never crash (ChallengeResponseTests opens them)")
    func challengeResponse() throws {
        let cases: [(String, String)] = [
            ("thirdparty/kdbxweb/YubiKey3.kdbx", "demo"),
            ("thirdparty/kdbxweb/YubiKey4.kdbx", "demo"),
            ("thirdparty/keepass-rs/test_db_with_challenge_response_key.kdbx", "demopass"),
        ]
        for (name, password) in cases {
            let file = try TestVectors.bytes("kdbx/" + name)
            #expect(throws: KDBXError(.wrongKey), "\(name)") {
                try KDBXCodec.open(file, key: try CompositeKey(password: ProtectedString(password), keyFileContents: nil))
            }
        }
    }

    @Test("broken files: random data, KDB 1.x and version 42 are unsupported")
    func brokenFiles() throws {
        for name in ["broken_random_data.kdbx", "test_db_kdb_with_password.kdb", "broken_kdbx_version.kdbx"] {
            let file = try TestVectors.bytes("kdbx/thirdparty/keepass-rs/" + name)
            #expect(throws: KDBXError(.unsupported), "\(name)") {
                try KDBXCodec.open(file, key: try CompositeKey(password: "", keyFileContents: nil))
            }
        }
    }

    @Test("format is read from the header: KDBX 3.1 ChaCha20 and an inner ChaCha20 stream in 3.1")
    func formatFromHeader() throws {
        let aesChaCha = FixtureCatalog.kdbxweb.first { $0.name.hasSuffix("AesChaCha") }!
        let vault = try KDBXCodec.open(try aesChaCha.fileBytes, key: try aesChaCha.compositeKey())
        #expect(vault.format.version == .v3_1)
        #expect(vault.format.cipher == .chacha20)
        #expect(vault.format.innerStream == .salsa20)
        let chachaInner = FixtureCatalog.keepassRS.first { $0.name.hasSuffix("chacha20_protected_fields") }!
        let v2 = try KDBXCodec.open(try chachaInner.fileBytes, key: try chachaInner.compositeKey())
        #expect(v2.format.innerStream == .chacha20)
        #expect(v2.allEntries.allSatisfy { $0.password.revealed == "admin" })
        let kdbx4 = FixtureCatalog.keepass.first { $0.name.hasSuffix("kdbx4-aes-argon2d") }!
        let v3 = try KDBXCodec.open(try kdbx4.fileBytes, key: try kdbx4.compositeKey())
        #expect(v3.format.innerStream == .chacha20)
        #expect(v3.format.kdf == .argon2(Argon2Settings(variant: .argon2d, memoryBytes: 1 << 20, iterations: 2, parallelism: 2)))
    }

    @Test("the staged reader gives the same vault as open")
    func stagedReader() throws {
        for fixture in [FixtureCatalog.keepass[1], FixtureCatalog.keepass[5], FixtureCatalog.keepass[6]] {
            let reader = try KDBXReader(file: try fixture.fileBytes)
            let keys = try reader.deriveKeys(try fixture.compositeKey())
            let payload = try reader.decryptPayload(keys: keys)
            let content = try reader.decompress(payload)
            let staged = try reader.parseContent(content)
            let fused = try reader.readVault(keys: keys)
            #expect(VaultManifest.json(of: staged) == VaultManifest.json(of: fused), "\(fixture.name)")
        }
    }

    @Test("limits: an Argon2 memory or AES-KDF cost above the limit is refused before any work")
    func kdfLimits() throws {
        let argon = FixtureCatalog.keepass.first { $0.name.hasSuffix("kdbx4-chacha20-argon2id") }!
        #expect(throws: KDBXError(.limitExceeded)) {
            try KDBXCodec.open(try argon.fileBytes, key: try argon.compositeKey(), limits: KDBXLimits(maxArgon2MemoryBytes: 1 << 20))
        }
        let aes = FixtureCatalog.keepass.first { $0.name.hasSuffix("kdbx31-aes-aeskdf") }!
        #expect(throws: KDBXError(.limitExceeded)) {
            try KDBXCodec.open(try aes.fileBytes, key: try aes.compositeKey(), limits: KDBXLimits(maxAESKDFRounds: 5000))
        }
        #expect(throws: KDBXError(.limitExceeded)) {
            try KDBXCodec.open(try aes.fileBytes, key: try aes.compositeKey(), limits: KDBXLimits(maxDecompressedBytes: 10_000))
        }
    }
}
