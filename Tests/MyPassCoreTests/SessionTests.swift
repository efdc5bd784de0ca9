import Foundation
import MyPassBytes
import MyPassCore
import MyPassCrypto
import MyPassKDBX
import Testing

/// A stream that masks nothing.
struct NoMask: ProtectedValueStream {
    mutating func apply(to bytes: inout [UInt8]) {}
}

/// A light codec for session tests: the file is SHA-256(password ‖ key file) followed by the
/// vault's XML body (KDBX 4.0 shape, nothing encrypted). A wrong key fails like KDBX's.
struct PlainTestCodec: VaultCodec {
    /// When set, `save` changes the notes of every entry, so that verification must fail.
    var corruptsOnSave = false

    func makeKey(_ credentials: VaultCredentials) throws -> SecureBytes {
        var hash = SHA256()
        if let password = credentials.password { password.withRevealedBytes { hash.update($0) } }
        if let keyFile = credentials.keyFileContents { keyFile.withUnsafeBytes { hash.update($0) } }
        return SecureBytes(hash.finalize())
    }

    func open(_ file: [UInt8], key: SecureBytes) throws -> Vault {
        guard file.count >= 32, SecureBytes(Array(file[0..<32])) == key else { throw KDBXError(.wrongKey) }
        var stream = NoMask()
        let body = try VaultXMLReader.read(Array(file[32...]), version: .v4_0, stream: &stream)
        return Vault(format: VaultFormat(), body: body)
    }

    func save(_ vault: Vault, key: SecureBytes) throws -> [UInt8] {
        var vault = vault
        if corruptsOnSave {
            vault.root.entries = vault.root.entries.map { var e = $0; e.notes += " (changed)"; return e }
        }
        var stream = NoMask()
        return key.unsafeArray + VaultXMLWriter.write(vault, version: .v4_0, stream: &stream)
    }

    func manifest(of vault: Vault) -> String { VaultManifest.json(of: vault) }
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
        var vault = SampleVault().vault
        vault.format = VaultFormat()
        let codec = PlainTestCodec()
        let url = dir.file("vault.kdbx")
        let bytes = try codec.save(vault, key: try codec.makeKey(VaultCredentials(password: password)))
        try Data(bytes).write(to: url)
        vault = try codec.open(bytes, key: try codec.makeKey(VaultCredentials(password: password)))
        return (url, vault)
    }

    @Test func unlockAndLock() async throws {
        let dir = try TempDirectory()
        let (url, expected) = try makeVaultFile(in: dir)
        let session = VaultSession(fileURL: url, codec: PlainTestCodec())
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
        let session = VaultSession(fileURL: URL(fileURLWithPath: "/nonexistent/mypass/vault.kdbx"), codec: PlainTestCodec())
        await #expect(throws: CoreError(.io)) { try await session.unlock(password: "x") }
    }

    @Test func autoLockAfterIdleTimeout() async throws {
        let dir = try TempDirectory()
        let (url, _) = try makeVaultFile(in: dir)
        let clock = ManualClock(start: t0)
        let session = VaultSession(fileURL: url, codec: PlainTestCodec(), autoLockSeconds: 60, clock: clock)
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
        let session = VaultSession(fileURL: url, codec: PlainTestCodec(), credentialStore: store)
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
        let bare = VaultSession(fileURL: url, codec: PlainTestCodec())
        await #expect(throws: CoreError(.noStoredCredential)) {
            try await bare.unlock(password: "correct horse", rememberCredentials: true)
        }
    }

    @Test func editAndSaveRoundTrip() async throws {
        let dir = try TempDirectory()
        let (url, _) = try makeVaultFile(in: dir)
        let clock = ManualClock(start: t0)
        let session = VaultSession(fileURL: url, codec: PlainTestCodec(), clock: clock)
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
        let other = VaultSession(fileURL: url, codec: PlainTestCodec())
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
        let session = VaultSession(fileURL: url, codec: PlainTestCodec(corruptsOnSave: true))
        try await session.unlock(password: "correct horse")
        try await session.edit { vault, now in try vault.editEntry(vault.root.entries[0].uuid, now: now) { $0.notes = "x" } }
        let before = try Data(contentsOf: url)
        await #expect(throws: CoreError(.verificationFailed)) { try await session.save() }
        #expect(try Data(contentsOf: url) == before)
        #expect(dir.contents == ["vault.kdbx"])
        #expect(await session.hasUnsavedChanges)
    }

    @Test func concurrentEditsAreSerialised() async throws {
        let dir = try TempDirectory()
        let (url, _) = try makeVaultFile(in: dir)
        let session = VaultSession(fileURL: url, codec: PlainTestCodec())
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

@Suite("Safe save")
struct SafeSaveTests {
    func mode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func replacesAtomicallyKeepingPermissions() throws {
        let dir = try TempDirectory()
        let url = dir.file("v.kdbx")
        try Data([1, 2, 3]).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: url.path)
        var seen: [UInt8] = []
        try SafeSave.write([4, 5, 6, 7], to: url) { seen = $0 }
        #expect(seen == [4, 5, 6, 7])
        #expect(try Data(contentsOf: url) == Data([4, 5, 6, 7]))
        #expect(try mode(url) == 0o640)
        #expect(dir.contents == ["v.kdbx"])
    }

    @Test func newFilesArePrivate() throws {
        let dir = try TempDirectory()
        let url = dir.file("new.kdbx")
        try SafeSave.write(Array(repeating: 0xAB, count: 100_000), to: url) { _ in }
        #expect(try Data(contentsOf: url).count == 100_000)
        #expect(try mode(url) == 0o600)
    }

    @Test func refusedVerificationKeepsTheOriginal() throws {
        struct Refused: Error {}
        let dir = try TempDirectory()
        let url = dir.file("v.kdbx")
        try Data([9, 9]).write(to: url)
        do {
            try SafeSave.write([1], to: url) { _ in throw Refused() }
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .verificationFailed)
            #expect(error.underlying is Refused)
        }
        #expect(try Data(contentsOf: url) == Data([9, 9]))
        #expect(dir.contents == ["v.kdbx"])
    }

    @Test func missingDirectoryIsAnIOError() {
        let url = URL(fileURLWithPath: "/nonexistent-mypass-dir/v.kdbx")
        #expect(throws: CoreError(.io)) { try SafeSave.write([1], to: url) { _ in } }
    }
}
