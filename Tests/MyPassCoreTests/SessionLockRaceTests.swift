import Foundation
import MyPassBytes
import MyPassCore
import MyPassCrypto
import MyPassKDBX
import Testing

/// A point of the KDF seam where a derivation stops until the test lets it go on.
final class KDFCheckpoints: @unchecked Sendable {
    enum Point: Int, CaseIterable, Sendable {
        /// The KDF was entered (the file was read and its header parsed).
        case start
        /// The KDF reported progress (half way).
        case progress
        /// The key was derived; the payload is not decrypted yet.
        case end
    }

    private let condition = NSCondition()
    private let stopAt: Point?
    private var reached = false
    private var released = false

    /// Checkpoints that stop at `point` (none: `nil`).
    init(stopAt point: Point?) { stopAt = point }

    /// The standard KDF with the three points around and inside it.
    var keyDerivation: KeyDerivation {
        KeyDerivation { [self] (key, kdf, limits, progress) throws(KDBXError) in
            arrive(.start)
            if progress?(0.5) == false { throw KDBXError(.cancelled, "cancelled") }
            arrive(.progress)
            let derived = try MasterKeys.transform(compositeKey: key, kdf: kdf, limits: limits, progress: nil)
            arrive(.end)
            return derived
        }
    }

    /// Stops at the point until released. This blocks the thread running the KDF (the session's
    /// own KDF thread, outside the cooperative pool, as the real KDF holds it for seconds); bounded
    /// at 10 minutes so that a lost release ends in a failure, never a hang. (When the session ran
    /// the KDF on the cooperative pool, a full test run on two cores starved the test's own task:
    /// the stopped KDF held one of the pool's two threads and other tests' synchronous waits the
    /// other, until the bound let the KDF go on before the lock came, and the unlock won.)
    private func arrive(_ point: Point) {
        guard point == stopAt else { return }
        condition.lock()
        reached = true
        condition.broadcast()
        let deadline = Date(timeIntervalSinceNow: 600)
        while !released && condition.wait(until: deadline) {}
        condition.unlock()
    }

