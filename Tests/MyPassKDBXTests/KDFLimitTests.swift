import MyPassBytes
import MyPassKDBX
import MyPassTestSupport
import Testing

@Suite("KDF cost limits: a file cannot make the KDF run for hours")
struct KDFLimitTests {
    static let password = CompositeKeyFixture.password

    /// kdbx4-aes-argon2d asks for Argon2d with 1 MiB and 2 passes: 2 MiB of work.
    @Test("Argon2 memory x passes over the work limit is refused before any work; at the limit it opens")
    func argon2WorkLimit() throws {
        let file = try TestVectors.bytes("kdbx/keepass/kdbx4-aes-argon2d.kdbx")
        let key = try CompositeKey(password: Self.password, keyFileContents: nil)
        let tight = KDBXLimits(maxArgon2WorkBytes: 2 * 1024 * 1024 - 1)
        #expect(throws: KDBXError(.limitExceeded)) { try KDBXCodec.open(file, key: key, limits: tight) }
        let exact = KDBXLimits(maxArgon2WorkBytes: 2 * 1024 * 1024)
        let vault = try KDBXCodec.open(file, key: key, limits: exact)
        #expect(vault.format.kdf == .argon2(Argon2Settings(
            variant: .argon2d, memoryBytes: 1 << 20, iterations: 2, parallelism: 2, version: 0x13)))
        #expect(KDBXLimits().maxArgon2WorkBytes == 64 << 30)
    }

    @Test("AES-KDF rounds over the limit are refused")
    func aesRoundsLimit() throws {
        let file = try TestVectors.bytes("kdbx/keepass/kdbx31-aes-aeskdf.kdbx")
        let key = try CompositeKey(password: Self.password, keyFileContents: nil)
        #expect(throws: KDBXError(.limitExceeded)) {
            try KDBXCodec.open(file, key: key, limits: KDBXLimits(maxAESKDFRounds: 5_999))
        }
        #expect(try KDBXCodec.open(file, key: key, limits: KDBXLimits(maxAESKDFRounds: 6_000)).format.kdf == .aes(rounds: 6_000))
    }
}

enum CompositeKeyFixture {
    /// The password of the KeePass fixtures (Vectors/kdbx/README.md).
    static let password = ProtectedString("correct horse battery staple")
}
