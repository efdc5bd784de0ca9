import Foundation
import MyPassCore
import Testing

// This target depends on MyPassCore alone and imports nothing else of the package: it proves that
// `import MyPassCore` gives an app `ProtectedString`, `SecureBytes`, `CompositeKey`, the vault
// model and `KDBXTime` (re-exported), and it runs the steps of the DocC article
// (MyPassCore.docc/BuildingAnApp.md) with the same calls.

/// Vectors/demo/demo.kdbx (password "demo"), found from this file.
private let demoVault = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Vectors/demo/demo.kdbx")

/// A copy of the demo vault in a temporary folder (the article saves it).
private func scratchCopy() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mypass-app-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let copy = folder.appendingPathComponent("demo.kdbx")
    try FileManager.default.copyItem(at: demoVault, to: copy)
    return copy
}

@Suite struct AppWalkthroughTests {
    @Test func secretTypesComeWithMyPassCore() {
        let password = ProtectedString("demo")
        #expect(password == ProtectedString(utf8Bytes: Array("demo".utf8)))
        let bytes = SecureBytes([1, 2, 3])
        #expect(bytes == SecureBytes([1, 2, 3]))
        #expect(bytes.count == 3)
    }

    @Test func openListMatchEditSaveAndReopen() throws {
        let file = try scratchCopy()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }

        // Open (first telling the crypto code what this CPU offers, as an app does at launch).
        SystemPlatform.install()
        let key = try CompositeKey(password: ProtectedString("demo"), keyFileContents: nil)
        var document = try VaultDocument.open(file.path, key: key)

        // List.
        let entries = document.vault.flatEntries
        #expect(entries.map { $0.breadcrumbText(separator: "/") + "/" + $0.entry.title } == [
            "/Welcome", "Work/GitHub", "Work/Jira", "Work/Email/Company Mail",
            "Personal/Example Bank", "Personal/Home Wi-Fi", "Personal/Dropbox",
        ])
        let found = EntryList.displayedEntries(entries, filter: GroupFilter(), searchText: "jira")
        #expect(found.map(\.entry.title) == ["Jira"])

        // Match.
        let matches = CredentialMatcher().match(serviceIdentifier: "https://github.com/login", in: entries)
        #expect(matches.suggested.map(\.entry.title) == ["GitHub"])

        // Edit.
        let jira = try #require(found.first).entry.uuid
        var patch = EntryPatch()
        patch.title = "Jira Cloud"
        patch.password = ProtectedString("new secret")
        let now = SystemClock().now()
        let changed = try document.edit { (vault: inout Vault) throws(CoreError) in
            try vault.editEntry(jira, applying: patch, now: now)
        }
        #expect(changed)
        #expect(document.hasUnsavedChanges)

        // Save.
        let report = try document.save()
        #expect(report.merged == nil && report.warnings.isEmpty)
        #expect(!document.hasUnsavedChanges)

        // Quick reopen: the transformed key of this unlock, so no KDF runs.
        let counter = KDFRuns()
        let reopened = try VaultDocument.open(file.path, key: key, cachedKey: document.cachedKey,
                                              options: VaultDocument.Options(keyDerivation: counter.derivation))
        #expect(counter.count == 0)
        let entry = try #require(reopened.vault.flatEntries.first { $0.entry.uuid == jira }).entry
        #expect(entry.title == "Jira Cloud")
        #expect(entry.password == ProtectedString("new secret"))
    }

    @Test func sessionLocksAndUnlocks() async throws {
        let file = try scratchCopy()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let session = VaultSession(fileURL: file, autoLockSeconds: 300)
        #expect(await session.isLocked)
        try await session.unlock(password: ProtectedString("demo"))
        #expect(try await session.currentVault().flatEntries.count == 7)
        await session.lock()
        #expect(await session.isLocked)
        var failure: CoreError?
        do throws(CoreError) { _ = try await session.currentVault() } catch { failure = error }
        #expect(failure?.code == .locked)
    }
}

/// Counts the KDF runs (the seam ``VaultDocument/Options/keyDerivation``).
private final class KDFRuns: @unchecked Sendable {
    private let lock = NSLock()
    private var runs = 0
    var count: Int { lock.withLock { runs } }
    var derivation: KeyDerivation {
        KeyDerivation { key, kdf, limits, progress throws(KDBXError) in
            self.lock.withLock { self.runs += 1 }
            return try KeyDerivation.standard.transform(key, kdf, limits, progress)
        }
    }
}
