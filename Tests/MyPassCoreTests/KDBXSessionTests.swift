import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX
import MyPassTestSupport
import Testing

/// End-to-end: vaults written by KeePass 2.47, opened, listed, edited and saved through a session.
@Suite("KDBX session on KeePass vaults")
struct KDBXSessionTests {
    static let password: ProtectedString = "correct horse battery staple"
    let time = KDBXTime(unixSeconds: 1_700_000_000)

    /// Copies `Vectors/kdbx/keepass/<name>` (the KeePass 2.47 fixtures) into a fresh temporary directory.
    func copy(_ name: String, to dir: TempDirectory) throws -> URL {
        let url = dir.file(name)
        try Data(try TestVectors.bytes("kdbx/keepass/" + name)).write(to: url)
        return url
    }

    @Test func listSearchTOTPAndMatchingOnARealVault() async throws {
        let dir = try TempDirectory()
        let url = try copy("kdbx4-aes-argon2d-p1.kdbx", to: dir)
        let session = KDBXVaultSession(fileURL: url)
        await #expect(throws: CoreError(.wrongKey)) { try await session.unlock(password: "Correct horse battery staple") }
        try await session.unlock(password: KDBXSessionTests.password)
        let vault = try await session.currentVault()
        let flat = vault.flatEntries
        #expect(flat.count == 28)
        #expect(flat.filter { $0.breadcrumb == ["Personal", "Banking", "Cards & \"Stuff\" <x>"] }.map(\.entry.title) == ["Visa"])
        let visible = EntryList.displayedEntries(flat, filter: GroupFilter(), searchText: "")
        #expect(visible.count == 27)
        #expect(!visible.contains { $0.breadcrumb == ["Recycle Bin"] })
        #expect(EntryList.displayedEntries(flat, filter: GroupFilter(), searchText: "2FA").map(\.entry.title) == ["GitHub"])

        let github = try #require(flat.first { $0.entry.title == "GitHub" }).entry
        #expect(try github.otpParameters().map { TOTPGenerator.code(for: $0, unixTime: 1_700_000_000).value } == "324550")
        let visa = try #require(flat.first { $0.entry.title == "Visa" }).entry
        let visaOTP = try #require(try visa.otpParameters())
        #expect(visaOTP.algorithm == .sha256)
        #expect(visaOTP.storage == .keePassTimeOtp)
        let code = TOTPGenerator.code(for: visaOTP, unixTime: 1_700_000_000)
        #expect(code.value == "34855935")
        #expect(code.secondsRemaining == 40)

        let matches = CredentialMatcher().match(serviceIdentifier: "https://github.com", in: flat)
        #expect(matches.suggested.first?.entry.title == "GitHub")
        #expect(matches.suggested.count + matches.others.count == 28)
    }

    @Test(arguments: ["kdbx4-aes-argon2d-p1.kdbx", "kdbx31-aes-aeskdf.kdbx"])
    func editSaveAndReopen(_ name: String) async throws {
        let dir = try TempDirectory()
        let url = try copy(name, to: dir)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: url.path)
        let clock = ManualClock(start: time)
        let session = KDBXVaultSession(fileURL: url, clock: clock)
        try await session.unlock(password: KDBXSessionTests.password)
        let before = try await session.currentVault()
        let github = try #require(before.allEntries.first { $0.title == "GitHub" }).uuid
        let historyCount = try #require(before.entry(withUUID: github)).history.count
        let added = try await session.edit { vault, now in
            try vault.editEntry(github, now: now) { $0.password = "n3w-Pass!" }
            var entry = Entry()
            entry.title = "Added by MyPass"
            entry.url = "https://mypass.example"
            let uuid = try vault.addEntry(entry, to: vault.root.uuid, now: now)
            try vault.deleteEntry(uuid, now: now)
            return uuid
        }
        try await session.save()
        #expect(dir.contents == [name])
        #expect((try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue == 0o640)

        let other = KDBXVaultSession(fileURL: url)
        try await other.unlock(password: KDBXSessionTests.password)
        let reopened = try await other.currentVault()
        #expect(reopened.format.version == before.format.version)
        let edited = try #require(reopened.entry(withUUID: github))
        #expect(edited.password.revealed == "n3w-Pass!")
        #expect(edited.history.count == min(historyCount + 1, reopened.meta.historyMaxItems))
        #expect(edited.history.last?.password.revealed == "gh-Curr3nt!pass")
        #expect(edited.times.lastModification == time)
        #expect(reopened.isEntryInRecycleBin(added))
        #expect(reopened.allEntries.count == 29)
    }

    @Test func keyFileAndStoredCredentials() async throws {
        let dir = try TempDirectory()
        let url = try copy("kdbx4-pw-keyfile-v2.kdbx", to: dir)
        let keyFile = try copy("keyfile-v2.keyx", to: dir)
        let store = InMemoryCredentialStore()
        let session = KDBXVaultSession(fileURL: url, credentialStore: store)
        await #expect(throws: CoreError(.wrongKey)) { try await session.unlock(password: KDBXSessionTests.password) }
        try await session.unlock(password: KDBXSessionTests.password, keyFileURL: keyFile, rememberCredentials: true)
        #expect(try await session.currentVault().allEntries.count == 28)
        await session.lock()
        #expect(await session.isLocked)
        try await session.unlockWithStoredCredentials()
        #expect(try await session.currentVault().allEntries.count == 28)
        await #expect(throws: CoreError(.io)) {
            try await session.unlock(password: KDBXSessionTests.password, keyFileURL: dir.file("missing.key"))
        }
    }
}
