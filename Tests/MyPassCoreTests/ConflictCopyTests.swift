import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX
import Testing

/// The conflict-copy patterns of sync engines, found beside a vault on every open (one listing, no
/// copy read), merged through `VaultDocument` and `VaultSession`.
@Suite("Conflict copies")
struct ConflictCopyTests {
    let now = KDBXTime(unixSeconds: 1_800_000_000)

    @Test func patterns() {
        let vault = "Passwords.kdbx"
        let matches: [(String, ConflictCopy.Engine)] = [
            ("Passwords.sync-conflict-20261204-101010-ABCDEF7.kdbx", .syncthing),
            ("Passwords.sync-conflict-20261204-101010.kdbx", .syncthing),
            ("Passwords (conflicted copy).kdbx", .dropbox),
            ("Passwords (conflicted copy 2026-12-04).kdbx", .dropbox),
            ("Passwords (Sam's conflicted copy 2026-12-04).kdbx", .dropbox),
            ("Passwords (Sam\u{2019}s conflicted copy 2026-12-04).kdbx", .dropbox),
            ("Passwords (Sam's conflicted copy 2026-12-04) (1).kdbx", .dropbox),
            ("Passwords (conflicted copy 2026-12-04 101010).kdbx", .nextcloud),
            ("Passwords.Conflict.kdbx", .resilio),
            ("Passwords.Conflict (2).kdbx", .resilio),
            ("Passwords.mypass-conflict-20261204-101010-0a1b2c3d.kdbx", .myPass),
            ("Passwords-LAPTOP.kdbx", .oneDrive),
            ("Passwords-DESKTOP-4F2A.kdbx", .oneDrive),
            ("Passwords 2.kdbx", .iCloud),
            ("Passwords 13.kdbx", .iCloud),
        ]
        for (name, engine) in matches {
            #expect(ConflictCopy.engine(ofCopyNamed: name, vaultName: vault) == engine, "\(name)")
        }
        let others = [
            "Passwords.kdbx", "Passwords.kdbx.bak", "Passwords.sync-conflict-2026-101010-ABCDEF7.kdbx",
            "Passwords.sync-conflict-20261204-101010-abc.kdbx", "Passwords (copy).kdbx", "Passwords (conflicted copy 2026).kdbx",
            "Passwords 1.kdbx", "Passwords 02.kdbx", "Passwords x.kdbx", "Passwords-.kdbx", "Passwords-my old.kdbx",
            "Passwords.Conflict.txt", "Passwords.sync-conflict-20261204-101010-ABCDEF7.kdbx.tmp", "Other.Conflict.kdbx",
            ".Passwords.kdbx.mypass-0123456789abcdef.tmp", "Passwords.mypass-conflict-20261204-101010.kdbx",
            "Passwords (conflicted copy 2026-12-04) extra.kdbx",
        ]
        for name in others {
            #expect(ConflictCopy.engine(ofCopyNamed: name, vaultName: vault) == nil, "\(name)")
        }
        #expect(ConflictCopy.Engine.allCases.filter { !$0.isUnambiguous } == [.oneDrive, .iCloud])
    }

    func makeVault(in dir: TempDirectory) throws -> URL {
        let url = dir.file("v.kdbx")
        try TestVaultFile.write(to: url)
        return url
    }

    /// A copy of the vault at `url` under `name` with a group added.
    func copy(_ url: URL, as name: String, adding group: String) throws -> URL {
        let target = url.deletingLastPathComponent().appendingPathComponent(name)
        var vault = try KDBXCodec.open([UInt8](try Data(contentsOf: url)), key: try TestVaultFile.key())
        try vault.addGroup(named: group, in: vault.root.uuid, now: now)
        try Data(try KDBXCodec.save(vault, key: try TestVaultFile.key())).write(to: target)
        return target
    }

