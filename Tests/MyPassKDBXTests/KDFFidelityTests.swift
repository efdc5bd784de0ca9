import Foundation
import MyPassBytes
import MyPassKDBX
import MyPassTestSupport
import Testing

/// KDF parameters survive a save as read: every VariantDictionary item in its place with its type,
/// Argon2's secret `K` and associated data `A` used in the derivation (RFC 9106 §3.2, inputs K and X).
@Suite("KDF fidelity: K, A and unknown KDF items kept and used", .serialized)
struct KDFFidelityTests {
    static let password = "correct horse battery staple"
    static let fixture = "kdbx-fidelity/argon2id-secret-ad.kdbx"

    static func key(_ password: String = KDFFidelityTests.password) throws -> CompositeKey {
        try CompositeKey(password: ProtectedString(password), keyFileContents: nil)
    }

    /// Names and type codes of a dictionary, in order.
    static func layout(_ d: VariantDictionary) -> [String] {
        d.items.map { "\($0.name):\(String($0.value.typeCode, radix: 16))" }
    }

    /// The KDF dictionary KeePass wrote into the fixture, as `kporacle kdf` printed it.
    static func keePassDictionary() throws -> VariantDictionary {
        let hex = try TestVectors.text("kdbx-fidelity/argon2id-secret-ad.kdf.hex").trimmingCharacters(in: .whitespacesAndNewlines)
        return try VariantDictionary(parsing: hexBytes(hex)[...])
    }

    @Test("fresh parameters keep a stored dictionary's order, types and unknown items; only S is new")
    func freshKeepsLayout() throws {
        var stored = VariantDictionary()
        stored["$UUID"] = .bytes(KDFParameters.argon2idUUID)
        stored["x-first"] = .string("before everything")
        stored["V"] = .uint32(0x13)
        stored["S"] = .bytes([])
        stored["x-mid"] = .int64(-1)
        stored["M"] = .uint64(1 << 20)
        stored["A"] = .bytes([4, 4])
        stored["I"] = .uint64(2)
        stored["K"] = .bytes([3, 3, 3])
        stored["P"] = .uint32(2)
        stored["x-last"] = .bool(false)
        let settings = KDFSettings.argon2(Argon2Settings(variant: .argon2id, memoryBytes: 2 << 20, iterations: 3, parallelism: 1))
        let fresh = KDFParameters.fresh(settings, keeping: stored)
        #expect(fresh.secret == [3, 3, 3])
        #expect(fresh.associatedData == [4, 4])
        let written = fresh.dictionary
        #expect(Self.layout(written) == Self.layout(stored))
        #expect(written["M"] == .uint64(2 << 20))
        #expect(written["I"] == .uint64(3))
        #expect(written["P"] == .uint32(1))
        #expect(written["x-first"] == .string("before everything"))
        #expect(written["x-mid"] == .int64(-1))
        guard case .bytes(let salt)? = written["S"] else { Issue.record("no salt"); return }
        #expect(salt.count == 32)
        // Read back: the same parameters.
        #expect(try KDFParameters(dictionary: try VariantDictionary(parsing: written.serialized()[...])) == fresh)

        // Another KDF: the stored items do not apply.
        let aes = KDFParameters.fresh(.aes(rounds: 10), keeping: stored)
        #expect(Self.layout(aes.dictionary) == ["$UUID:42", "R:5", "S:42"])
        #expect(aes.secret.isEmpty && aes.associatedData.isEmpty)
        // Argon2d instead of Argon2id is another KDF too.
        let argon2d = KDFParameters.fresh(.argon2(.keePassDefault), keeping: stored)
        #expect(argon2d.dictionary["K"] == nil && argon2d.dictionary["x-mid"] == nil)
        // AES-KDF read with KeePassXC's UUID keeps its items but is written with KeePass's UUID.
        var kxc = VariantDictionary()
        kxc["$UUID"] = .bytes(KDFParameters.aesKDFKeePassXCUUID)
        kxc["S"] = .bytes([])
        kxc["R"] = .uint64(5)
        kxc["x"] = .uint32(1)
        let keptAES = KDFParameters.fresh(.aes(rounds: 6), keeping: kxc).dictionary
        #expect(Self.layout(keptAES) == ["$UUID:42", "S:42", "R:5", "x:4"])
        #expect(keptAES["$UUID"] == .bytes(KDFParameters.aesKDFUUID))
        #expect(keptAES["R"] == .uint64(6))
    }

