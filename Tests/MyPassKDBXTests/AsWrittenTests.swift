import MyPassKDBX
import MyPassTestSupport
import Testing

/// `Vault.asWritten(version:)` is what a save's check compares against: for every fixture and every
/// version that can hold it, a save reads back to exactly that model (not only the same manifest).
@Suite("A save reads back to asWritten")
struct AsWrittenTests {
    @Test(arguments: FixtureCatalog.quick)
    func everyVersionReadsBackToAsWritten(_ fixture: Fixture) throws {
        let key = try fixture.compositeKey()
        var vault = try KDBXCodec.open(try fixture.fileBytes, key: key)
        if case .aes(let rounds) = vault.format.kdf, rounds > 1000 { vault.format.kdf = .aes(rounds: 1000) }
        if case .argon2(var settings) = vault.format.kdf {
            settings.memoryBytes = min(settings.memoryBytes, 1 << 20)
            settings.iterations = min(settings.iterations, 2)
            vault.format.kdf = .argon2(settings)
        }
        let needed = max(vault.requiredVersion, KDBXCodec.formatMinimumVersion(vault.format))
        for version in [KDBXVersion.v3_1, .v4_0, .v4_1] where version >= needed {
            let bytes = try KDBXCodec.save(vault, key: key, options: KDBXSaveOptions(targetVersion: version))
            let reread = try KDBXCodec.open(bytes, key: key)
            #expect(reread == vault.asWritten(version: version), "\(fixture.name) at \(version)")
        }
    }
}
