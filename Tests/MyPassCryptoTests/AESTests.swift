import Foundation
import MyPassCrypto
import MyPassTestSupport
import Testing

/// Raw CBC (no padding) through the public streaming API: `update` on whole blocks returns
/// exactly the CBC ciphertext of those blocks.
func rawCBCEncrypt(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8], seed: UInt64,
                   backend: AESBackend = .portable) throws -> [UInt8] {
    var encryptor = try AESCBCEncryptor(key: key, iv: iv, backend: backend)
    var out: [UInt8] = []
    for piece in randomSplits(plaintext, seed: seed) { out += encryptor.update(piece) }
    return out
}

/// Raw CBC decryption through the padded API: append one block that decrypts to a full padding
/// block (E(0x10... ^ last ciphertext block)), so `finalize` strips exactly that block.
func rawCBCDecrypt(_ ciphertext: [UInt8], key: [UInt8], iv: [UInt8], seed: UInt64,
                   backend: AESBackend = .portable) throws -> [UInt8] {
    let aes = try AES256(key: key, backend: backend)
    let last = ciphertext.count >= 16 ? Array(ciphertext.suffix(16)) : iv
    let padBlock = aes.encrypt(block: xorBytes(last, [UInt8](repeating: 16, count: 16)))
    var decryptor = try AESCBCDecryptor(key: key, iv: iv, backend: backend)
    var out: [UInt8] = []
    for piece in randomSplits(ciphertext + padBlock, seed: seed) { out += decryptor.update(piece) }
    out += try decryptor.finalize()
    return out
}

func xorBytes(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
    var out = a
    for i in 0..<out.count { out[i] ^= b[i] }
    return out
}

func tupleBlock(_ b: [UInt8]) -> AES256.Block {
    var block: AES256.Block = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    withUnsafeMutableBytes(of: &block) { $0.copyBytes(from: b) }
    return block
}

func bytes(of block: AES256.Block) -> [UInt8] {
    withUnsafeBytes(of: block) { Array($0) }
}

@Suite("AES-256 NIST CAVP, on every backend")
struct AESCAVPTests {
    static let ecbKAT = ["ECBGFSbox256.rsp", "ECBKeySbox256.rsp", "ECBVarKey256.rsp", "ECBVarTxt256.rsp", "ECBMMT256.rsp"]
    static let cbcKAT = ["CBCGFSbox256.rsp", "CBCKeySbox256.rsp", "CBCVarKey256.rsp", "CBCVarTxt256.rsp", "CBCMMT256.rsp"]

    @Test("ECB known answers (GFSbox, KeySbox, VarKey, VarTxt, MMT)", arguments: ecbKAT, TestBackends.aes)
    func ecb(file: String, backend: AESBackend) throws {
        let records = try cavpRecords(file)
        #expect(records.count >= 10)
        for r in records {
            let aes = try AES256(key: r.key, backend: backend)
            var output: [UInt8] = []
            let input = r.encrypt ? r.plaintext : r.ciphertext
            for start in stride(from: 0, to: input.count, by: 16) {
                let block = Array(input[start..<(start + 16)])
                output += r.encrypt ? aes.encrypt(block: block) : aes.decrypt(block: block)
            }
            let expected = r.encrypt ? r.ciphertext : r.plaintext
            #expect(output == expected, "\(r.testDescription)")
        }
    }

    @Test("CBC known answers, input split at random points", arguments: cbcKAT, TestBackends.aes)
    func cbc(file: String, backend: AESBackend) throws {
        let records = try cavpRecords(file)
        #expect(records.count >= 10)
        for (n, r) in records.enumerated() {
            if r.encrypt {
                let ct = try rawCBCEncrypt(r.plaintext, key: r.key, iv: r.iv, seed: UInt64(n + 1), backend: backend)
                #expect(ct == r.ciphertext, "\(r.testDescription)")
            } else {
                let pt = try rawCBCDecrypt(r.ciphertext, key: r.key, iv: r.iv, seed: UInt64(n + 7), backend: backend)
                #expect(pt == r.plaintext, "\(r.testDescription)")
            }
        }
    }

