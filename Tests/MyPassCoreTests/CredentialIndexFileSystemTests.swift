import Foundation
import MyPassCore
import MyPassKDBX
import MyPassTestSupport
import Testing

/// The AutoFill index reads the vault through the ``VaultFileSystem`` seam only (issue 17): an
/// app's coordinated, security-scoped implementation sees the open and every read.
@Suite struct CredentialIndexFileSystemTests {
    static let demoPath = TestVectors.url("demo/demo.kdbx").path

    @Test func indexStreamsTheVaultThroughTheSeam() throws {
        let key = try CompositeKey(password: ProtectedString("demo"), keyFileContents: nil)
        let fileSystem = FaultyFileSystem()
        let opened = try CredentialIndex.open(Self.demoPath, key: key, options: CredentialIndex.OpenOptions(fileSystem: fileSystem))
        #expect(fileSystem.count(.openForReading) == 1)
        // The 2,629-byte demo vault in one read of at most 64 KiB, and no read past the size
        // fstat gave (the end of the file needs no empty read).
        #expect(fileSystem.count(.read) == 1)
        #expect(opened.fileBytes == 2629)
        #expect(opened.index.credentials.map(\.title).sorted()
            == ["Company Mail", "Dropbox", "Example Bank", "GitHub", "Home Wi-Fi", "Jira", "Welcome"])
        // The path resolved once, the open file's status once (a regular file, its size), the
        // folder listed once for stale temporary files; no whole-file read, no status by path,
        // and no lock (there was nothing stale to remove).
        #expect(fileSystem.count(.resolve) == 1 && fileSystem.count(.statusOfHandle) == 1)
        #expect(fileSystem.count(.contentsOfDirectory) == 1)
        #expect(fileSystem.count(.readFile) == 0 && fileSystem.count(.status) == 0 && fileSystem.count(.lock) == 0)
    }

    @Test(arguments: [FaultyFileSystem.Operation.resolve, .openForReading, .statusOfHandle, .read])
    func aFailingSeamFailsTheOpen(_ operation: FaultyFileSystem.Operation) throws {
        let key = try CompositeKey(password: ProtectedString("demo"), keyFileContents: nil)
        let fileSystem = FaultyFileSystem()
        fileSystem.fail(operation)
        var failure: CoreError?
        do throws(CoreError) {
            _ = try CredentialIndex.open(Self.demoPath, key: key, options: CredentialIndex.OpenOptions(fileSystem: fileSystem))
        } catch {
            failure = error
        }
        #expect(failure?.code == .io)
    }

    static func openError(_ path: String, key: CompositeKey, options: CredentialIndex.OpenOptions) -> CoreError? {
        do throws(CoreError) {
            _ = try CredentialIndex.open(path, key: key, options: options)
            return nil
        } catch {
            return error
        }
    }

    @Test("A device such as /dev/zero is refused before a byte is read, as by the full open")
    func aDeviceIsRefusedBeforeAnyRead() throws {
        let key = try CompositeKey(password: ProtectedString("demo"), keyFileContents: nil)
        let fileSystem = FaultyFileSystem()
        let failure = Self.openError("/dev/zero", key: key, options: CredentialIndex.OpenOptions(fileSystem: fileSystem))
        #expect(failure?.code == .io)
        #expect(failure?.reason == "not a regular file")
        #expect(failure?.location == "/dev/zero")
        #expect(fileSystem.count(.read) == 0)
        #expect(throws: CoreError(.io)) { try VaultDocument.open("/dev/zero", key: key) }
    }

    @Test("A file over maxFileBytes is refused before a byte is read; at the limit it opens")
    func theFileSizeIsCappedBeforeReading() throws {
        let key = try CompositeKey(password: ProtectedString("demo"), keyFileContents: nil)
        let fileSystem = FaultyFileSystem()
        let failure = Self.openError(Self.demoPath, key: key,
                                     options: CredentialIndex.OpenOptions(fileSystem: fileSystem, maxFileBytes: 2628))
        #expect(failure?.code == .limitExceeded)
        #expect(failure?.reason == "the file has 2629 bytes, more than the limit of 2628")
        #expect(fileSystem.count(.read) == 0)
        let opened = try CredentialIndex.open(Self.demoPath, key: key, options: CredentialIndex.OpenOptions(maxFileBytes: 2629))
        #expect(opened.index.credentials.count == 7)
    }

    @Test("The decoded budget (maxDecompressionRatio times the payload) bounds the index as it bounds the full open")
    func theDecodedBudgetBoundsTheIndex() throws {
        let key = try CompositeKey(password: ProtectedString("demo"), keyFileContents: nil)
        // The demo vault's payload inflates to several times its size: a ratio of 1 (and no
        // floor) refuses it in both readers, with the same codec error; 40, the default, opens it.
        var tight = KDBXLimits(maxDecompressionRatio: 1, minDecodedBudgetBytes: 0)
        let index = Self.openError(Self.demoPath, key: key, options: CredentialIndex.OpenOptions(limits: tight))
        var full: CoreError?
        do throws(CoreError) {
            _ = try VaultDocument.open(Self.demoPath, key: key, options: VaultDocument.Options(limits: tight))
        } catch {
            full = error
        }
        #expect(index?.code == .codec && full?.code == .codec)
        #expect((index?.underlying as? KDBXError)?.code == .limitExceeded)
        #expect((full?.underlying as? KDBXError)?.code == .limitExceeded)
        #expect(index?.reason == full?.reason)
        #expect(index?.reason.contains("1 times the file's payload") == true)
        tight.maxDecompressionRatio = 40
        #expect(try CredentialIndex.open(Self.demoPath, key: key, options: CredentialIndex.OpenOptions(limits: tight)).index.credentials.count == 7)
    }

    @Test("The index open removes the temporary files that killed saves left, and names them; other files stay")
    func staleTemporaryFilesAreRemovedAndNamed() throws {
        let dir = try TempDirectory()
        let url = dir.file("v.kdbx")
        try TestVaultFile.write(to: url)
        let stale = [".v.kdbx.mypass-0123456789abcdef.tmp", "..v.kdbx.mypass-0123456789abcdef.tmp.mypass-fedcba9876543210.tmp"]
        let foreign = [".v.kdbx.mypass-0123.tmp", ".w.kdbx.mypass-0123456789abcdef.tmp", "v.kdbx.mypass-0123456789abcdef.tmp"]
        for name in stale + foreign { _ = FileManager.default.createFile(atPath: dir.file(name).path, contents: Data("copy".utf8)) }
        // Not with the wrong key: nothing is removed by someone who cannot open the vault.
        #expect(throws: CoreError(.wrongKey)) { try CredentialIndex.open(url.path, key: try TestVaultFile.key("wrong")) }
        #expect(dir.contents == (stale + foreign + ["v.kdbx"]).sorted())
        // Not when the caller says so (an extension without write access to the folder).
        let kept = try CredentialIndex.open(url.path, key: try TestVaultFile.key(), options: CredentialIndex.OpenOptions(removesStaleTemporaryFiles: false))
        #expect(kept.removedStaleFiles.isEmpty && kept.staleFilesLeft.isEmpty)
        #expect(dir.contents.count == stale.count + foreign.count + 1)
        let opened = try CredentialIndex.open(url.path, key: try TestVaultFile.key())
        let realDirectory = try SystemFileSystem().resolve(dir.url.path)
        #expect(opened.removedStaleFiles == stale.sorted().map { realDirectory + "/" + $0 })
        #expect(opened.staleFilesLeft.isEmpty)
        #expect(dir.contents == (foreign + ["v.kdbx"]).sorted())
    }
}

