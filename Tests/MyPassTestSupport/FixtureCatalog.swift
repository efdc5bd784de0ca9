import Foundation
import MyPassBytes
import MyPassKDBX

/// One fixture vault of `Vectors/kdbx/` with its credentials (from the folder READMEs).
public struct Fixture: CustomStringConvertible, Sendable {
    /// Path below `Vectors/kdbx/`, without `.kdbx`.
    public var name: String
    /// The password as typed; `nil` for no password component.
    public var password: String?
    /// Key file path below `Vectors/kdbx/`, if any.
    public var keyFile: String?
    /// Whether `NAME.json` (KeePass's manifest) sits beside the vault.
    public var hasManifest = true
    /// Whether the KDF is slow enough that round trips lower its cost.
    public var slowKDF = false

    public init(name: String, password: String?, keyFile: String? = nil, hasManifest: Bool = true, slowKDF: Bool = false) {
        self.name = name
        self.password = password
        self.keyFile = keyFile
        self.hasManifest = hasManifest
        self.slowKDF = slowKDF
    }

    public var description: String { name }

    public var fileBytes: [UInt8] {
        get throws { try TestVectors.bytes("kdbx/" + name + (name.hasSuffix(".kdb") ? "" : ".kdbx")) }
    }

    public func compositeKey() throws -> CompositeKey {
        let keyBytes = try keyFile.map { try TestVectors.bytes("kdbx/" + $0) }
        return try CompositeKey(password: password.map { ProtectedString($0) }, keyFileContents: keyBytes)
    }

    /// The expected manifest as parsed JSON.
    public func expectedManifest() throws -> Any {
        try JSONSerialization.jsonObject(with: Data(try TestVectors.bytes("kdbx/" + name + ".json")))
    }

    /// The same key with the password changed (or added), for wrong-key tests.
    public func wrongKey() throws -> CompositeKey {
        let keyBytes = try keyFile.map { try TestVectors.bytes("kdbx/" + $0) }
        return try CompositeKey(password: ProtectedString((password ?? "") + "x"), keyFileContents: keyBytes)
    }
}

public enum FixtureCatalog {
    public static let pw = "correct horse battery staple"

    public static let keepass: [Fixture] = [
        Fixture(name: "keepass/kdbx31-aes-aeskdf-nocomp", password: pw),
        Fixture(name: "keepass/kdbx31-aes-aeskdf", password: pw),
        Fixture(name: "keepass/kdbx31-keyfile-only", password: nil, keyFile: "keepass/keyfile-v1.key"),
        Fixture(name: "keepass/kdbx31-large-5000", password: pw),
        Fixture(name: "keepass/kdbx4-aes-argon2d-p1", password: pw),
        Fixture(name: "keepass/kdbx4-aes-argon2d", password: pw),
        Fixture(name: "keepass/kdbx4-chacha20-aeskdf", password: pw),
        Fixture(name: "keepass/kdbx4-chacha20-argon2id", password: pw),
        Fixture(name: "keepass/kdbx4-empty-password", password: ""),
        Fixture(name: "keepass/kdbx4-keyfile-only", password: nil, keyFile: "keepass/keyfile-v2.keyx"),
        Fixture(name: "keepass/kdbx4-large-5000", password: pw),
        Fixture(name: "keepass/kdbx4-pw-keyfile-arbitrary", password: pw, keyFile: "keepass/keyfile-arbitrary.bin"),
        Fixture(name: "keepass/kdbx4-pw-keyfile-binary32", password: pw, keyFile: "keepass/keyfile-binary32.key"),
        Fixture(name: "keepass/kdbx4-pw-keyfile-hex64", password: pw, keyFile: "keepass/keyfile-hex64.key"),
        Fixture(name: "keepass/kdbx4-pw-keyfile-v1", password: pw, keyFile: "keepass/keyfile-v1.key"),
        Fixture(name: "keepass/kdbx4-pw-keyfile-v2", password: pw, keyFile: "keepass/keyfile-v2.keyx"),
        Fixture(name: "keepass/kdbx4-unicode-password", password: "pässwörd-日本語-🔑"),
        Fixture(name: "keepassxc/kxc-edited-argon2id", password: pw),
        Fixture(name: "keepassxc/kxc-import-rich", password: pw, slowKDF: true),
    ]

