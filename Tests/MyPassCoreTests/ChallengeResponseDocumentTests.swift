import Foundation
import MyPassBytes
import MyPassCore
import MyPassCrypto
import MyPassKDBX
import MyPassTestSupport
import Testing

/// A hardware key for tests: the software key of a fixed secret behind the app-facing protocol,
/// counting its answers; it can be told to fail or to be cancelled.
final class TestHardwareKey: ChallengeResponder, @unchecked Sendable {
    enum Mode { case answer, fail, cancel }
    static let secret = SecureBytes(hexBytes("0102030405060708090a0b0c0d0e0f1011121314"))
    private let lock = NSLock()
    private var asked: [[UInt8]] = []
    private var current = Mode.answer
    var challenges: [[UInt8]] { lock.withLock { asked } }
    var mode: Mode {
        get { lock.withLock { current } }
        set { lock.withLock { current = newValue } }
    }

    func response(to challenge: [UInt8]) throws -> SecureBytes {
        lock.withLock { asked.append(challenge) }
        switch mode {
        case .answer: return try SoftwareChallengeResponder(secret: Self.secret).response(to: challenge)
        case .fail: throw CoreError(.io, "no key present")
        case .cancel: throw CancellationError()
        }
    }
}

@Suite("Challenge-response: documents, sessions, unlock-once and the AutoFill cache")
struct ChallengeResponseDocumentTests {
    let now = KDBXTime(unixSeconds: 1_800_000_000)

    /// The sample vault in `format`, written with a password and `hardwareKey`.
    func writeVault(_ dir: TempDirectory, _ hardwareKey: TestHardwareKey, format: VaultFormat) throws -> (URL, CompositeKey) {
        let url = dir.file("v.kdbx")
        var vault = SampleVault().vault
        vault.format = format
        let key = try CompositeKey(password: "correct horse", keyFileContents: nil, challengeResponse: ChallengeResponseKey(hardwareKey))
        try Data(try KDBXCodec.save(vault, key: key)).write(to: url)
        return (url, key)
    }

    static let formats = [TestVaultFile.cheapFormat, VaultFormat(version: .v3_1, kdf: .aes(rounds: 100))]

    func challenge(of url: URL) throws -> [UInt8] {
        let header = try KDBXReader(file: [UInt8](try Data(contentsOf: url))).header
        return header.version.isKDBX4 ? header.kdf.seed : header.masterSeed
    }

    @Test("open asks once; the cached transformed key reopens with no key and no KDF; a save asks once for the new seed",
          arguments: formats)
    func openReopenSave(_ format: VaultFormat) throws {
        let dir = try TempDirectory()
        let hardwareKey = TestHardwareKey()
        let (url, key) = try writeVault(dir, hardwareKey, format: format)
        let counter = KDFCounter()
        var options = VaultDocument.Options()
        options.keyDerivation = counter.derivation
        var document = try VaultDocument.open(url.path, key: key, options: options)
        let current = try challenge(of: url)
        #expect(hardwareKey.challenges.count == 2 && hardwareKey.challenges.last == current)
        #expect(counter.count == 1)
        #expect(document.cachedKey.transformedKey.count == (format.version.isKDBX4 ? 32 : 64))

        // Unlock-once: the cached key opens the same file with no KDF and no touch.
        let reopened = try VaultDocument.open(url.path, key: key, cachedKey: document.cachedKey, options: options)
        #expect(counter.count == 1 && hardwareKey.challenges.count == 2)
        #expect(reopened.vault == document.vault)

        try document.vault.addGroup(named: "Saved with the key", in: document.vault.root.uuid, now: now)
        let before = try challenge(of: url)
        try document.save()
        let after = try challenge(of: url)
        #expect(after != before && hardwareKey.challenges.last == after && hardwareKey.challenges.count == 3)
        #expect(counter.count == 2)
        // The software key from the secret alone opens it; the password alone does not.
        let fresh = try CompositeKey(password: "correct horse", keyFileContents: nil,
                                     challengeResponse: .hmacSHA1(secret: TestHardwareKey.secret))
        let reread = try KDBXCodec.open([UInt8](try Data(contentsOf: url)), key: fresh)
        #expect(reread.root.groups.contains { $0.name == "Saved with the key" })
        #expect(throws: CoreError(.wrongKey)) { try VaultDocument.open(url.path, key: try TestVaultFile.key()) }
        // The document's new cached key fits the new file.
        _ = try VaultDocument.open(url.path, key: key, cachedKey: document.cachedKey, options: options)
        #expect(counter.count == 2 && hardwareKey.challenges.count == 3)
    }

    @Test("a save whose key fails or is cancelled leaves the vault as it was, with no temporary file and no KDF run",
          arguments: formats)
    func failingSaveLeavesTheVault(_ format: VaultFormat) throws {
        let dir = try TempDirectory()
        let hardwareKey = TestHardwareKey()
        let (url, key) = try writeVault(dir, hardwareKey, format: format)
        let counter = KDFCounter()
        var options = VaultDocument.Options()
        options.keyDerivation = counter.derivation
        var document = try VaultDocument.open(url.path, key: key, options: options)
        try document.vault.addGroup(named: "Never written", in: document.vault.root.uuid, now: now)
        let before = [UInt8](try Data(contentsOf: url))
        hardwareKey.mode = .fail
        do {
            try document.save()
            Issue.record("the save succeeded without the hardware key")
        } catch {
            #expect(error.code == .codec && (error.underlying as? KDBXError)?.code == .missingKeyComponent)
            #expect(!error.description.contains("0102030405"))
        }
        hardwareKey.mode = .cancel
        #expect(throws: CoreError(.cancelled)) { try document.save() }
        #expect([UInt8](try Data(contentsOf: url)) == before)
        #expect(dir.contents == ["v.kdbx"])
        #expect(counter.count == 1)  // the open's run only
        #expect(document.hasUnsavedChanges)
        // The key back: the same document saves.
        hardwareKey.mode = .answer
        try document.save()
        #expect([UInt8](try Data(contentsOf: url)) != before)
        #expect(!document.hasUnsavedChanges)
    }

