import MyPassCrypto
import MyPassTestSupport
import Testing

@Suite("Twofish")
struct TwofishTests {
    @Test("Counterpane ecb_tbl.txt, all key sizes (encrypt and decrypt)")
    func table() throws {
        let records = try keyValueRecords("twofish/ecb_tbl.txt").filter { $0["KEY"] != nil }
        #expect(records.count == 147)
        for r in records {
            let cipher = try Twofish(key: hexBytes(r["KEY"]!))
            #expect(cipher.encrypt(block: hexBytes(r["PT"]!)) == hexBytes(r["CT"]!), "I=\(r["I"]!) key \(r["KEY"]!.count * 4) bits")
            #expect(cipher.decrypt(block: hexBytes(r["CT"]!)) == hexBytes(r["PT"]!))
        }
    }

    @Test("Botan twofish.vec (tables and variable-key KAT)")
    func botan() throws {
        let records = try keyValueRecords("twofish/botan-twofish.vec")
        #expect(records.count > 700)
        for r in records {
            let cipher = try Twofish(key: hexBytes(r["KEY"]!))
            let input = hexBytes(r["IN"]!), expected = hexBytes(r["OUT"]!)
            var out: [UInt8] = []
            for start in stride(from: 0, to: input.count, by: 16) { out += cipher.encrypt(block: Array(input[start..<(start + 16)])) }
            #expect(out == expected, "key \(r["KEY"]!)")
        }
    }

    /// Counterpane CBC Monte Carlo, 256-bit keys: 10,000 chained block operations per entry.
    static func monteCarlo(_ file: String) throws -> [[String: String]] {
        let all = try keyValueRecords("twofish/" + file)
        // KEYSIZE=256 appears as its own record; the entries after it use 256-bit keys.
        return all.filter { ($0["KEY"]?.count ?? 0) == 64 }
    }

    @Test("CBC encrypt Monte Carlo (cbc_e_m.txt, 256-bit keys) through the streaming encryptor")
    func cbcEncryptMonteCarlo() throws {
        let records = try TwofishTests.monteCarlo("cbc_e_m.txt")
        #expect(records.count == 400)
        for r in records {
            // ct = E(pt ^ cv); pt = cv; cv = ct  (cv starts as the IV). With the streaming CBC
            // encryptor the chaining is internal: feeding pt[j] gives ct[j].
            var encryptor = try TwofishCBCEncryptor(key: hexBytes(r["KEY"]!), iv: hexBytes(r["IV"]!))
            var pt = hexBytes(r["PT"]!), cv = hexBytes(r["IV"]!), ct: [UInt8] = []
            for _ in 0..<10_000 {
                ct = encryptor.update(pt[...])
                pt = cv
                cv = ct
            }
            #expect(ct == hexBytes(r["CT"]!), "I=\(r["I"]!)")
        }
    }

    @Test("CBC decrypt Monte Carlo (cbc_d_m.txt, 256-bit keys)")
    func cbcDecryptMonteCarlo() throws {
        let records = try TwofishTests.monteCarlo("cbc_d_m.txt")
        #expect(records.count == 400)
        for r in records {
            // pt = D(ct) ^ cv; cv = ct; ct = pt
            let cipher = try Twofish(key: hexBytes(r["KEY"]!))
            var ct = hexBytes(r["CT"]!), cv = hexBytes(r["IV"]!), pt: [UInt8] = []
            for _ in 0..<10_000 {
                pt = cipher.decrypt(block: ct)
                for i in 0..<16 { pt[i] ^= cv[i] }
                cv = ct
                ct = pt
            }
            #expect(pt == hexBytes(r["PT"]!), "I=\(r["I"]!)")
        }
    }

    @Test("Twofish-CBC with PKCS#7: streaming equals one block-by-block reference, any chunking")
    func cbcPadding() throws {
        let key = pseudoRandomBytes(32, seed: 21), iv = pseudoRandomBytes(16, seed: 22)
        let cipher = try Twofish(key: key)
        for length in [0, 1, 15, 16, 17, 31, 32, 100, 257] {
            let message = pseudoRandomBytes(length, seed: UInt64(length) + 5)
            // Reference: pad, then chain block by block with the public single-block API.
            let padding = 16 - length % 16
            let padded = message + [UInt8](repeating: UInt8(padding), count: padding)
            var expected: [UInt8] = [], cv = iv
            for start in stride(from: 0, to: padded.count, by: 16) {
                var block = Array(padded[start..<(start + 16)])
                for i in 0..<16 { block[i] ^= cv[i] }
                cv = cipher.encrypt(block: block)
                expected += cv
            }
            var encryptor = try TwofishCBCEncryptor(key: key, iv: iv)
            #expect(try stream(&encryptor, randomSplits(message, seed: UInt64(length) + 1, maxPiece: 20)) == expected)
            var decryptor = try TwofishCBCDecryptor(key: key, iv: iv)
            #expect(try stream(&decryptor, randomSplits(expected, seed: UInt64(length) + 2, maxPiece: 20)) == message)
            var sliced = try TwofishCBCDecryptor(key: key, iv: iv)
            #expect(try stream(&sliced, [offsetSlice(expected)]) == message)
        }
        var bad = try TwofishCBCDecryptor(key: key, iv: iv)
        #expect(throws: CryptoError(.invalidInputLength)) { try stream(&bad, [offsetSlice([1, 2, 3])]) }
        #expect(throws: CryptoError(.invalidKeySize)) { try Twofish(key: [UInt8](repeating: 0, count: 20)) }
    }
}