    public static let kdbxweb: [Fixture] = {
        let d = "thirdparty/kdbxweb/"
        return [
            Fixture(name: d + "demo", password: "demo", keyFile: d + "demo.key"),
            Fixture(name: d + "cyrillic", password: "пароль"),
            Fixture(name: d + "binkey", password: "test", keyFile: d + "binkey.key"),
            Fixture(name: d + "EmptyPass", password: ""),
            Fixture(name: d + "NoPassWithKeyFile", password: nil, keyFile: d + "NoPassWithKeyFile.key"),
            Fixture(name: d + "Key32", password: "test", keyFile: d + "Key32.key"),
            Fixture(name: d + "KeyV2", password: nil, keyFile: d + "KeyV2.keyx"),
            Fixture(name: d + "Argon2", password: "demo", keyFile: d + "demo.key"),
            Fixture(name: d + "Argon2id", password: "demo", keyFile: d + "demo.key"),
            Fixture(name: d + "AesChaCha", password: "demo", keyFile: d + "demo.key"),
            Fixture(name: d + "AesKdfKdbx4", password: "demo"),
            Fixture(name: d + "demohard", password: "demo", keyFile: d + "demo.key", slowKDF: true),
            Fixture(name: d + "EmptyPassWithKeyFile", password: "", keyFile: d + "EmptyPassWithKeyFile.key"),
            Fixture(name: d + "Key64", password: "test", keyFile: d + "Key64.key"),
            Fixture(name: d + "KeyWithBom", password: "test", keyFile: d + "KeyWithBom.key"),
            Fixture(name: d + "Argon2ChaCha", password: "demo", keyFile: d + "demo.key"),
            Fixture(name: d + "KDBX4.1", password: "test"),
        ]
    }()

    public static let keepassRS: [Fixture] = {
        let d = "thirdparty/keepass-rs/"
        let p = "demopass"
        return [
            Fixture(name: d + "test_db_with_password", password: p),
            Fixture(name: d + "test_db_with_keyfile", password: nil, keyFile: d + "test_key.key"),
            Fixture(name: d + "test_db_kdbx4_with_password_argon2", password: p),
            Fixture(name: d + "test_db_kdbx4_with_password_argon2id", password: p),
            Fixture(name: d + "test_db_kdbx4_with_password_aes", password: p, slowKDF: true),
            Fixture(name: d + "test_db_kdbx4_with_password_argon2_chacha20", password: p),
            Fixture(name: d + "test_db_kdbx4_with_password_argon2_twofish", password: p),
            Fixture(name: d + "test_db_kdbx4_with_keyfile", password: nil, keyFile: d + "test_key.key"),
            Fixture(name: d + "test_db_kdbx4_with_keyfile_v2", password: p, keyFile: d + "test_db_kdbx4_with_keyfile_v2.keyx"),
            Fixture(name: d + "test_db_kdb3_with_file_larger_1mb", password: p),
            Fixture(name: d + "test_db_kdbx4_with_password_deleted_entry", password: p),
            Fixture(name: d + "test_db_kdbx41_with_password_aes", password: p),
            Fixture(name: d + "test_db_kdbx4_with_totp_entry", password: "test", slowKDF: true),
            Fixture(name: d + "test_db_few_rounds", password: p),
            Fixture(name: d + "test_db_with_keyfile_xml", password: nil, keyFile: d + "test_key_xml.key"),
            Fixture(name: d + "test_db_kdbx4_with_password_argon2id_chacha20", password: p),
            Fixture(name: d + "test_db_kdbx4_with_password_argon2id_twofish", password: p),
            Fixture(name: d + "test_db_kdbx4_with_keyfile_v2_alt", password: p, keyFile: d + "test_db_kdbx4_with_keyfile_v2_alt.keyx"),
            Fixture(name: d + "test_db_kdbx41_features", password: p),
            Fixture(name: d + "test_db_kdbx3_with_chacha20_protected_fields", password: "password"),
            Fixture(name: d + "test_db_kdbx4_with_totp_sha512_entry", password: "test", slowKDF: true),
        ]
    }()

    public static let gokeepasslib: [Fixture] = {
        let d = "thirdparty/gokeepasslib/"
        let p = "abcdefg12345678"
        return [
            Fixture(name: d + "kdbx3_example", password: p),
            Fixture(name: d + "kdbx3_example-key", password: p, keyFile: d + "kdbx3_example-key.key"),
            Fixture(name: d + "kdbx4_example", password: p),
            Fixture(name: d + "kdbx4_example-chacha", password: p),
            Fixture(name: d + "kdbx4_example-chacha-argon2", password: p),
            Fixture(name: d + "kdbx4_example-key", password: p, keyFile: d + "kdbx4_example-key.key"),
            Fixture(name: d + "kdbx4_example-nocompression", password: p),
            Fixture(name: d + "kdbx4_example-twofish", password: "test1234test"),
        ]
    }()

    /// The two 5,000-entry vaults (opened and compared whole; round trips compare the model).
    public static let large: [Fixture] = keepass.filter { $0.name.contains("large-5000") }

    /// Every other vault with a manifest (`MYPASS_FIXTURES=substring` narrows the set while iterating locally).
    public static let withManifest: [Fixture] = {
        let all = (keepass + kdbxweb + keepassRS + gokeepasslib).filter { !$0.name.contains("large-5000") }
        guard let filter = ProcessInfo.processInfo.environment["MYPASS_FIXTURES"], !filter.isEmpty else { return all }
        return all.filter { $0.name.contains(filter) }
    }()

    /// Small vaults with a fast KDF, for the costlier corruption and round-trip loops.
    public static let quick: [Fixture] = withManifest.filter { !$0.slowKDF }
}

