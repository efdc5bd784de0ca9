import Foundation
import MyPassBytes
import MyPassCore
import MyPassCrypto
import MyPassKDBX
import Testing

/// A sample vault written as a real KDBX 4 file with a cheap AES-KDF (100 rounds), for tests
/// that open and save many times.
enum TestVaultFile {
    static let cheapFormat = VaultFormat(version: .v4_0, kdf: .aes(rounds: 100))

    /// Writes `vault` (the sample vault by default) to `url` with `password`; returns the vault as
    /// read back.
    @discardableResult
    static func write(_ vault: Vault = SampleVault().vault, to url: URL, password: ProtectedString = "correct horse",
                      format: VaultFormat = cheapFormat) throws -> Vault {
        var vault = vault
        vault.format = format
        let key = try CompositeKey(password: password, keyFileContents: nil)
        let bytes = try KDBXCodec.save(vault, key: key)
        try Data(bytes).write(to: url)
        return try KDBXCodec.open(bytes, key: key)
    }

    static func key(_ password: ProtectedString = "correct horse") throws -> CompositeKey {
        try CompositeKey(password: password, keyFileContents: nil)
    }
}

/// A temporary directory removed at the end of a test.
final class TempDirectory {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("mypass-core-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    func file(_ name: String) -> URL { url.appendingPathComponent(name) }
    var contents: [String] { (try? FileManager.default.contentsOfDirectory(atPath: url.path).sorted()) ?? [] }
}

@Suite("Vault session")
struct SessionTests {
    let t0 = SampleVault.t0

    func makeVaultFile(in dir: TempDirectory, password: ProtectedString = "correct horse") throws -> (URL, Vault) {
        let url = dir.file("vault.kdbx")
        let vault = try TestVaultFile.write(to: url, password: password)
        return (url, vault)
    }

    @Test func unlockAndLock() async throws {
        let dir = try TempDirectory()
        let (url, expected) = try makeVaultFile(in: dir)
        let session = VaultSession(fileURL: url)
        #expect(await session.isLocked)
        await #expect(throws: CoreError(.locked)) { try await session.currentVault() }
        await #expect(throws: CoreError(.wrongKey)) { try await session.unlock(password: "wrong") }
        #expect(await session.isLocked)
        try await session.unlock(password: "correct horse")
        #expect(await !session.isLocked)
        let vault = try await session.currentVault()
        #expect(VaultManifest.json(of: vault) == VaultManifest.json(of: expected))
        #expect(vault.allEntries.count == 8)
        await session.lock()
        #expect(await session.isLocked)
        await #expect(throws: CoreError(.locked)) { try await session.currentVault() }
        await #expect(throws: CoreError(.locked)) { try await session.save() }
    }

    @Test func missingFileIsAnIOError() async {
        let session = VaultSession(fileURL: URL(fileURLWithPath: "/nonexistent/mypass/vault.kdbx"))
        await #expect(throws: CoreError(.io)) { try await session.unlock(password: "x") }
    }

    @Test func autoLockAfterIdleTimeout() async throws {
        let dir = try TempDirectory()
        let (url, _) = try makeVaultFile(in: dir)
        let clock = ManualClock(start: t0)
        let session = VaultSession(fileURL: url, autoLockSeconds: 60, clock: clock)
        try await session.unlock(password: "correct horse")
        clock.advance(bySeconds: 59)
        _ = try await session.currentVault()   // activity resets the timer
        clock.advance(bySeconds: 59)
        #expect(await !session.lockIfIdle())
        clock.advance(bySeconds: 1)
        #expect(await session.lockIfIdle())
        await #expect(throws: CoreError(.locked)) { try await session.currentVault() }
        // Without a timeout the session stays open.
        await session.setAutoLock(seconds: nil)
        try await session.unlock(password: "correct horse")
        clock.advance(bySeconds: 1_000_000)
        #expect(await !session.isLocked)
    }

    @Test func storedCredentials() async throws {
        let dir = try TempDirectory()
        let (url, _) = try makeVaultFile(in: dir)
        let store = InMemoryCredentialStore()
        let session = VaultSession(fileURL: url, credentialStore: store)
        await #expect(throws: CoreError(.noStoredCredential)) { try await session.unlockWithStoredCredentials() }
        try await session.unlock(password: "correct horse", rememberCredentials: true)
        #expect(store.count == 1)
        #expect(try store.credentials(forVault: session.vaultID)?.password == "correct horse")
        await session.lock()
        try await session.unlockWithStoredCredentials()
        #expect(await !session.isLocked)
        try await session.forgetStoredCredentials()
        #expect(store.count == 0)
        await session.lock()
        await #expect(throws: CoreError(.noStoredCredential)) { try await session.unlockWithStoredCredentials() }
        // A session without a store cannot remember.
        let bare = VaultSession(fileURL: url)
        await #expect(throws: CoreError(.noStoredCredential)) {
            try await bare.unlock(password: "correct horse", rememberCredentials: true)
        }
    }