    /// Waits (bounded: 10 minutes, polling) until the derivation stopped at its point.
    func waitUntilReached() async throws {
        let deadline = ContinuousClock.now + .seconds(600)
        while !condition.withLock({ reached }) {
            guard ContinuousClock.now < deadline else { throw CoreError(.io, "the KDF never reached its checkpoint") }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    /// Lets the stopped derivation go on.
    func release() {
        condition.withLock {
            released = true
            condition.broadcast()
        }
    }
}

/// Serialized: the cancelled KDF's slowed derivation and the stopped ones run one at a time.
@Suite("Vault session: a lock during an unlock, and a cancelled KDF", .serialized)
struct SessionLockRaceTests {
    /// The KDF runs on a thread of its own, not on the cooperative pool, whose threads (one per
    /// core) a KDF of seconds would take from every other task.
    @Test func theKDFRunsOnAThreadOfItsOwn() async throws {
        let dir = try TempDirectory()
        let url = dir.file("vault.kdbx")
        try TestVaultFile.write(to: url)
        let names = ThreadNames()
        let recording = KeyDerivation { (key, kdf, limits, progress) throws(KDBXError) in
            // The kernel's name of the thread (Foundation's `Thread.current.name` can miss it on Linux).
            #if os(Linux)
            let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            names.add(name.trimmingCharacters(in: .newlines))
            #else
            names.add(Thread.current.name ?? "")
            #endif
            return try KeyDerivation.standard.transform(key, kdf, limits, progress)
        }
        let session = VaultSession(fileURL: url, options: VaultDocument.Options(keyDerivation: recording))
        try await session.unlock(password: "correct horse")
        #expect(names.values == ["MyPass KDF"])
        // A copy's read (the merge of a conflict copy) too.
        try await session.mergeCopy(at: url.path)
        #expect(names.values == ["MyPass KDF", "MyPass KDF"])
    }

    final class ThreadNames: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func add(_ value: String) { lock.withLock { items.append(value) } }
        var values: [String] { lock.withLock { items } }
    }

    @Test func theKDFReportsProgressAndStopsWhenTheTaskIsCancelled() async throws {
        let dir = try TempDirectory()
        let url = dir.file("slow.kdbx")
        try TestVaultFile.write(to: url, format: VaultFormat(version: .v3_1, kdf: .aes(rounds: 100)))
        // KDBX 3.1 header field 6 (TransformRounds, u64) raised to the default cap (200,000,000,
        // KDBXLimits.maxAESKDFRounds; above it the open is refused before the KDF): many seconds of KDF.
        var bytes = [UInt8](try Data(contentsOf: url))
        var offset = 12
        while bytes[offset] != 6 {
            offset += 3 + Int(bytes[offset + 1]) + Int(bytes[offset + 2]) << 8
        }
        withUnsafeBytes(of: KDBXLimits.defaultMaxAESKDFRounds.littleEndian) { bytes.replaceSubrange((offset + 3)..<(offset + 11), with: $0) }
        try Data(bytes).write(to: url)
        // The real KDF, slowed as on a slow device (10 ms more per progress report, about 12,000
        // reports: 20 % is 24 s, time enough for a starved test task to cancel): with the CPU's AES instructions 200 million rounds take only a few seconds, which
        // a loaded machine can spend before this task gets to cancel.
        let slowed = KeyDerivation { (key, kdf, limits, progress) throws(KDBXError) in
            try KeyDerivation.standard.transform(key, kdf, limits) { fraction in
                usleep(10_000)
                return progress?(fraction) ?? true
            }
        }
        let session = VaultSession(fileURL: url, options: VaultDocument.Options(keyDerivation: slowed))
        let reports = Reports()
        let ended = Reports()
        let task = Task {
            defer { ended.add(1) }
            try await session.unlock(password: "correct horse") { reports.add($0) }
        }
        // An unlock refused at once (a limit) reports nothing: stop waiting and let the checks fail.
        while reports.count < 2 && ended.count == 0 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(ended.count == 0, "the unlock ended before the KDF reported progress")
        let reportedBeforeCancel = reports.count
        task.cancel()
        await #expect(throws: CoreError(.cancelled)) { try await task.value }
        #expect(await session.isLocked)
        let fractions = reports.values
        #expect(fractions == fractions.sorted())
        #expect(fractions.allSatisfy { $0 >= 0 && $0 < 1 })
        // The KDF stops at its next report after the cancel (a report already under way may still
        // arrive), however long this task waited for a thread before it could cancel.
        #expect(fractions.count - reportedBeforeCancel <= 2, "\(fractions.count - reportedBeforeCancel) reports after the cancel")
        // Calls on the actor were served while the KDF ran (it runs off the actor).
    }

    enum Path: CaseIterable { case password, storedCredentials, remembering }

    @Test(arguments: KDFCheckpoints.Point.allCases, Path.allCases)
    func aLockAtAnyPointOfTheKDFWins(point: KDFCheckpoints.Point, path: Path) async throws {
        let dir = try TempDirectory()
        let url = dir.file("vault.kdbx")
        try TestVaultFile.write(to: url)
        let checkpoints = KDFCheckpoints(stopAt: point)
        let store = InMemoryCredentialStore()
        if path == .storedCredentials {
            try store.save(VaultCredentials(password: "correct horse"), forVault: url.standardizedFileURL.path)
        }
        let session = VaultSession(fileURL: url, options: VaultDocument.Options(keyDerivation: checkpoints.keyDerivation),
                                   credentialStore: store)
        let unlock = Task {
            switch path {
            case .password: try await session.unlock(password: "correct horse")
            case .storedCredentials: try await session.unlockWithStoredCredentials()
            case .remembering: try await session.unlock(password: "correct horse", rememberCredentials: true)
            }
        }
        try await checkpoints.waitUntilReached()
        // The actor serves the lock while the KDF runs off it.
        await session.lock()
        checkpoints.release()
        await #expect(throws: CoreError(.locked)) { try await unlock.value }
        #expect(await session.isLocked)
        await #expect(throws: CoreError(.locked)) { try await session.currentVault() }
        // Nothing was remembered by the unlock that lost.
        #expect(store.count == (path == .storedCredentials ? 1 : 0))

        // The next unlock is not affected by the earlier lock.
        let next = VaultSession(fileURL: url, options: VaultDocument.Options(keyDerivation: KDFCheckpoints(stopAt: nil).keyDerivation))
        try await next.unlock(password: "correct horse")
        #expect(try await next.currentVault().root.entries.isEmpty == false)
        try await session.unlock(password: "correct horse")
        #expect(await !session.isLocked)
    }

    @Test func aLockBeforeTheUnlockStartsDoesNotBlockIt() async throws {
        let dir = try TempDirectory()
        let url = dir.file("vault.kdbx")
        let expected = try TestVaultFile.write(to: url)
        let session = VaultSession(fileURL: url)
        await session.lock()
        try await session.unlock(password: "correct horse")
        #expect(try await session.currentVault() == expected)
    }
}