    @Test("changeKey adds, replaces and removes the hardware key; the old key no longer opens the file")
    func changeKey() throws {
        let dir = try TempDirectory()
        let url = dir.file("v.kdbx")
        try TestVaultFile.write(to: url)
        var document = try VaultDocument.open(url.path, key: try TestVaultFile.key())
        let first = TestHardwareKey()
        document.changeKey(to: try CompositeKey(password: "correct horse", keyFileContents: nil,
                                                challengeResponse: ChallengeResponseKey(first)), now: now)
        try document.save()
        #expect(first.challenges == [try challenge(of: url)])
        #expect(throws: CoreError(.wrongKey)) { try VaultDocument.open(url.path, key: try TestVaultFile.key()) }
        #expect(try VaultDocument.open(url.path, key: document.key).vault == document.vault)

        // Replaced by another secret: the first one no longer opens it.
        let other = ChallengeResponseKey.hmacSHA1(secret: SecureBytes([UInt8](repeating: 0x42, count: 20)))
        document.changeKey(to: try document.key.replacingChallengeResponse(with: other), now: now)
        try document.save()
        let withFirst = try CompositeKey(password: "correct horse", keyFileContents: nil, challengeResponse: ChallengeResponseKey(first))
        #expect(throws: CoreError(.wrongKey)) { try VaultDocument.open(url.path, key: withFirst) }

        // Removed: the password alone opens it again.
        document.changeKey(to: try document.key.replacingChallengeResponse(with: nil), now: now)
        try document.save()
        _ = try VaultDocument.open(url.path, key: try TestVaultFile.key())
    }

    @Test("a session unlocks with the app's responder and asks it again on save")
    func session() async throws {
        let dir = try TempDirectory()
        let hardwareKey = TestHardwareKey()
        let (url, _) = try writeVault(dir, hardwareKey, format: TestVaultFile.cheapFormat)
        let session = VaultSession(fileURL: url)
        await #expect(throws: CoreError(.wrongKey)) { try await session.unlock(password: "correct horse") }
        try await session.unlock(password: "correct horse", challengeResponder: hardwareKey)
        #expect(hardwareKey.challenges.count == 2)
        try await session.edit { vault, now in try vault.addGroup(named: "From the session", in: vault.root.uuid, now: now) }
        try await session.save()
        let saved = try challenge(of: url)
        #expect(hardwareKey.challenges.count == 3 && hardwareKey.challenges.last == saved)
    }

    @Test("the AutoFill cache: the app records each answer; the extension answers that challenge only, and opens the index with it")
    func autoFillCache() throws {
        let dir = try TempDirectory()
        let hardwareKey = TestHardwareKey()
        let (url, _) = try writeVault(dir, hardwareKey, format: TestVaultFile.cheapFormat)
        let store = InMemoryChallengeResponseStore()
        let vaultID = url.path
        let app = RecordingChallengeResponder(base: hardwareKey, store: store, vaultID: vaultID)
        let extensionSide = CachedChallengeResponder(store: store, vaultID: vaultID)
        let extensionKey = try CompositeKey(password: "correct horse", keyFileContents: nil,
                                            challengeResponse: ChallengeResponseKey(extensionSide))
        // Nothing recorded yet: the extension cannot open it.
        #expect(throws: CoreError.self) { try CredentialIndex.open(url.path, key: extensionKey) }

        // The app opens it with the key, then saves: the record follows the file's challenge.
        let appKey = try CompositeKey(password: "correct horse", keyFileContents: nil, challengeResponse: ChallengeResponseKey(app))
        var document = try VaultDocument.open(url.path, key: appKey)
        #expect(try store.record(forVault: vaultID)?.challenge == (try challenge(of: url)))
        try document.vault.addGroup(named: "From the app", in: document.vault.root.uuid, now: now)
        try document.save()
        let record = try #require(try store.record(forVault: vaultID))
        let saved = try challenge(of: url)
        #expect(record.challenge == saved && record.response.count == 20)

        // The extension opens the saved file from the record, with no hardware key.
        let asked = hardwareKey.challenges.count
        let opened = try CredentialIndex.open(url.path, key: extensionKey)
        #expect(opened.ranKDF && hardwareKey.challenges.count == asked)
        let fromSecret = try CredentialIndex.open(url.path, key: try CompositeKey(
            password: "correct horse", keyFileContents: nil, challengeResponse: .hmacSHA1(secret: TestHardwareKey.secret)))
        #expect(!opened.index.credentials.isEmpty)
        #expect(opened.index.credentials.map(\.title) == fromSecret.index.credentials.map(\.title))
        // It never answers another challenge (a save of its own draws one): fails closed.
        #expect(throws: CoreError(.noStoredCredential)) { try extensionSide.response(to: [UInt8](repeating: 1, count: 32)) }
        var fromExtension = try VaultDocument.open(url.path, key: extensionKey)
        try fromExtension.vault.addGroup(named: "From the extension", in: fromExtension.vault.root.uuid, now: now)
        let before = [UInt8](try Data(contentsOf: url))
        #expect(throws: CoreError.self) { try fromExtension.save() }
        #expect([UInt8](try Data(contentsOf: url)) == before)
        try store.delete(forVault: vaultID)
        #expect(try store.record(forVault: vaultID) == nil)
    }
}