    @Test func editAndSaveRoundTrip() async throws {
        let dir = try TempDirectory()
        let (url, _) = try makeVaultFile(in: dir)
        let clock = ManualClock(start: t0)
        let session = VaultSession(fileURL: url, clock: clock)
        try await session.unlock(password: "correct horse")
        #expect(await !session.hasUnsavedChanges)
        clock.advance(bySeconds: 3600)
        let uuid = try await session.edit { vault, now in
            var entry = Entry()
            entry.title = "Saved Entry"
            entry.password = "s3cret"
            return try vault.addEntry(entry, to: vault.root.uuid, now: now)
        }
        #expect(await session.hasUnsavedChanges)
        let before = try Data(contentsOf: url)
        try await session.save()
        #expect(await !session.hasUnsavedChanges)
        #expect(try Data(contentsOf: url) != before)
        #expect(dir.contents == ["vault.kdbx"])
        let other = VaultSession(fileURL: url)
        try await other.unlock(password: "correct horse")
        let reopened = try #require(try await other.currentVault().entry(withUUID: uuid))
        #expect(reopened.title == "Saved Entry")
        #expect(reopened.password.revealed == "s3cret")
        #expect(reopened.times.creation == KDBXTime(secondsSinceEpoch: t0.secondsSinceEpoch + 3600))
        // A failing edit changes nothing.
        await #expect(throws: CoreError(.notFound)) {
            try await session.edit { vault, now in try vault.deleteEntry(.random(), now: now) }
        }
        #expect(await !session.hasUnsavedChanges)
    }

    @Test func failedVerificationLeavesTheOriginal() async throws {
        let dir = try TempDirectory()
        let (url, _) = try makeVaultFile(in: dir)
        let faulty = FaultyFileSystem()
        let session = VaultSession(fileURL: url, options: VaultDocument.Options(fileSystem: faulty))
        try await session.unlock(password: "correct horse")
        try await session.edit { vault, now in try vault.editEntry(vault.root.entries[0].uuid, now: now) { $0.notes = "x" } }
        let before = try Data(contentsOf: url)
        faulty.corruptsWrites = true
        await #expect(throws: CoreError(.verificationFailed)) { try await session.save() }
        #expect(try Data(contentsOf: url) == before)
        #expect(dir.contents == ["vault.kdbx"])
        #expect(await session.hasUnsavedChanges)
    }

    @Test func rememberingWithoutAStoreFailsBeforeUnlocking() async throws {
        let dir = try TempDirectory()
        let (url, _) = try makeVaultFile(in: dir)
        let session = VaultSession(fileURL: url)
        await #expect(throws: CoreError(.noStoredCredential)) {
            try await session.unlock(password: "correct horse", rememberCredentials: true)
        }
        #expect(await session.isLocked)
    }

    @Test func afterASaveTheSessionHoldsWhatWasWritten() async throws {
        let dir = try TempDirectory()
        let url = dir.file("v31.kdbx")
        try TestVaultFile.write(to: url, format: VaultFormat(version: .v3_1, cipher: .twofish, kdf: .aes(rounds: 100)))
        let session = VaultSession(fileURL: url)
        try await session.unlock(password: "correct horse")
        try await session.edit { vault, now in try vault.addGroup(named: "New", in: vault.root.uuid, now: now) }
        let report = try await session.save()
        #expect(report.version == .v3_1)
        #expect(report.raisedFrom == nil)
        let held = try await session.currentVault()
        let reread = try KDBXCodec.open([UInt8](try Data(contentsOf: url)), key: try TestVaultFile.key())
        #expect(held == reread)
        #expect(held.format.cipher == .twofish)
        #expect(await !session.hasUnsavedChanges)
    }

    @Test func concurrentEditsAreSerialised() async throws {
        let dir = try TempDirectory()
        let (url, _) = try makeVaultFile(in: dir)
        let session = VaultSession(fileURL: url)
        try await session.unlock(password: "correct horse")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<50 {
                group.addTask {
                    try await session.edit { vault, now in
                        var entry = Entry()
                        entry.title = "Task \(i)"
                        try vault.addEntry(entry, to: vault.root.uuid, now: now)
                    }
                }
            }
            try await group.waitForAll()
        }
        let titles = Set(try await session.currentVault().root.entries.map(\.title))
        #expect(titles.count == 51)
        #expect((0..<50).allSatisfy { titles.contains("Task \($0)") })
    }
}

/// Progress fractions collected from another task.
final class Reports: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Double] = []
    func add(_ value: Double) { lock.withLock { items.append(value) } }
    var values: [Double] { lock.withLock { items } }
    var count: Int { lock.withLock { items.count } }
}
