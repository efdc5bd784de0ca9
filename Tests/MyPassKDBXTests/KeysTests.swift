import MyPassBytes
import MyPassKDBX
import MyPassTestSupport
import Testing

@Suite("Keys: key files and composite key")
struct KeysTests {
    /// Key file, the form KeePass reads it in, and the 32-byte key KeePass 2.47 derives (folder READMEs).
    static let keyFiles: [(String, KeyFile.Form, String)] = [
        ("thirdparty/kdbxweb/demo.key", .xmlVersion1, "02d636191da956de9a5b3dae81fc5f4905a344877d9742567bf2c43095952759"),
        ("thirdparty/kdbxweb/binkey.key", .hashed, "d7ace047a35195b8414976fd633cbd8c55e390a6bc64d0c03c4fc20470eb9d8d"),
        ("thirdparty/kdbxweb/NoPassWithKeyFile.key", .xmlVersion1, "5985715d0c50f3c28bbf841d48e294d4b219d272590d58c69a0a884f6456b9d5"),
        ("thirdparty/kdbxweb/Key32.key", .raw32, "3132333435363738393031323334353637383930313233343536373839303132"),
        ("thirdparty/kdbxweb/KeyV2.keyx", .xmlVersion2, "a7007945d07d54ba28df64341b4500fc9750dfb1d36ada2d9c32dc194c7ab01b"),
        ("thirdparty/kdbxweb/EmptyPassWithKeyFile.key", .xmlVersion1, "df9b33c62c3675c1ed165a668e1a1620367e8173b455b2399cd634802c9e2ffa"),
        ("thirdparty/kdbxweb/Key64.key", .hex64, "1234567890123456789012345678901234567890123456789012345678901234"),
        ("thirdparty/kdbxweb/KeyWithBom.key", .xmlVersion1, "7a214bfc7a41474aa356b03ff467d7e073f217884d6cfe1f2b21e8c0446ae632"),
        ("thirdparty/keepass-rs/test_key.key", .hashed, "d68b19553a9af649cf1f6f7313be1a079aa5588ba6ea7ece8397b7c8dd78efc9"),
        ("thirdparty/keepass-rs/test_db_kdbx4_with_keyfile_v2.keyx", .xmlVersion2, "36057b1c35037fd962257893c0a22403ee3f8fbb504d998108b821cb00d28f89"),
        ("thirdparty/keepass-rs/test_key_xml.key", .xmlVersion1, "357c9888930783796cf9e0668db02359e73d95c393a098a87db84d88531324cc"),
        ("thirdparty/keepass-rs/test_db_kdbx4_with_keyfile_v2_alt.keyx", .xmlVersion2, "f9305e50ea0cbb0976dfbbb317ebbdc710409b95abad3502f9dec2f42f9dc4b6"),
        ("thirdparty/gokeepasslib/kdbx3_example-key.key", .xmlVersion1, "3db2c16268045c584b59fda0c6804c0115e00d9184edfdf8b6bf9a9c2c39d8b2"),
        ("thirdparty/gokeepasslib/keyfiles_bin_32_byte.key", .hashed, "cd1c63c8c743caea12c5899bd95cc5b2ac1d5337925aca375a7e6a83344c9c45"),
        ("thirdparty/gokeepasslib/keyfiles_non_hex_64_byte.key", .hashed, "9f82867cf3f0e14dbdf8d39fb0dddf930ca83439381cfba4bfa6d2be2f72ebbf"),
        ("thirdparty/gokeepasslib/keyfiles_txt_derive.key", .hashed, "fe0dbedd5dee00ab5c928b5eaefe9425e81d1dfa8c03fa65469f18ad13b98e89"),
        ("thirdparty/gokeepasslib/keyfiles_xml_v1.00.key", .xmlVersion1, "3db2c16268045c584b59fda0c6804c0115e00d9184edfdf8b6bf9a9c2c39d8b2"),
        ("thirdparty/gokeepasslib/keyfiles_xml_v1.0.key", .xmlVersion1, "3db2c16268045c584b59fda0c6804c0115e00d9184edfdf8b6bf9a9c2c39d8b2"),
        ("thirdparty/gokeepasslib/keyfiles_xml_v2.0.key", .xmlVersion2, "6771521d644dfa15f39c177347cb28acc4d10994c0babfd9b8f1e132a1427097"),
        ("thirdparty/gokeepasslib/keyfiles_hex_64_byte.key", .hashed, "283b13a44b98083b161eb5f4d696ecf68c923a7c32bd88c3a4240c33b3f16335"),
        ("thirdparty/gokeepasslib/kdbx4_example-key.key", .xmlVersion1, "3db2c16268045c584b59fda0c6804c0115e00d9184edfdf8b6bf9a9c2c39d8b2"),
    ]