    @Test("a cleared secret is dropped; an empty K read from the file stays")
    func clearedSecret() throws {
        var stored = VariantDictionary()
        stored["$UUID"] = .bytes(KDFParameters.argon2dUUID)
        stored["K"] = .bytes([])
        stored["A"] = .bytes([1])
        var p = KDFParameters.fresh(.argon2(.keePassDefault), keeping: stored)
        p.associatedData = []
        #expect(p.dictionary["K"] == .bytes([]))
        #expect(p.dictionary["A"] == nil)
    }

    @Test("K and A change the transformed key; KeePass's vault with K and A opens only with them")
    func secretAndAssociatedDataAreUsed() throws {
        let file = try TestVectors.bytes(Self.fixture)
        let (header, _) = try KDBXHeader.read(from: file[...])
        #expect(header.kdf.secret == [UInt8](repeating: 3, count: 8))
        #expect(header.kdf.associatedData == [UInt8](repeating: 4, count: 12))
        #expect(header.kdf.dictionary == (try Self.keePassDictionary()))
        // Opening verifies the header HMAC, which depends on the transformed key: K and A were used.
        let vault = try KDBXCodec.open(file, key: try Self.key())
        #expect(vault.format.kdfItems.items.count == 15)
        // The same header without K, or without A, derives another key, so the file does not open.
        let limits = KDBXLimits()
        let withBoth = try MasterKeys.transform(compositeKey: try Self.key(), kdf: header.kdf, limits: limits)
        var noSecret = header.kdf
        noSecret.secret = []
        var noData = header.kdf
        noData.associatedData = []
        let withoutSecret = try MasterKeys.transform(compositeKey: try Self.key(), kdf: noSecret, limits: limits)
        let withoutData = try MasterKeys.transform(compositeKey: try Self.key(), kdf: noData, limits: limits)
        #expect(withBoth != withoutSecret)
        #expect(withBoth != withoutData)
        #expect(withoutSecret != withoutData)
    }

    @Test("a save keeps KeePass's KDF dictionary: K, A, unknown items, order and types; only S changes")
    func saveKeepsDictionary() throws {
        let original = try Self.keePassDictionary()
        let vault = try KDBXCodec.open(try TestVectors.bytes(Self.fixture), key: try Self.key())
        let saved = try KDBXCodec.save(vault, key: try Self.key())
        let (header, _) = try KDBXHeader.read(from: saved[...])
        let written = header.kdf.dictionary
        #expect(Self.layout(written) == Self.layout(original))
        for (name, value) in original.items where name != "S" {
            #expect(written[name] == value, "item \(name)")
        }
        #expect(written["S"] != original["S"])
        // And it opens again (the save derived its key with K and A).
        let reopened = try KDBXCodec.open(saved, key: try Self.key())
        #expect(reopened.root == vault.root)
        #expect(reopened.format == vault.format)
    }

    @Test("KeePass opens our save of a K/A vault and reads back the same KDF dictionary")
    func keePassReadsOurSave() throws {
        guard let kporacle = InteropTools.kporacleTests else {
            if let failure = InteropTools.missing("kporacle (Tests/Tools)", test: "keePassReadsOurSave") {
                Issue.record(Comment(rawValue: failure))
            }
            return
        }
        let vault = try KDBXCodec.open(try TestVectors.bytes(Self.fixture), key: try Self.key())
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("mypass-kdf-\(UUID().uuidString).kdbx")
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Data(try KDBXCodec.save(vault, key: try Self.key())).write(to: scratch)
        let result = try runProcess(kporacle, ["kdf", scratch.path, "--pw", Self.password])
        #expect(result.status == 0, "kporacle: \(result.stderrText)")
        let read = try VariantDictionary(parsing: hexBytes(result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))[...])
        let original = try Self.keePassDictionary()
        #expect(Self.layout(read) == Self.layout(original))
        for (name, value) in original.items where name != "S" {
            #expect(read[name] == value, "item \(name)")
        }
    }
}