    @Test("found on every open through the file-system seam, without reading a copy")
    func foundOnOpen() throws {
        let dir = try TempDirectory()
        let url = try makeVault(in: dir)
        _ = try copy(url, as: "v.sync-conflict-20261204-101010-ABCDEF7.kdbx", adding: "A")
        _ = try copy(url, as: "v 2.kdbx", adding: "B")
        let faulty = FaultyFileSystem()
        let document = try VaultDocument.open(url.path, key: try TestVaultFile.key(), options: VaultDocument.Options(fileSystem: faulty))
        #expect(document.conflictCopies.map(\.name) == ["v 2.kdbx", "v.sync-conflict-20261204-101010-ABCDEF7.kdbx"])
        #expect(document.conflictCopies.map(\.engine) == [.iCloud, .syncthing])
        #expect(faulty.count(.readFile) == 1, "only the vault is read")
        #expect(faulty.count(.contentsOfDirectory) == 1, "one listing for stale files and conflict copies")
        #expect(try ConflictCopy.list(of: url.path, fileSystem: faulty) == document.conflictCopies)
        // Through a symbolic link: the copies beside the real file.
        let link = dir.file("link.kdbx")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: url)
        #expect(try ConflictCopy.list(of: link.path).map(\.name) == document.conflictCopies.map(\.name))
        // The AutoFill index's open finds them too.
        let opened = try CredentialIndex.open(url.path, key: try TestVaultFile.key())
        #expect(opened.conflictCopies == document.conflictCopies)
    }

    @Test("merged into the model, saved once, removed; another vault, another key and ordinary names are refused")
    func mergeAndRemove() throws {
        let dir = try TempDirectory()
        let url = try makeVault(in: dir)
        let syncthing = try copy(url, as: "v.sync-conflict-20261204-101010-ABCDEF7.kdbx", adding: "From Syncthing")
        let icloud = try copy(url, as: "v 2.kdbx", adding: "From iCloud")
        var document = try VaultDocument.open(url.path, key: try TestVaultFile.key())
        let result = try document.mergeCopy(at: syncthing.path)
        #expect(result.changes.map { "\($0.kind.rawValue) \($0.object.rawValue) \($0.path.joined(separator: "/"))" }
            .contains("added group From Syncthing"))
        try document.mergeCopy(at: icloud.path)
        try document.save()
        let saved = try KDBXCodec.open([UInt8](try Data(contentsOf: url)), key: try TestVaultFile.key())
        #expect(Set(saved.root.groups.map(\.name)).isSuperset(of: ["From Syncthing", "From iCloud"]))
        let copies = document.conflictCopies
        for copy in copies where copy.isUnambiguous { try document.removeConflictCopy(copy) }
        #expect(throws: CoreError(.invalidOperation)) { try document.removeConflictCopy(copies.first { !$0.isUnambiguous }!) }
        #expect(dir.contents == ["v 2.kdbx", "v.kdbx"])

        // Another vault with the same password: refused, the model unchanged.
        let other = dir.file("v (conflicted copy).kdbx")
        var stranger = SampleVault().vault
        stranger.root.uuid = KDBXUUID(high: 1, low: 2)
        try TestVaultFile.write(stranger, to: other)
        let before = document.vault
        #expect(throws: CoreError(.invalidOperation)) { try document.mergeCopy(at: other.path) }
        #expect(document.vault == before)
        // Another key: wrong key, unless given.
        let rekeyed = dir.file("v.Conflict.kdbx")
        try TestVaultFile.write(try KDBXCodec.open([UInt8](try Data(contentsOf: url)), key: try TestVaultFile.key()), to: rekeyed,
                                password: "other")
        #expect(throws: CoreError(.wrongKey)) { try document.mergeCopy(at: rekeyed.path) }
        try document.mergeCopy(at: rekeyed.path, key: try TestVaultFile.key("other"))
    }

    @Test("the app's session lists and merges them, the KDF off the actor")
    func session() async throws {
        let dir = try TempDirectory()
        let url = try makeVault(in: dir)
        let copyURL = try copy(url, as: "v (conflicted copy 2026-12-04 101010).kdbx", adding: "From Nextcloud")
        let session = VaultSession(fileURL: url)
        try await session.unlock(password: "correct horse")
        let copies = try await session.conflictCopies()
        #expect(copies == [ConflictCopy(path: copyURL.path, engine: .nextcloud)])
        let result = try await session.mergeCopy(at: copies[0].path)
        #expect(result.changedLocal)
        #expect(await session.hasUnsavedChanges)
        try await session.save()
        try (try await session.currentDocument()).removeConflictCopy(copies[0])
        #expect(dir.contents == ["v.kdbx"])
        let saved = try KDBXCodec.open([UInt8](try Data(contentsOf: url)), key: try TestVaultFile.key())
        #expect(saved.root.groups.contains { $0.name == "From Nextcloud" })
    }
}
