import Foundation
import MyPassBytes
import MyPassCrypto
import MyPassKDBX
import MyPassTestSupport
import Testing

/// Issue 20's codec findings: limits that protected binaries, decompression bombs and hostile KDF
/// rounds cannot pass, bytes after the final HMAC block, key-file wiping, the 3.x stream key type.
@Suite("Hardening: binary and decoded-size limits, KDF rounds cap, trailing bytes, key material")
struct HardeningTests {
    static let key = try! CompositeKey(password: "hardening", keyFileContents: nil)

    static func vault(notes: String = "n", version: KDBXVersion = .v4_0) -> Vault {
        var vault = Vault.new(name: "Hardening", now: .minimum,
                              format: VaultFormat(version: version, kdf: .aes(rounds: 10), innerStream: .salsa20))
        var entry = Entry()
        entry.setValue("T", for: "Title")
        entry.setValue(notes, for: "Notes")
        vault.root.entries.append(entry)
        return vault
    }

    @Test("a protected binary larger than maxBinaryBytes is refused like an unprotected one")
    func protectedBinaryLimit() throws {
        let payload = Base64.encode([UInt8](repeating: 0x41, count: 100))
        let limits = VaultXMLLimits(maxBinaryBytes: 64)
        for protected in [true, false] {
            let xml = keePassDocument(
                root: "<Group><UUID>AAAAAAAAAAAAAAAAAAAAAA==</UUID><Name>R</Name></Group>",
                meta: "<Binaries><Binary ID=\"0\"\(protected ? " Protected=\"True\"" : "")>\(payload)</Binary></Binaries>")
            #expect(throws: KDBXError(.limitExceeded), "protected: \(protected)") {
                try readBody(xml, version: .v3_1, limits: limits)
            }
            // At the limit it is read.
            _ = try readBody(xml, version: .v3_1, limits: VaultXMLLimits(maxBinaryBytes: 100))
        }
    }

    @Test("bytes after the final HMAC block are ignored, as KeePass and KeePassXC ignore them")
    func trailingBytes() throws {
        let file = try KDBXCodec.save(Self.vault(), key: Self.key)
        let original = try KDBXCodec.open(file, key: Self.key)
        for trailing in [[UInt8](repeating: 0, count: 1), Array("garbage after the stream".utf8), SecureRandom.bytes(count: 4096)] {
            let reopened = try KDBXCodec.open(file + trailing, key: Self.key)
            #expect(reopened == original)
        }
        // What was read saves and reopens (the trailing bytes are not carried into the new file).
        let resaved = try KDBXCodec.save(try KDBXCodec.open(file + [1, 2, 3], key: Self.key), key: Self.key)
        #expect(try KDBXCodec.open(resaved, key: Self.key).allEntries.map(\.title) == ["T"])
    }

    @Test("decoded size is bounded against the file size: a small gzip bomb is refused, a raised ratio reads it")
    func decodedBudget() throws {
        // 20 MiB of one letter: about 20 KB on disk, more than the 16 MiB floor and 40 x the payload.
        let file = try KDBXCodec.save(Self.vault(notes: String(repeating: "A", count: 20 << 20)), key: Self.key)
        #expect(file.count < 200_000)
        #expect(KDBXLimits().decodedBudgetBytes(payloadByteCount: file.count) == 16 << 20)
        do {
            _ = try KDBXCodec.open(file, key: Self.key)
            Issue.record("a 20 MiB body in a \(file.count)-byte file opened under the default budget")
        } catch {
            #expect(error.code == .limitExceeded)
            #expect(error.reason.contains("40 times"))
        }
        let opened = try KDBXCodec.open(file, key: Self.key, limits: KDBXLimits(maxDecompressionRatio: 2_000))
        #expect(opened.allEntries.first?.value(of: "Notes").utf8.count == 20 << 20)
        // The budget: the ratio, the floor, the absolute cap.
        let limits = KDBXLimits()
        #expect(limits.decodedBudgetBytes(payloadByteCount: 1 << 20) == 40 << 20)
        #expect(limits.decodedBudgetBytes(payloadByteCount: 100 << 20) == 1 << 30)
        #expect(limits.decodedBudgetBytes(payloadByteCount: .max) == 1 << 30)
    }

    @Test("AES-KDF rounds above the default cap (200,000,000) are refused before the KDF runs; a raised limit passes the check")
    func aesRoundsCap() throws {
        #expect(KDBXLimits().maxAESKDFRounds == 200_000_000)
        #expect(KDBXLimits.defaultMaxAESKDFRounds == 200_000_000)
        // KeePass's default 60,000 rounds with bit 30 flipped: a quarter of an hour of KDF here.
        let flipped: UInt64 = 60_000 | 1 << 30
        let kdf = KDFParameters(settings: .aes(rounds: flipped), seed: [UInt8](repeating: 7, count: 32))
        #expect(throws: KDBXError(.limitExceeded)) {
            _ = try MasterKeys.transform(compositeKey: Self.key, kdf: kdf, limits: KDBXLimits())
        }
        // Raised, the check passes and the KDF starts; its first progress report cancels it.
        var reports = 0
        #expect(throws: KDBXError(.cancelled)) {
            _ = try MasterKeys.transform(compositeKey: Self.key, kdf: kdf, limits: KDBXLimits(maxAESKDFRounds: flipped)) { _ in
                reports += 1
                return false
            }
        }
        #expect(reports == 1)
    }

    @Test("the KDBX 3.x inner stream key is kept in wiping storage")
    func innerStreamKeyType() throws {
        let file = try TestVectors.bytes("kdbx/keepass/kdbx31-aes-aeskdf.kdbx")
        let header = try KDBXHeader.read(from: file[...]).header
        let streamKey: SecureBytes? = header.innerStreamKey
        #expect(streamKey?.count == 32)
        #expect(streamKey?.description == "SecureBytes(32 bytes)")
    }

    @Test("the KDBX 4 inner header's stream key is kept in wiping storage")
    func innerHeaderStreamKeyType() throws {
        let file = try TestVectors.bytes("kdbx/keepass/kdbx4-chacha20-aeskdf.kdbx")
        let key = try CompositeKey(password: ProtectedString("correct horse battery staple"), keyFileContents: nil)
        let reader = try KDBXReader(file: file)
        let content = try reader.decompress(try reader.decryptPayload(keys: try reader.deriveKeys(key)))
        var parser = InnerHeader.Parser(limits: KDBXLimits())
        #expect(try parser.feed(content[...]) != nil)
        let streamKey: SecureBytes? = parser.header?.streamKey
        #expect(streamKey?.count == 64)
        #expect(streamKey?.description == "SecureBytes(64 bytes)")
    }

    @Test("KeyFile.read(wiping:) zeroes the file's bytes, whatever the form or outcome")
    func keyFileWiping() throws {
        let key = SecureBytes(SecureRandom.bytes(count: 32))
        for var contents in [KeyFile.xmlVersion2(key: key), SecureRandom.bytes(count: 32), SecureRandom.bytes(count: 100),
                             Array("<KeyFile><Meta><Version>9</Version></Meta><Key><Data>00</Data></Key></KeyFile>".utf8)] {
            let count = contents.count
            _ = try? KeyFile.read(wiping: &contents)
            #expect(contents == [UInt8](repeating: 0, count: count))
        }
    }

    @Test("an XML key file's data is read from the bytes at the place the tokenizer names (CRLF, BOM, attributes, comments)")
    func keyFileDataPlacement() throws {
        let key = SecureBytes(SecureRandom.bytes(count: 32))
        let generated = KeyFile.xmlVersion2(key: key)
        #expect(try KeyFile.read(generated).key == key)
        #expect(try KeyFile.read([0xEF, 0xBB, 0xBF] + generated).key == key)
        // A commented-out Data element before the real one, an attribute with '>' in quotes.
        var text = String(decoding: generated, as: UTF8.self)
        text = text.replacingOccurrences(of: "<Key>", with: "<Key>\n<!-- <Data>FFFF</Data> -->")
        text = text.replacingOccurrences(of: "<Data Hash", with: "<Data Note=\"a>b\" Hash")
        #expect(try KeyFile.read(Array(text.utf8)).key == key)
    }
}
