import Foundation
import MyPassBytes
import MyPassCompression
import MyPassCore
import MyPassCrypto
import MyPassKDBX
import Testing

/// A KDBX 3.1 file around any XML body (AES-256, AES-KDF, gzip; no protected values): hostile
/// bodies the model writer cannot produce. The header is one our writer made for a cheap vault.
enum CraftedVault {
    static func file(xml: String, password: ProtectedString = "correct horse") throws -> [UInt8] {
        var vault = Vault.new(name: "R", now: SampleVault.t0)
        vault.format = VaultFormat(version: .v3_1, kdf: .aes(rounds: 100))
        let key = try CompositeKey(password: password, keyFileContents: nil)
        let template = try KDBXCodec.save(vault, key: key)
        let (header, payloadOffset) = try KDBXHeader.read(from: template[...])
        let keys = try MasterKeys(compositeKey: key, masterSeed: header.masterSeed, kdf: header.kdf, limits: KDBXLimits())
        // The hashed block stream (KDBX 3.1): index, SHA-256 of the data, size, data; then an empty block.
        let body = Gzip.compress(Array(xml.utf8))
        var plain = header.streamStartBytes!
        func block(_ index: UInt32, _ data: [UInt8]) {
            withUnsafeBytes(of: index.littleEndian) { plain.append(contentsOf: $0) }
            plain.append(contentsOf: data.isEmpty ? [UInt8](repeating: 0, count: 32) : SHA256.hash(data))
            withUnsafeBytes(of: UInt32(data.count).littleEndian) { plain.append(contentsOf: $0) }
            plain.append(contentsOf: data)
        }
        block(0, body)
        block(1, [])
        return Array(template[..<payloadOffset]) + (try AESCBC.encrypt(plain, key: keys.cipherKey.unsafeArray, iv: header.encryptionIV))
    }

    /// `count` entries with nothing in them (`<Entry/>`, 8 bytes of XML each) in the root group.
    static func emptyEntries(_ count: Int) -> String {
        "<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"yes\"?><KeePassFile><Meta><Generator>x</Generator></Meta><Root><Group>"
            + "<UUID>AAAAAAAAAAAAAAAAAAAAAQ==</UUID><Name>R</Name>" + String(repeating: "<Entry/>", count: count)
            + "</Group></Root></KeePassFile>"
    }
}

/// The AutoFill budget holds for hostile files too (issue 35): a 124 KB-class vault of 300,000
/// empty entries is refused with `.memoryBudgetExceeded` before its index passes the budget.
@Suite("AutoFill index: the memory budget bounds the index of a hostile file")
struct HostileIndexBudgetTests {
    @Test func manyEmptyEntriesAreRefusedWithinTheBudgetAndOpenWithoutOne() throws {
        let dir = try TempDirectory()
        let url = dir.file("hostile.kdbx")
        let file = try CraftedVault.file(xml: CraftedVault.emptyEntries(300_000))
        #expect(file.count < 200_000, "\(file.count) bytes")
        try Data(file).write(to: url)
        let key = try TestVaultFile.key()
        var failure: CoreError?
        do throws(CoreError) {
            _ = try CredentialIndex.open(url.path, key: key, options: CredentialIndex.OpenOptions(budgetBytes: 50_000_000))
        } catch {
            failure = error
        }
        #expect(failure?.code == .memoryBudgetExceeded)
        let numbers = try #require(failure?.underlying as? MemoryBudgetExceeded)
        #expect(numbers.budgetBytes == 50_000_000 && numbers.argon2MemoryBytes == 0)
        #expect(numbers.requiredBytes > numbers.budgetBytes)
        // Without a budget the same file opens: every entry indexed.
        let opened = try CredentialIndex.open(url.path, key: key)
        #expect(opened.index.credentials.count == 300_000)
        // What the bound allows: the index's own estimate of such a file stays under the budget less the margin.
        let fitting = try CraftedVault.file(xml: CraftedVault.emptyEntries(100_000))
        try Data(fitting).write(to: url)
        let small = try CredentialIndex.open(url.path, key: key, options: CredentialIndex.OpenOptions(budgetBytes: 50_000_000))
        #expect(small.index.credentials.count == 100_000)
        #expect(small.index.estimatedBytes < 50_000_000 - (12 << 20))
    }

    @Test func aTypicalVaultIsUnaffectedByTheBound() throws {
        let dir = try TempDirectory()
        let url = dir.file("vault.kdbx")
        var vault = SampleVault().vault
        for index in 0..<2_000 {
            var entry = Entry()
            entry.title = "Site \(index)"
            entry.userName = "user\(index)"
            entry.url = "https://site\(index).example.com/login"
            entry.password = ProtectedString("pw-\(index)")
            vault.root.entries.append(entry)
        }
        try TestVaultFile.write(vault, to: url)
        let opened = try CredentialIndex.open(url.path, key: try TestVaultFile.key(),
                                              options: CredentialIndex.OpenOptions(budgetBytes: 20_000_000))
        #expect(opened.index.credentials.count == 2_000 + 5)
    }
}
