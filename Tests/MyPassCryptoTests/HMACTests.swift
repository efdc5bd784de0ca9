import Foundation
import MyPassBytes
import MyPassCrypto
import MyPassTestSupport
import Testing

/// MACs `message` under `key` one-shot, from a SecureBytes key, as an offset slice and in random
/// pieces; all must agree. Returns the one-shot tag.
func macAllWays<H: HashFunction>(_: H.Type, key: [UInt8], message: [UInt8], seed: UInt64) -> [UInt8] {
    let whole = HMAC<H>.authenticationCode(for: message, key: key)
    var secureKeyed = HMAC<H>(key: SecureBytes(key))
    secureKeyed.update(offsetSlice(message))
    #expect(secureKeyed.finalize() == whole)
    var pieces = HMAC<H>(key: key)
    for piece in randomSplits(message, seed: seed) { pieces.update(piece) }
    #expect(pieces.finalize() == whole)
    var raw = HMAC<H>(key: key)
    for piece in randomSplits(message, seed: seed &+ 7, maxPiece: 40) { piece.withUnsafeBytes { raw.update($0) } }
    #expect(raw.finalize() == whole)
    return whole
}

func checkNISTSection<H: HashFunction>(_ type: H.Type, _ section: String, records: [ResponseRecord]) -> Int {
    let selected = records.filter { $0.section == section && $0["Mac"] != nil }
    for (index, record) in selected.enumerated() {
        let key = record.bytes("Key")
        #expect(key.count == record.int("Klen"))
        let tag = macAllWays(type, key: key, message: record.bytes("Msg"), seed: UInt64(index + 1))
        #expect(tag.count == H.digestByteCount)
        #expect(Array(tag.prefix(record.int("Tlen"))).hexString == record["Mac"]!, "\(section) Count = \(record["Count"]!)")
    }
    return selected.count
}

func checkWycheproof<H: HashFunction>(_ type: H.Type, _ path: String) throws -> Int {
    let json = try JSONSerialization.jsonObject(with: Data(try TestVectors.bytes(path))) as! [String: Any]
    var checked = 0
    for group in json["testGroups"] as! [[String: Any]] {
        let tagBytes = (group["tagSize"] as! Int) / 8
        for test in group["tests"] as! [[String: Any]] {
            let key = hexBytes(test["key"] as! String)
            let tag = macAllWays(type, key: key, message: hexBytes(test["msg"] as! String), seed: UInt64(checked + 1))
            let matches = Array(tag.prefix(tagBytes)) == hexBytes(test["tag"] as! String)
            let valid = (test["result"] as! String) == "valid"
            #expect(matches == valid, "\(path) tcId \(test["tcId"]!)")
            checked += 1
        }
    }
    return checked
}

@Suite("HMAC against NIST HMACVS, RFC 4231 and Wycheproof")
struct HMACTests {
    @Test func nistHMACVS() throws {
        let records = try responseRecords("hmac/HMAC.rsp")
        #expect(checkNISTSection(SHA1.self, "L=20", records: records) == 300)
        #expect(checkNISTSection(SHA256.self, "L=32", records: records) == 225)
        #expect(checkNISTSection(SHA512.self, "L=64", records: records) == 375)
    }

    @Test func rfc4231() throws {
        for (file, type) in [("hmac/rfc-4231-sha256.txt", 256), ("hmac/rfc-4231-sha512.txt", 512)] {
            let records = try responseRecords(file).filter { $0["MD"] != nil }
            #expect(records.count == 6)
            for (index, record) in records.enumerated() {
                let key = record.bytes("Key"), message = record.bytes("Msg")
                let tag = type == 256
                    ? macAllWays(SHA256.self, key: key, message: message, seed: UInt64(index + 1))
                    : macAllWays(SHA512.self, key: key, message: message, seed: UInt64(index + 1))
                #expect(tag.hexString == record["MD"]!, "\(file) case \(index + 1)")
            }
        }
    }

    @Test func wycheproof() throws {
        #expect(try checkWycheproof(SHA256.self, "hmac/hmac_sha256_test.json") == 174)
        #expect(try checkWycheproof(SHA512.self, "hmac/hmac_sha512_test.json") == 174)
    }

    /// RFC 2202 test case 1 for HMAC-SHA-1 (what HOTP/TOTP use).
    @Test func rfc2202SHA1() {
        let tag = HMAC<SHA1>.authenticationCode(for: Array("Hi There".utf8), key: [UInt8](repeating: 0x0b, count: 20))
        #expect(tag.hexString == "b617318655057264e28bc0b6fb378c8ef146be00")
    }
}
