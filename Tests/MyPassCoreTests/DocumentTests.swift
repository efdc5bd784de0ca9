import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX
import MyPassTestSupport
import Testing

@Suite("Vault document: the one open and save path")
struct DocumentTests {
    let now = KDBXTime(unixSeconds: 1_800_000_000)

    func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

    func status(_ path: String) throws -> VaultFileStatus { try #require(try SystemFileSystem().status(path)) }

    func addGroup(_ document: inout VaultDocument, _ name: String) throws {
        let root = document.vault.root.uuid
        try document.vault.addGroup(named: name, in: root, now: now)
    }

    @Test func aSaveThroughASymlinkKeepsTheLinkAndChangesItsTarget() throws {
        let dir = try TempDirectory()
        let target = dir.file("real.kdbx")
        try TestVaultFile.write(to: target)
        let link = dir.file("link.kdbx")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real.kdbx")
        var document = try VaultDocument.open(link.path, key: try TestVaultFile.key())
        #expect(document.identity.path == (try SystemFileSystem().resolve(target.path)))
        try addGroup(&document, "Through the link")
        try document.save()
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "real.kdbx")
        let reread = try KDBXCodec.open(try bytes(target), key: try TestVaultFile.key())
        #expect(reread.root.groups.contains { $0.name == "Through the link" })
        #expect(dir.contents == ["link.kdbx", "real.kdbx"])
    }