    @Test("ECB Monte Carlo: 1000 chained blocks per record", arguments: TestBackends.aes)
    func ecbMonteCarlo(backend: AESBackend) throws {
        let records = try cavpRecords("ECBMCT256.rsp")
        #expect(records.count == 200)
        for r in records {
            let aes = try AES256(key: r.key, backend: backend)
            var block = tupleBlock(r.encrypt ? r.plaintext : r.ciphertext)
            for _ in 0..<1000 {
                if r.encrypt { aes.encryptBlock(&block) } else { aes.decryptBlock(&block) }
            }
            let expected = r.encrypt ? r.ciphertext : r.plaintext
            #expect(bytes(of: block) == expected, "\(r.testDescription)")
        }
    }

    @Test("CBC Monte Carlo (AESAVS 6.4.2): 1000 chained blocks per record", arguments: TestBackends.aes)
    func cbcMonteCarlo(backend: AESBackend) throws {
        let records = try cavpRecords("CBCMCT256.rsp")
        #expect(records.count == 200)
        for r in records {
            let aes = try AES256(key: r.key, backend: backend)
            if r.encrypt {
                // CT[j] = E(PT[j] ^ CV); PT[j+1] = CV (the IV first, then CT[j-1]); CV = CT[j].
                var pt = r.plaintext, cv = r.iv
                var ct: [UInt8] = []
                for _ in 0..<1000 {
                    ct = aes.encrypt(block: xorBytes(pt, cv))
                    pt = cv
                    cv = ct
                }
                #expect(ct == r.ciphertext, "\(r.testDescription)")
            } else {
                // PT[j] = D(CT[j]) ^ CV; CV = CT[j]; CT[j+1] = the IV (j = 0) or PT[j-1].
                var ct = r.ciphertext, cv = r.iv
                var pt: [UInt8] = []
                var previous = r.iv
                for _ in 0..<1000 {
                    pt = xorBytes(aes.decrypt(block: ct), cv)
                    cv = ct
                    ct = previous
                    previous = pt
                }
                #expect(pt == r.plaintext, "\(r.testDescription)")
            }
        }
    }
}

/// Project Wycheproof AES-CBC-PKCS5, 256-bit key group.
struct WycheproofCBCCase: CustomTestStringConvertible, Sendable {
    var id: Int
    var key: [UInt8], iv: [UInt8], message: [UInt8], ciphertext: [UInt8]
    var valid: Bool
    var testDescription: String { "tcId \(id) (\(valid ? "valid" : "invalid"))" }

    static func load() throws -> [WycheproofCBCCase] {
        let data = try Data(contentsOf: TestVectors.url("aes/aes_cbc_pkcs5_test.json"))
        let root = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        var cases: [WycheproofCBCCase] = []
        for group in root["testGroups"] as! [[String: Any]] where group["keySize"] as! Int == 256 {
            for t in group["tests"] as! [[String: Any]] {
                cases.append(WycheproofCBCCase(
                    id: t["tcId"] as! Int, key: hexBytes(t["key"] as! String), iv: hexBytes(t["iv"] as! String),
                    message: hexBytes(t["msg"] as! String), ciphertext: hexBytes(t["ct"] as! String),
                    valid: t["result"] as! String == "valid"))
            }
        }
        return cases
    }
}

