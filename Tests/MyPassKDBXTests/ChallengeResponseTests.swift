import Foundation
import MyPassBytes
import MyPassCrypto
import MyPassKDBX
import MyPassTestSupport
import Testing

/// Vaults protected by a YubiKey HMAC-SHA1 challenge-response (issue 31): the three third-party
/// fixtures (`Vectors/kdbx/thirdparty/*/README.md` give their password, challenge and response),
/// the YubiKey padding rule, and saves in both formats read back by our reader.
@Suite("Challenge-response: the fixtures open, saves write both formats, the padding rule")
struct ChallengeResponseTests {
    /// A fixture with a challenge-response component: its password, the challenge its README
    /// names, the response, and the HMAC-SHA1 secret when the README gives it.
    struct CRFixture: CustomStringConvertible, Sendable {
        var name: String
        var password: String
        var challenge: String
        var response: String
        var secret: String?
        var description: String { name }
    }

    static let fixtures = [
        CRFixture(name: "thirdparty/kdbxweb/YubiKey3", password: "demo",
                  challenge: "0ba4bbdf2e44fe56b64136a5086ba3ab814130d8e3fe7ed0e869cc976af6c12a",
                  response: "18350f73193e1c89211921d3016bfe3ddfc54d3e"),
        CRFixture(name: "thirdparty/kdbxweb/YubiKey4", password: "demo",
                  challenge: "011ed85afa703341893596fba2da60b6cacabaa5468a0e9ea74698b901bc89ab",
                  response: "ae7244b336f3360e4669ec9eaf4ddc23785aef03"),
        CRFixture(name: "thirdparty/keepass-rs/test_db_with_challenge_response_key", password: "demopass",
                  challenge: "22790799f65883d95602d10c6e6ca0f031e081aab7df4c2cf7938561344fd86e",
                  response: "dcaa2a4463344ff66cdb4f3d9b433db10bf0231a", secret: "0102030405060708090a0b0c0d0e0f1011121314"),
    ]

    /// A responder that answers `response` and records the challenges it was asked.
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var asked: [[UInt8]] = []
        var challenges: [[UInt8]] { lock.withLock { asked } }

        func key(answering response: @escaping @Sendable ([UInt8]) -> [UInt8]) -> ChallengeResponseKey {
            ChallengeResponseKey { (challenge: [UInt8]) throws(KDBXError) -> SecureBytes in
                self.lock.withLock { self.asked.append(challenge) }
                return SecureBytes(response(challenge))
            }
        }