    @Test("key files give KeePass's key", arguments: keyFiles.indices)
    func keyFileKey(_ index: Int) throws {
        let (path, form, expected) = Self.keyFiles[index]
        let result = try KeyFile.read(try TestVectors.bytes("kdbx/" + path))
        #expect(result.form == form, "\(path)")
        #expect(result.key.unsafeArray.hexString == expected, "\(path)")
    }

    @Test("an XML 2.0 key file whose Hash does not match is refused")
    func invalidHash() throws {
        let bytes = try TestVectors.bytes("kdbx/thirdparty/gokeepasslib/keyfiles_xml_v2.0_invalid_hash.key")
        #expect(throws: KDBXError(.invalidKeyFile)) { try KeyFile.read(bytes) }
        // A valid v2 file with one hex digit of the data changed also fails the hash check.
        var text = String(decoding: try TestVectors.bytes("kdbx/thirdparty/kdbxweb/KeyV2.keyx"), as: UTF8.self)
        let range = text.range(of: "<Data")!
        let dataStart = text[range.upperBound...].firstIndex(of: ">")!
        let digit = text.index(dataStart, offsetBy: 10)
        let old = text[digit]
        text.replaceSubrange(digit...digit, with: old == "0" ? "1" : "0")
        #expect(throws: KDBXError(.invalidKeyFile)) { try KeyFile.read(Array(text.utf8)) }
    }

    @Test("malformed key files: empty file refused; non-KeyFile XML is hashed")
    func otherForms() throws {
        #expect(throws: KDBXError(.invalidKeyFile)) { try KeyFile.read([]) }
        #expect(throws: KDBXError(.invalidKeyFile)) {
            try KeyFile.read(Array("<KeyFile><Meta><Version>1.0</Version></Meta></KeyFile>".utf8))
        }
        let other = Array("<html><body>not a key</body></html>".utf8)
        #expect(try KeyFile.read(other).form == .hashed)
        // 64 characters that are not all hex are hashed.
        let notHex = Array(String(repeating: "g", count: 64).utf8)
        #expect(try KeyFile.read(notHex).form == .hashed)
        let hex = Array(String(repeating: "aB", count: 32).utf8)
        #expect(try KeyFile.read(hex).key.unsafeArray == [UInt8](repeating: 0xAB, count: 32))
    }

    @Test("a generated XML 2.0 key file reads back to its key")
    func generateVersion2() throws {
        let key = SecureBytes(SecureRandom.bytes(count: 32))
        let file = KeyFile.xmlVersion2(key: key)
        let result = try KeyFile.read(file)
        #expect(result.form == .xmlVersion2)
        #expect(result.key == key)
    }

    @Test("composite key: known values; empty password differs from none; none at all refused")
    func compositeKey() throws {
        let empty = try CompositeKey(password: "", keyFileContents: nil)
        #expect(empty.rawKey.unsafeArray.hexString == "5df6e0e2761359d30a8275058e299fcc0381534545f55cf43e41983f5d4c9456")
        let pw = try CompositeKey(password: "correct horse battery staple", keyFileContents: nil)
        #expect(pw.rawKey.unsafeArray.hexString == "b867db875479bcc0287352cdaa4a1755689b8338777d0915e9acd9f6edbc96cb")
        let demoKey = try TestVectors.bytes("kdbx/thirdparty/kdbxweb/demo.key")
        let both = try CompositeKey(password: "demo", keyFileContents: demoKey)
        #expect(both.rawKey.unsafeArray.hexString == "abef5e421ff912ddccc198c8c36d18f5928875e9cf9ffd5ec4f14749e8f2140c")
        let fileOnly = try CompositeKey(password: nil, keyFileContents: demoKey)
        let emptyAndFile = try CompositeKey(password: "", keyFileContents: demoKey)
        #expect(fileOnly.rawKey != emptyAndFile.rawKey)
        #expect(throws: KDBXError(.missingKeyComponent)) { try CompositeKey(password: nil, keyFileContents: nil) }
        #expect(!"\(both)".contains("demo"))
    }
}