/// Every file operation of an open, a save, a create, an index open and an attachment export
/// runs inside a coordinated scope of the seam (issue 35), so that an app's `NSFileCoordinator`
/// implementation wraps each in one block.
@Suite struct CoordinatedScopeTests {
    @Test func anOpenReadsInsideACoordinatedReadAndASaveWritesInsideACoordinatedWrite() throws {
        let dir = try TempDirectory()
        let url = dir.file("vault.kdbx")
        try TestVaultFile.write(to: url)
        let fileSystem = FaultyFileSystem()
        var document = try VaultDocument.open(url.path, key: try TestVaultFile.key(),
                                              options: VaultDocument.Options(fileSystem: fileSystem))
        #expect(fileSystem.scopes == [.init(writing: false, path: url.path)])
        #expect(fileSystem.uncoordinatedCalls.isEmpty, "outside: \(fileSystem.uncoordinatedCalls)")
        try document.edit { (vault: inout Vault) throws(CoreError) in
            _ = try vault.addGroup(named: "New", in: vault.root.uuid, now: SampleVault.t0)
        }
        // A change on disk meanwhile: the save's merge reads it inside the same write scope.
        try TestVaultFile.write(to: url)
        try document.save()
        #expect(fileSystem.scopes.dropFirst() == [.init(writing: true, path: url.path)])
        #expect(fileSystem.uncoordinatedCalls.isEmpty, "outside: \(fileSystem.uncoordinatedCalls)")
        #expect(fileSystem.writesInsideReadScopes.isEmpty)
        // The new file replaces the old one by an exchange where the file system has it, else a rename.
        #expect(fileSystem.count(.rename) + fileSystem.count(.exchange) >= 1 && fileSystem.count(.readFile) >= 2)
    }

