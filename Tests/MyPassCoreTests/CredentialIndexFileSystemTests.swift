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
        // The 2,629-byte demo vault: the outer header, then the rest, in reads of at most 64 KiB.
        #expect(fileSystem.count(.read) >= 2)
        #expect(opened.fileBytes == 2629)
        #expect(opened.index.credentials.map(\.title).sorted()
            == ["Company Mail", "Dropbox", "Example Bank", "GitHub", "Home Wi-Fi", "Jira", "Welcome"])
        // Nothing else: no whole-file read, no status, no lock.
        #expect(fileSystem.count(.readFile) == 0 && fileSystem.count(.status) == 0 && fileSystem.count(.lock) == 0)
    }

    @Test(arguments: [FaultyFileSystem.Operation.openForReading, .read])
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
}