        func key(wrapping inner: ChallengeResponseKey) -> ChallengeResponseKey {
            ChallengeResponseKey { (challenge: [UInt8]) throws(KDBXError) -> SecureBytes in
                self.lock.withLock { self.asked.append(challenge) }
                return try inner.response(to: challenge)
            }
        }
    }

    @Test("each fixture opens with its password and response, asked once for the README's challenge", arguments: fixtures)
    func opensWithTheResponse(_ fixture: CRFixture) throws {
        let file = try TestVectors.bytes("kdbx/" + fixture.name + ".kdbx")
        let recorder = Recorder()
        let response = hexBytes(fixture.response)
        let key = try CompositeKey(password: ProtectedString(fixture.password), keyFileContents: nil,
                                   challengeResponse: recorder.key { _ in response })
        let vault = try KDBXCodec.open(file, key: key)
        #expect(recorder.challenges == [hexBytes(fixture.challenge)])
        if let manifest = try? TestVectors.bytes("kdbx/" + fixture.name + ".cr-manifest.json") {
            let expected = try JSONSerialization.jsonObject(with: Data(manifest))
            let actual = try JSONSerialization.jsonObject(with: Data(VaultManifest.json(of: vault).utf8))
            let differences = manifestDifferences(expected: expected, actual: actual)
            #expect(differences.isEmpty, "\(fixture.name): \(differences.joined(separator: "; "))")
        } else {
            // YubiKey3 (Strongbox, KDBX 3.1) has no manifest: its README gives the content.
            #expect(vault.meta.generator == "Strongbox")
            #expect(vault.root.name == "Database")
            #expect(vault.root.groups.map(\.name) == ["Sample Group"])
            let entries = vault.root.groups.first?.entries ?? []
            #expect(entries.map(\.title) == ["Sample"])
            #expect(entries.first?.userName == "user")
            #expect(entries.first?.history.count == 1)
            #expect(vault.allEntries.count == 1)
        }
        // A wrong response: wrong key (the password alone: FixtureTests).
        var flipped = response
        flipped[0] ^= 1
        let wrong = flipped
        let wrongKey = try CompositeKey(password: ProtectedString(fixture.password), keyFileContents: nil,
                                        challengeResponse: Recorder().key { _ in wrong })
        #expect(throws: KDBXError(.wrongKey)) { try KDBXCodec.open(file, key: wrongKey) }
    }

    @Test("the software key answers the keepass-rs fixture from its secret, as the README's response")
    func softwareKeyMatchesTheFixture() throws {
        let fixture = Self.fixtures[2]
        let key = ChallengeResponseKey.hmacSHA1(secret: SecureBytes(hexBytes(fixture.secret!)))
        #expect(try key.response(to: hexBytes(fixture.challenge)).unsafeArray == hexBytes(fixture.response))
        let composite = try CompositeKey(password: ProtectedString(fixture.password), keyFileContents: nil, challengeResponse: key)
        let vault = try KDBXCodec.open(try TestVectors.bytes("kdbx/" + fixture.name + ".kdbx"), key: composite)
        #expect(vault.allEntries.map(\.title).sorted() == ["entry1", "entry2"])
    }

    @Test("YubiKey padding: PKCS#7 to 64 bytes; a variable-length slot hashes the block without its trailing run")
    func padding() throws {
        let challenge = [UInt8](0..<32)
        #expect(try YubiKeyChallenge.padded(challenge) == challenge + [UInt8](repeating: 0x20, count: 32))
        #expect(Array(try YubiKeyChallenge.hashedMessage(for: challenge)) == challenge)
        // A challenge ending in 0x20 loses that byte and every 0x20 before it, as the key strips them.
        var spaced = challenge
        spaced[30] = 0x20
        spaced[31] = 0x20
        #expect(Array(try YubiKeyChallenge.hashedMessage(for: spaced)) == Array(challenge[0..<30]))
        let secret = SecureBytes(hexBytes("0102030405060708090a0b0c0d0e0f1011121314"))
        let response = try ChallengeResponseKey.hmacSHA1(secret: secret).response(to: spaced)
        #expect(response.unsafeArray == HMAC<SHA1>.authenticationCode(for: Array(challenge[0..<30]), key: secret.unsafeArray))
        #expect(response.unsafeArray != HMAC<SHA1>.authenticationCode(for: spaced, key: secret.unsafeArray))
        // 0x00 at the end is not padding under PKCS#7: it is hashed.
        var zeroed = challenge
        zeroed[31] = 0
        #expect(Array(try YubiKeyChallenge.hashedMessage(for: zeroed)) == zeroed)
        #expect(!YubiKeyChallenge.isPaddingNeutral(spaced) && !YubiKeyChallenge.isPaddingNeutral(zeroed))
        #expect(YubiKeyChallenge.isPaddingNeutral(challenge))
        // 64 bytes go as they are; more cannot go to a key.
        #expect(try YubiKeyChallenge.padded([UInt8](repeating: 7, count: 64)).count == 64)
        #expect(throws: KDBXError(.unsupported)) { try YubiKeyChallenge.padded([UInt8](repeating: 7, count: 65)) }
    }

    /// A cheap vault of each version to save: KDBX 4 with 10 AES-KDF rounds, 3.1 with 1,000.
    static let saves: [(fixture: String, password: String, version: KDBXVersion)] = [
        ("thirdparty/keepass-rs/test_db_few_rounds", "demopass", .v4_0),
        ("keepass/kdbx31-aes-aeskdf-nocomp", FixtureCatalog.pw, .v3_1),
    ]

    @Test("a save asks the key once for the new seed (KDF seed in 4, master seed in 3.1), never one ending in 0x20 or 0x00, and reads back",
          arguments: [0, 1])
    func saveAsksTheNewChallenge(_ index: Int) throws {
        let (name, password, version) = Self.saves[index]
        let original = try TestVectors.bytes("kdbx/" + name + ".kdbx")
        let plain = try CompositeKey(password: ProtectedString(password), keyFileContents: nil)
        let vault = try KDBXCodec.open(original, key: plain)
        let secret = SecureBytes(SecureRandom.bytes(count: 20))
        let recorder = Recorder()
        let key = try CompositeKey(password: ProtectedString(password), keyFileContents: nil,
                                   challengeResponse: recorder.key(wrapping: .hmacSHA1(secret: secret)))
        for _ in 0..<8 {
            let written = try KDBXCodec.save(vault, key: key)
            let header = try KDBXReader(file: written).header
            #expect(header.version == version)
            let challenge = version.isKDBX4 ? header.kdf.seed : header.masterSeed
            #expect(recorder.challenges.last == challenge)
            #expect(YubiKeyChallenge.isPaddingNeutral(challenge))
            // Our reader, through the same software key, and a fresh one from the secret alone.
            let reread = try KDBXCodec.open(written, key: try CompositeKey(
                password: ProtectedString(password), keyFileContents: nil, challengeResponse: .hmacSHA1(secret: secret)))
            #expect(VaultManifest.json(of: reread) == VaultManifest.json(of: vault.asWritten(version: version)))
            #expect(throws: KDBXError(.wrongKey)) { try KDBXCodec.open(written, key: plain) }
            // The key component by hand: KDBX 4 hashes SHA-256(response) after the password's; 3.1
            // puts it between the master seed and the transformed key.
            let response = HMAC<SHA1>.authenticationCode(for: challenge, key: secret.unsafeArray)
            let reader = try KDBXReader(file: written)
            if version.isKDBX4 {
                let byHand = try CompositeKey(components: [
                    SecureBytes(SHA256.hash(Array(password.utf8))), SecureBytes(SHA256.hash(response))])
                _ = try reader.deriveKeys(byHand)
            } else {
                let transformed = try MasterKeys.transform(compositeKey: plain, kdf: header.kdf, limits: KDBXLimits())
                let keys = MasterKeys(transformedKey: SecureBytes(SHA256.hash(response) + transformed.unsafeArray),
                                      masterSeed: header.masterSeed)
                #expect(keys.cipherKey.unsafeArray == SHA256.hash(header.masterSeed + SHA256.hash(response) + transformed.unsafeArray))
                _ = try reader.readVault(keys: keys)
            }
        }
        #expect(recorder.challenges.count == 8)  // one per save (the reopens use a key of their own)
    }

    @Test("a plan for a challenge-response key never has a challenge ending in 0x20 or 0x00; other plans do, 2 in 256",
          arguments: [0, 1])
    func plansDrawPaddingNeutralChallenges(_ index: Int) throws {
        let (name, password, version) = Self.saves[index]
        let vault = try KDBXCodec.open(try TestVectors.bytes("kdbx/" + name + ".kdbx"),
                                       key: try CompositeKey(password: ProtectedString(password), keyFileContents: nil))
        let writer = KDBXWriter(vault: vault, options: KDBXSaveOptions())
        func challenge(_ plan: KDBXSavePlan) -> [UInt8] { version.isKDBX4 ? plan.header.kdf.seed : plan.header.masterSeed }
        // 3,000 plain plans miss both bytes with probability (254/256)^3000, about 6e-11.
        var neutral = 0
        for _ in 0..<3000 {
            #expect(YubiKeyChallenge.isPaddingNeutral(challenge(try writer.prepare(forChallengeResponse: true))))
            if YubiKeyChallenge.isPaddingNeutral(challenge(try writer.prepare())) { neutral += 1 }
        }
        #expect(neutral < 3000)
    }

    @Test("a responder that fails or is cancelled stops the open and the save before any KDF; nothing is written")
    func failingResponder() throws {
        let file = try TestVectors.bytes("kdbx/thirdparty/keepass-rs/test_db_few_rounds.kdbx")
        let vault = try KDBXCodec.open(file, key: try CompositeKey(password: "demopass", keyFileContents: nil))
        for code in [KDBXError.Code.missingKeyComponent, .cancelled] {
            let key = try CompositeKey(password: "demopass", keyFileContents: nil,
                                       challengeResponse: ChallengeResponseKey { (_: [UInt8]) throws(KDBXError) -> SecureBytes in
                                           throw KDBXError(code, "no key present")
                                       })
            #expect(throws: KDBXError(code)) { try KDBXCodec.save(vault, key: key) }
            #expect(throws: KDBXError(code)) { try KDBXCodec.open(file, key: key) }
        }
        // An answer of the wrong length is refused, and the raw KDF step refuses a key whose
        // response depends on the file.
        let short = try CompositeKey(password: "demopass", keyFileContents: nil,
                                     challengeResponse: ChallengeResponseKey { (_: [UInt8]) throws(KDBXError) -> SecureBytes in SecureBytes([1, 2]) })
        #expect(throws: KDBXError(.missingKeyComponent)) { try KDBXCodec.save(vault, key: short) }
        let header = try KDBXReader(file: file).header
        #expect(throws: KDBXError(.missingKeyComponent)) {
            try MasterKeys.transform(compositeKey: short, kdf: header.kdf, limits: KDBXLimits())
        }
    }

    @Test("components: kept, replaced and removed; a key kept as its hash alone cannot take one; nothing shows")
    func components() throws {
        let software = ChallengeResponseKey.hmacSHA1(secret: SecureBytes([UInt8](repeating: 9, count: 20)))
        let plain = try CompositeKey(password: "pw", keyFileContents: nil)
        // A key without the component keeps its components' hash alone (no password hash while
        // a vault is unlocked), so it cannot take one; build it again instead.
        #expect(plain.fixedComponents.isEmpty)
        #expect(throws: KDBXError(.missingKeyComponent)) { try plain.replacingChallengeResponse(with: software) }
        let withKey = try CompositeKey(password: "pw", keyFileContents: nil, challengeResponse: software)
        #expect(withKey.hasChallengeResponse && withKey.hasPassword && !withKey.hasKeyFile)
        #expect(withKey.fixedComponents.unsafeArray == SHA256.hash(Array("pw".utf8)))
        #expect(withKey.rawKey == plain.rawKey)
        let other = ChallengeResponseKey.hmacSHA1(secret: SecureBytes([UInt8](repeating: 8, count: 20)))
        let replaced = try withKey.replacingChallengeResponse(with: other)
        #expect(replaced.hasChallengeResponse && replaced.fixedComponents == withKey.fixedComponents)
        let removed = try withKey.replacingChallengeResponse(with: nil)
        #expect(!removed.hasChallengeResponse && removed.rawKey == plain.rawKey && removed.fixedComponents.isEmpty)
        let kept = try CompositeKey(rawKey: plain.rawKey, hasPassword: true, hasKeyFile: false)
        #expect(throws: KDBXError(.missingKeyComponent)) { try kept.replacingChallengeResponse(with: software) }
        let alone = try CompositeKey(password: nil, keyFileContents: nil, challengeResponse: software)
        #expect(throws: KDBXError(.missingKeyComponent)) { try alone.replacingChallengeResponse(with: nil) }
        #expect(throws: KDBXError(.missingKeyComponent)) {
            try CompositeKey(fixedComponents: SecureBytes([UInt8](repeating: 1, count: 32)), hasPassword: true, hasKeyFile: true,
                             challengeResponse: software)
        }
        #expect(!withKey.description.contains("pw") && "\(software)" == "ChallengeResponseKey(…)")
        #expect(withKey.description == "CompositeKey(password: true, keyFile: false, challengeResponse: true)")
    }
}