    @Test func aCreateAndStaleFileRemovalWriteInsideCoordinatedWrites() throws {
        let dir = try TempDirectory()
        let path = dir.file("new.kdbx").path
        let fileSystem = FaultyFileSystem()
        var vault = SampleVault().vault
        vault.format = TestVaultFile.cheapFormat
        _ = try VaultDocument.create(path, vault: vault, key: try TestVaultFile.key(),
                                     options: VaultDocument.Options(fileSystem: fileSystem))
        #expect(fileSystem.scopes.first == .init(writing: true, path: path))
        #expect(fileSystem.uncoordinatedCalls.isEmpty, "outside: \(fileSystem.uncoordinatedCalls)")
        // A stale temporary file beside it: the next open removes it inside a coordinated write.
        let stale = dir.file(".new.kdbx.mypass-0123456789abcdef.tmp")
        try Data([1]).write(to: stale)
        let reader = FaultyFileSystem()
        let opened = try VaultDocument.open(path, key: try TestVaultFile.key(), options: VaultDocument.Options(fileSystem: reader))
        #expect(opened.removedStaleFiles == [stale.path])
        #expect(reader.scopes == [.init(writing: false, path: path), .init(writing: true, path: path)])
        #expect(reader.writesInsideReadScopes.isEmpty)
    }

    @Test func theIndexStreamsInsideOneCoordinatedRead() throws {
        let key = try CompositeKey(password: ProtectedString("demo"), keyFileContents: nil)
        let fileSystem = FaultyFileSystem()
        _ = try CredentialIndex.open(CredentialIndexFileSystemTests.demoPath, key: key,
                                     options: CredentialIndex.OpenOptions(fileSystem: fileSystem))
        #expect(fileSystem.scopes == [.init(writing: false, path: CredentialIndexFileSystemTests.demoPath)])
        #expect(fileSystem.uncoordinatedCalls.isEmpty, "outside: \(fileSystem.uncoordinatedCalls)")
        #expect(fileSystem.count(.read) == 1)
    }

    @Test func anAttachmentExportWritesThroughTheSeamInsideACoordinatedWrite() throws {
        let dir = try TempDirectory()
        let path = dir.file("out.txt").path
        let fileSystem = FaultyFileSystem()
        try Attachment(name: "a.txt", data: Array("hello".utf8)).export(toPath: path, fileSystem: fileSystem)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("hello".utf8))
        #expect(fileSystem.scopes == [.init(writing: true, path: path)])
        #expect(fileSystem.uncoordinatedCalls.isEmpty)
        #expect(fileSystem.callLog == [.createExclusive, .write, .synchronize, .rename])
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // A failing rename leaves no temporary file and names the destination.
        let failing = FaultyFileSystem()
        failing.fail(.rename)
        #expect(throws: CoreError(.io)) { try Attachment(name: "a", data: [1]).export(toPath: path, fileSystem: failing) }
        #expect(dir.contents == ["out.txt"])
    }
}