@Suite("AES-256-CBC with PKCS#7, on every backend")
struct AESCBCPaddingTests {
    @Test("Wycheproof aes_cbc_pkcs5: valid cases round-trip, invalid padding is rejected", arguments: TestBackends.aes)
    func wycheproof(backend: AESBackend) throws {
        let cases = try WycheproofCBCCase.load()
        #expect(cases.count == 72)
        #expect(cases.filter { !$0.valid }.count > 40)
        for c in cases {
            if c.valid {
                #expect(try AESCBC.encrypt(c.message, key: c.key, iv: c.iv, backend: backend) == c.ciphertext, "\(c.testDescription)")
                #expect(try AESCBC.decrypt(c.ciphertext, key: c.key, iv: c.iv, backend: backend) == c.message, "\(c.testDescription)")
                var encryptor = try AESCBCEncryptor(key: c.key, iv: c.iv, backend: backend)
                #expect(try stream(&encryptor, randomSplits(c.message, seed: UInt64(c.id))) == c.ciphertext)
                var decryptor = try AESCBCDecryptor(key: c.key, iv: c.iv, backend: backend)
                #expect(try stream(&decryptor, randomSplits(c.ciphertext, seed: UInt64(c.id) + 99)) == c.message)
                var sliced = try AESCBCDecryptor(key: c.key, iv: c.iv, backend: backend)
                #expect(try stream(&sliced, [offsetSlice(c.ciphertext)]) == c.message)
            } else {
                #expect(throws: CryptoError.self, "\(c.testDescription)") {
                    try AESCBC.decrypt(c.ciphertext, key: c.key, iv: c.iv, backend: backend)
                }
                var decryptor = try AESCBCDecryptor(key: c.key, iv: c.iv, backend: backend)
                #expect(throws: CryptoError.self) { try stream(&decryptor, randomSplits(c.ciphertext, seed: 5)) }
            }
        }
    }

    @Test("Streaming matches one-shot for every length 0...300 and any chunking; slices not at 0",
          arguments: TestBackends.aes)
    func streamingRoundTrip(backend: AESBackend) throws {
        let key = pseudoRandomBytes(32, seed: 1), iv = pseudoRandomBytes(16, seed: 2)
        for length in 0...300 {
            let message = pseudoRandomBytes(length, seed: UInt64(length) + 10)
            let oneShot = try AESCBC.encrypt(message, key: key, iv: iv, backend: backend)
            #expect(oneShot.count == (length / 16 + 1) * 16)
            var encryptor = try AESCBCEncryptor(key: key, iv: iv, backend: backend)
            #expect(try stream(&encryptor, randomSplits(message, seed: UInt64(length), maxPiece: 40)) == oneShot)
            var sliced = try AESCBCEncryptor(key: key, iv: iv, backend: backend)
            #expect(try stream(&sliced, [offsetSlice(message)]) == oneShot)
            var decryptor = try AESCBCDecryptor(key: key, iv: iv, backend: backend)
            #expect(try stream(&decryptor, randomSplits(oneShot, seed: UInt64(length) * 3, maxPiece: 70)) == message)
        }
    }

    @Test("Errors: key and IV sizes, truncated ciphertext, bad padding codes")
    func errors() throws {
        let key = [UInt8](repeating: 1, count: 32), iv = [UInt8](repeating: 2, count: 16)
        #expect(throws: CryptoError(.invalidKeySize)) { try AES256(key: [UInt8](repeating: 0, count: 16)) }
        #expect(throws: CryptoError(.invalidNonceSize)) { try AESCBCEncryptor(key: key, iv: [1, 2, 3]) }
        #expect(throws: CryptoError(.invalidInputLength)) { try AESCBC.decrypt([], key: key, iv: iv) }
        let ct = try AESCBC.encrypt([1, 2, 3], key: key, iv: iv)
        #expect(throws: CryptoError(.invalidInputLength)) { try AESCBC.decrypt(Array(ct.dropLast()), key: key, iv: iv) }
        // Flipping IV bit 0 of byte 15 turns the padding byte 0x0D into 0x0C: bytes 4...14 then disagree.
        let ivTampered = iv.enumerated().map { $0.offset == 15 ? $0.element ^ 0x01 : $0.element }
        #expect(throws: CryptoError(.invalidPadding)) { try AESCBC.decrypt(ct, key: key, iv: ivTampered) }
    }
}