    @Test func aReadOnlyFileIsRefusedAndUntouched() throws {
        let dir = try TempDirectory()
        let url = dir.file("v.kdbx")
        try TestVaultFile.write(to: url)
        var document = try VaultDocument.open(url.path, key: try TestVaultFile.key())
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: url.path)
        let before = try bytes(url)
        #expect(throws: CoreError(.readOnly)) { try VaultDocument.checkWritable(url.path) }
        try addGroup(&document, "x")
        #expect(throws: CoreError(.readOnly)) { try document.save() }
        #expect(try bytes(url) == before)
        #expect(try status(url.path).permissions == 0o444)
        #expect(dir.contents == ["v.kdbx"])
    }

    @Test func aVaultInAReadOnlyDirectoryIsRefusedAndUntouched() throws {
        let dir = try TempDirectory()
        let url = dir.file("v.kdbx")
        try TestVaultFile.write(to: url)
        var document = try VaultDocument.open(url.path, key: try TestVaultFile.key())
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: dir.url.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.url.path) }
        let before = try bytes(url)
        #expect(throws: CoreError(.readOnly)) { try VaultDocument.checkWritable(url.path) }
        try addGroup(&document, "x")
        #expect(throws: CoreError(.readOnly)) { try document.save() }
        #expect(try bytes(url) == before)
        #expect(dir.contents == ["v.kdbx"])
    }

    @Test func aFileChangedOnDiskIsMergedWithOurChanges() throws {
        let dir = try TempDirectory()
        let url = dir.file("v.kdbx")
        try TestVaultFile.write(to: url)
        var ours = try VaultDocument.open(url.path, key: try TestVaultFile.key())
        var theirs = try VaultDocument.open(url.path, key: try TestVaultFile.key())
        try addGroup(&theirs, "Theirs")
        try theirs.save()
        try addGroup(&ours, "Ours")
        let report = try ours.save()
        let merged = try #require(report.merged)
        #expect(merged.contains { $0.contains("Ours") })
        let reread = try KDBXCodec.open(try bytes(url), key: try TestVaultFile.key())
        #expect(Set(reread.root.groups.map(\.name)).isSuperset(of: ["Ours", "Theirs"]))
        #expect(ours.vault == reread)
        #expect(!ours.hasUnsavedChanges)
        #expect(dir.contents == ["v.kdbx"])
    }

    @Test func aFileChangedOnDiskWithAnotherKeyIsRefused() throws {
        let dir = try TempDirectory()
        let url = dir.file("v.kdbx")
        try TestVaultFile.write(to: url)
        var ours = try VaultDocument.open(url.path, key: try TestVaultFile.key())
        try TestVaultFile.write(to: url, password: "another password")
        let written = try bytes(url)
        try addGroup(&ours, "Ours")
        #expect(throws: CoreError(.fileChangedOnDisk)) { try ours.save() }
        #expect(try bytes(url) == written)
        #expect(dir.contents == ["v.kdbx"])
    }

    @Test func aFileChangedOnDiskIsNeverOverwritten() throws {
        let dir = try TempDirectory()
        let url = dir.file("v.kdbx")
        try TestVaultFile.write(to: url)
        var ours = try VaultDocument.open(url.path, key: try TestVaultFile.key(),
                                          options: VaultDocument.Options(mergeHandler: nil))
        var theirs = try VaultDocument.open(url.path, key: try TestVaultFile.key())
        try addGroup(&theirs, "Theirs")
        try theirs.save()
        let written = try bytes(url)
        try addGroup(&ours, "Ours")
        #expect(throws: CoreError(.fileChangedOnDisk)) { try ours.save() }
        #expect(try bytes(url) == written)
        #expect(dir.contents == ["v.kdbx"])
        #expect(ours.hasUnsavedChanges)
    }

    @Test func aFileTouchedButNotChangedSavesAsUsual() throws {
        let dir = try TempDirectory()
        let url = dir.file("v.kdbx")
        try TestVaultFile.write(to: url)
        var document = try VaultDocument.open(url.path, key: try TestVaultFile.key())
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000)], ofItemAtPath: url.path)
        try addGroup(&document, "After touch")
        try document.save()
        #expect(try KDBXCodec.open(try bytes(url), key: try TestVaultFile.key()).root.groups.contains { $0.name == "After touch" })
    }

    @Test func anOpenRunsTheKDFOnceASaveOnceAndACachedKeyNever() throws {
        let dir = try TempDirectory()
        let url = dir.file("v.kdbx")
        try TestVaultFile.write(to: url)
        let counter = KDFCounter()
        let options = VaultDocument.Options(keyDerivation: counter.derivation)
        var document = try VaultDocument.open(url.path, key: try TestVaultFile.key(), options: options)
        #expect(counter.count == 1)
        try addGroup(&document, "One")
        try document.save()
        #expect(counter.count == 2)
        try addGroup(&document, "Two")
        try document.save()
        #expect(counter.count == 3)
        // The key the last save derived opens the file it wrote without a KDF run.
        let reopened = try VaultDocument.open(url.path, key: try TestVaultFile.key(), cachedKey: document.cachedKey, options: options)
        #expect(counter.count == 3)
        #expect(reopened.vault == document.vault)
        // A cached key for another seed is ignored: the KDF runs.
        var other = try VaultDocument.open(url.path, key: try TestVaultFile.key(), options: options)
        try addGroup(&other, "Three")
        try other.save()
        #expect(counter.count == 5)
        _ = try VaultDocument.open(url.path, key: try TestVaultFile.key(), cachedKey: document.cachedKey, options: options)
        #expect(counter.count == 6)
    }

    @Test func aWrongCachedKeyIsAWrongKey() throws {
        let dir = try TempDirectory()
        let url = dir.file("v.kdbx")
        try TestVaultFile.write(to: url)
        let document = try VaultDocument.open(url.path, key: try TestVaultFile.key())
        let forged = CachedTransformedKey(transformedKey: SecureBytes(zeroedCount: 32), kdf: document.cachedKey.kdf)
        #expect(throws: CoreError(.wrongKey)) {
            try VaultDocument.open(url.path, key: try TestVaultFile.key(), cachedKey: forged)
        }
    }

    /// `.rename` on a platform without an atomic exchange, where a save renames instead.
    @Test(arguments: [FaultyFileSystem.Operation.createExclusive, .write, .synchronize, .readFile, .exchange, .rename])
    func aFailureAtAnyStepLeavesTheOriginalAndNoTemporaryFile(_ operation: FaultyFileSystem.Operation) throws {
        let dir = try TempDirectory()
        let url = dir.file("v.kdbx")
        try TestVaultFile.write(to: url)
        let faulty = FaultyFileSystem()
        faulty.supportsExchange = operation != .rename
        var document = try VaultDocument.open(url.path, key: try TestVaultFile.key(), options: VaultDocument.Options(fileSystem: faulty))
        let before = try bytes(url)
        try addGroup(&document, "x")
        faulty.fail(operation)
        #expect(throws: CoreError(.io)) { try document.save() }
        #expect(try bytes(url) == before)
        #expect(dir.contents == ["v.kdbx"])
        #expect(document.hasUnsavedChanges)
    }

    @Test func aFailedDirectoryFlushIsAWarningAfterTheSave() throws {
        let dir = try TempDirectory()
        let url = dir.file("v.kdbx")
        try TestVaultFile.write(to: url)
        let faulty = FaultyFileSystem()
        var document = try VaultDocument.open(url.path, key: try TestVaultFile.key(), options: VaultDocument.Options(fileSystem: faulty))
        try addGroup(&document, "x")
        faulty.fail(.synchronizeDirectory)
        let report = try document.save()
        #expect(report.warnings.count == 1)
        #expect(report.warnings[0].contains("could not be flushed"))
        #expect(try KDBXCodec.open(try bytes(url), key: try TestVaultFile.key()).root.groups.contains { $0.name == "x" })
        #expect(dir.contents == ["v.kdbx"])
    }

    @Test func aCorruptedWriteFailsTheCheck() throws {
        let dir = try TempDirectory()
        let url = dir.file("v.kdbx")
        try TestVaultFile.write(to: url)
        let faulty = FaultyFileSystem()
        var document = try VaultDocument.open(url.path, key: try TestVaultFile.key(), options: VaultDocument.Options(fileSystem: faulty))
        let before = try bytes(url)
        try addGroup(&document, "x")
        faulty.corruptsWrites = true
        #expect(throws: CoreError(.verificationFailed)) { try document.save() }
        #expect(try bytes(url) == before)
        #expect(dir.contents == ["v.kdbx"])
    }

    /// One byte of the temporary file flipped on disk after the whole file was written (the header's
    /// first byte, a header field, the middle of the payload, the last byte), in KDBX 4 and 3.1 and
    /// with either check: the save fails with `verificationFailed`, the vault is untouched, no
    /// temporary file is left, and the model still has its unsaved change.
    @Test(arguments: [0.0, 0.05, 0.5, 1.0], [VaultDocument.SaveVerification.contentDigest, .fullReadBack])
    func aByteFlippedAfterTheWriteFailsTheCheck(_ position: Double, _ verification: VaultDocument.SaveVerification) throws {
        let dir = try TempDirectory()
        for format in [TestVaultFile.cheapFormat, VaultFormat(version: .v3_1, cipher: .aes256, kdf: .aes(rounds: 100))] {
            let url = dir.file("v\(format.version).kdbx")
            try TestVaultFile.write(to: url, format: format)
            let faulty = FaultyFileSystem()
            var document = try VaultDocument.open(url.path, key: try TestVaultFile.key(),
                                                  options: VaultDocument.Options(fileSystem: faulty, verification: verification))
            let before = try bytes(url)
            try addGroup(&document, "x")
            faulty.flipsByteAfterWriting = position
            #expect(throws: CoreError(.verificationFailed), "\(format.version) at \(position)") { try document.save() }
            #expect(try bytes(url) == before)
            #expect(dir.contents == [url.lastPathComponent])
            #expect(document.hasUnsavedChanges)
            try FileManager.default.removeItem(at: url)
        }
    }

    /// The digest check decrypts with the keys the save derived: a save is one KDF run with either
    /// check, and the document then holds exactly what a real read of the file gives.
    @Test(arguments: [VaultDocument.SaveVerification.contentDigest, .fullReadBack])
    func theSavesCheckRunsNoExtraKDF(_ verification: VaultDocument.SaveVerification) throws {
        let dir = try TempDirectory()
        for format in [TestVaultFile.cheapFormat, VaultFormat(version: .v3_1, cipher: .chacha20, kdf: .aes(rounds: 100))] {
            let url = dir.file("v\(format.version).kdbx")
            try TestVaultFile.write(to: url, format: format)
            let counter = KDFCounter()
            var document = try VaultDocument.open(url.path, key: try TestVaultFile.key(),
                                                  options: VaultDocument.Options(keyDerivation: counter.derivation, verification: verification))
            #expect(counter.count == 1)
            try addGroup(&document, "One")
            try document.save()
            #expect(counter.count == 2)
            #expect(!document.hasUnsavedChanges)
            #expect(try KDBXCodec.open(try bytes(url), key: try TestVaultFile.key()) == document.vault)
        }
    }

    @Test func aSaveWaitsForAnotherWritersLockAndGivesUp() throws {
        let dir = try TempDirectory()
        let url = dir.file("v.kdbx")
        try TestVaultFile.write(to: url)
        var document = try VaultDocument.open(url.path, key: try TestVaultFile.key(),
                                              options: VaultDocument.Options(lockTimeoutSeconds: 0.2))
        try addGroup(&document, "x")
        let system = SystemFileSystem()
        let held = try system.lock(url.path, timeoutSeconds: 0)
        #expect(throws: CoreError(.io)) { try document.save() }
        system.close(held)
        try document.save()
        #expect(dir.contents == ["v.kdbx"])
    }

    @Test func theModeAndAsRootTheOwnerAreKept() throws {
        let dir = try TempDirectory()
        let url = dir.file("v.kdbx")
        try TestVaultFile.write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: url.path)
        let isRoot = getuid() == 0
        if isRoot { #expect(chown(url.path, 65534, 65534) == 0) }
        var document = try VaultDocument.open(url.path, key: try TestVaultFile.key())
        try addGroup(&document, "x")
        try document.save()
        let after = try status(url.path)
        #expect(after.permissions == 0o640)
        if isRoot {
            #expect(after.userID == 65534)
            #expect(after.groupID == 65534)
        }
    }

    @Test func aSaveKeepsTheVersionThatHoldsTheVaultAndRaisesItOnlyWhenNeeded() throws {
        let dir = try TempDirectory()
        // KDBX 3.1 with ChaCha20 and with Twofish (as KeePassXC writes them) stays 3.1.
        for cipher in [PayloadCipher.chacha20, .twofish] {
            let url = dir.file("v31-\(cipher).kdbx")
            try TestVaultFile.write(to: url, format: VaultFormat(version: .v3_1, cipher: cipher, kdf: .aes(rounds: 100)))
            var document = try VaultDocument.open(url.path, key: try TestVaultFile.key())
            try addGroup(&document, "x")
            let report = try document.save()
            #expect(report.version == .v3_1)
            #expect(report.raisedFrom == nil)
            let reader = try KDBXReaderProbe.header(try bytes(url))
            #expect(reader == (.v3_1, cipher))
        }
        // 4.1-only content in a 4.0 vault raises it to 4.1, and says so.
        let url = dir.file("v40.kdbx")
        try TestVaultFile.write(to: url)
        var document = try VaultDocument.open(url.path, key: try TestVaultFile.key())
        let root = document.vault.root.uuid
        let group = try document.vault.addGroup(named: "Tagged", in: root, now: now)
        document.vault.root.modifyGroup(withUUID: group) { $0.tags = ["t"] }
        let report = try document.save()
        #expect(report.version == .v4_1)
        #expect(report.raisedFrom == .v4_0)
        #expect(try KDBXReaderProbe.header(try bytes(url)) == (.v4_1, .aes256))
        #expect(document.vault.format.version == .v4_1)
    }

    @Test func theKeePassDXChaChaFixtureSavesAsKDBX31() throws {
        let dir = try TempDirectory()
        let url = dir.file("AesChaCha.kdbx")
        try Data(try TestVectors.bytes("kdbx/thirdparty/kdbxweb/AesChaCha.kdbx")).write(to: url)
        let fixture = try #require(FixtureCatalog.kdbxweb.first { $0.name.hasSuffix("AesChaCha") })
        var document = try VaultDocument.open(url.path, key: try fixture.compositeKey())
        let loaded = document.vault.format
        try addGroup(&document, "x")
        let report = try document.save()
        #expect(report.version == loaded.version)
        #expect(report.raisedFrom == nil)
        #expect(try KDBXReaderProbe.header(try bytes(url)) == (loaded.version, loaded.cipher))
    }

    /// Every fixture with a quick KDF takes a change through the document and reads back to
    /// exactly the model the document holds.
    @Test(arguments: FixtureCatalog.quick)
    func everyFixtureSavesThroughTheDocument(_ fixture: Fixture) throws {
        let dir = try TempDirectory()
        let url = dir.file("v.kdbx")
        try Data(try fixture.fileBytes).write(to: url)
        let key = try fixture.compositeKey()
        var document = try VaultDocument.open(url.path, key: key)
        let before = document.vault.format.version
        try addGroup(&document, "Saved by MyPass")
        let report = try document.save()
        #expect(report.version >= before)
        let reread = try KDBXCodec.open(try bytes(url), key: key)
        #expect(reread == document.vault)
        #expect(reread.root.groups.contains { $0.name == "Saved by MyPass" })
        #expect(dir.contents == ["v.kdbx"])
    }
}

/// The version and cipher in a file's outer header.
enum KDBXReaderProbe {
    static func header(_ file: [UInt8]) throws -> (KDBXVersion, PayloadCipher) {
        let (header, _) = try KDBXHeader.read(from: file[...])
        return (header.version, header.cipher)
    }
}
