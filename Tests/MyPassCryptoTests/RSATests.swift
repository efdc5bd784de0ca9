import Foundation
import MyPassBytes
import MyPassCrypto
import MyPassTestSupport
import Testing

@Suite("RSA PKCS#1 v1.5 signatures")
struct RSATests {
    /// One Wycheproof file's groups: the key and its tests.
    struct Group: @unchecked Sendable {
        var digest: RSA.Digest
        var key: [String: Any]
        var tests: [[String: Any]]
    }

    static func groups(_ file: String) throws -> [Group] {
        let root = try #require(try parseJSON(TestVectors.text("rsa/" + file)) as? [String: Any])
        return (root["testGroups"] as! [[String: Any]]).compactMap { group in
            let digest: RSA.Digest
            switch group["sha"] as! String {
            case "SHA-256": digest = .sha256
            case "SHA-512": digest = .sha512
            default: return nil  // SHA-1, SHA-224, SHA-384: not used by SSH here
            }
            return Group(digest: digest, key: group, tests: group["tests"] as! [[String: Any]])
        }
    }

    static let verifyFiles = [
        "rsa_signature_2048_sha256_test.json", "rsa_signature_2048_sha512_test.json",
        "rsa_signature_3072_sha256_test.json", "rsa_signature_3072_sha512_test.json",
        "rsa_signature_4096_sha256_test.json", "rsa_signature_4096_sha512_test.json",
    ]

    @Test("Wycheproof RSASSA-PKCS1-v1_5 verification: valid accepted, invalid refused", arguments: verifyFiles)
    func verify(_ file: String) throws {
        var counts = (valid: 0, invalid: 0, acceptable: 0)
        var failures: [String] = []
        for group in try Self.groups(file) {
            let publicKey = group.key["publicKey"] as! [String: Any]
            let key = try RSA.PublicKey(modulus: hexBytes(publicKey["modulus"] as! String),
                                        exponent: hexBytes(publicKey["publicExponent"] as! String))
            #expect(key.bitCount == group.key["keySize"] as! Int)
            for test in group.tests {
                let accepted = key.isValidSignature(hexBytes(test["sig"] as! String), for: hexBytes(test["msg"] as! String),
                                                    digest: group.digest)
                switch test["result"] as! String {
                case "valid":
                    counts.valid += 1
                    if !accepted { failures.append("tcId \(test["tcId"]!) valid, refused") }
                case "invalid":
                    counts.invalid += 1
                    if accepted { failures.append("tcId \(test["tcId"]!) invalid, accepted \(test["flags"]!)") }
                default:
                    counts.acceptable += 1  // MissingNull and the like: a strict verifier refuses them
                    if accepted { failures.append("tcId \(test["tcId"]!) acceptable, accepted \(test["flags"]!)") }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count): \(failures.prefix(8))")
        #expect(counts.valid >= 7 && counts.invalid >= 240, "\(counts)")
    }

    static let signFiles = ["rsa_pkcs1_2048_sig_gen_test.json", "rsa_pkcs1_3072_sig_gen_test.json", "rsa_pkcs1_4096_sig_gen_test.json"]

    @Test("Wycheproof signature generation (SHA-256, SHA-512): the exact signature from the PKCS#8 and PKCS#1 keys",
          arguments: signFiles)
    func sign(_ file: String) throws {
        var signed = 0
        for group in try Self.groups(file) {
            let pkcs8 = hexBytes(group.key["privateKeyPkcs8"] as! String)
            let key = try RSA.PrivateKey(pkcs8DER: pkcs8)
            let fromPEM = try RSA.PrivateKey(pkcs1DER: PEM.decode(group.key["privateKeyPem"] as! String, label: "RSA PRIVATE KEY"))
            let publicKey = group.key["privateKey"] as! [String: Any]
            #expect(key.publicKey.modulus == Array(hexBytes(publicKey["modulus"] as! String).drop { $0 == 0 }))
            #expect(fromPEM.publicKey == key.publicKey)
            for test in group.tests {
                let message = hexBytes(test["msg"] as! String)
                let expected = hexBytes(test["sig"] as! String)
                let signature = try key.signature(for: message, digest: group.digest)
                #expect(signature == expected, "tcId \(test["tcId"]!)")
                #expect(key.publicKey.isValidSignature(signature, for: message, digest: group.digest))
                signed += 1
            }
        }
        #expect(signed >= 5, "\(file): \(signed) signatures")
    }

    @Test("blinding: the same message signed twice gives the same signature (PKCS#1 v1.5 is deterministic)")
    func deterministic() throws {
        let group = try #require(try Self.groups("rsa_pkcs1_2048_sig_gen_test.json").first { $0.digest == .sha256 })
        let key = try RSA.PrivateKey(pkcs8DER: hexBytes(group.key["privateKeyPkcs8"] as! String))
        let first = try key.signature(for: Array("blinded".utf8), digest: .sha512)
        let second = try key.signature(for: Array("blinded".utf8), digest: .sha512)
        #expect(first == second)
        #expect(first.count == 256)
        #expect(!key.publicKey.isValidSignature(first, for: Array("blinded".utf8), digest: .sha256))
        #expect(!String(describing: key).contains("modulus"))
    }

    @Test("keys out of range or inconsistent are typed errors")
    func badKeys() throws {
        let group = try #require(try Self.groups("rsa_pkcs1_2048_sig_gen_test.json").first { $0.digest == .sha256 })
        let pkcs8 = hexBytes(group.key["privateKeyPkcs8"] as! String)
        // Small, even, and exponent-less public keys.
        #expect(throws: CryptoError(.invalidKey)) { try RSA.PublicKey(modulus: [UInt8](repeating: 0xFF, count: 128), exponent: [1, 0, 1]) }
        #expect(throws: CryptoError(.invalidKey)) { try RSA.PublicKey(modulus: [UInt8](repeating: 0xFE, count: 256), exponent: [1, 0, 1]) }
        #expect(throws: CryptoError(.invalidKey)) { try RSA.PublicKey(modulus: [UInt8](repeating: 0xFF, count: 256), exponent: [2]) }
        #expect(throws: CryptoError(.invalidKey)) { try RSA.PublicKey(modulus: [UInt8](repeating: 0xFF, count: 256), exponent: [1]) }
        // A bit flipped in the private exponent: the test signature at load fails.
        var der = pkcs8
        let bigIntegers = RSATests.integerOffsets(in: der)
        #expect(bigIntegers.count >= 8)
        der[bigIntegers[3] + 40] ^= 0x01  // inside d
        #expect(throws: CryptoError(.invalidKey)) { try RSA.PrivateKey(pkcs8DER: der) }
        var primeFlipped = pkcs8
        primeFlipped[bigIntegers[4] + 40] ^= 0x01  // inside p: p·q ≠ n
        #expect(throws: CryptoError(.invalidKey)) { try RSA.PrivateKey(pkcs8DER: primeFlipped) }
        #expect(throws: CryptoError(.invalidKey)) { try RSA.PrivateKey(pkcs8DER: Array(pkcs8.dropLast())) }
        #expect(throws: CryptoError(.invalidKey)) { try RSA.PrivateKey(pkcs1DER: [0x30, 0x00]) }
    }

    /// The content offsets of the INTEGERs of an RSA PKCS#8 key (version, n, e, d, p, q, ...), found by
    /// walking the DER: the inner RSAPrivateKey starts at the first `30 82` after the OCTET STRING.
    static func integerOffsets(in der: [UInt8]) -> [Int] {
        var offsets: [Int] = []
        var index = 0
        // Skip to the inner SEQUENCE: outer SEQUENCE (4), version (3), AlgorithmIdentifier (15), OCTET STRING header (4).
        index = 4 + 3 + 15 + 4
        guard der[index] == 0x30 else { return [] }
        index += 4
        while index < der.count, der[index] == 0x02 {
            var length = Int(der[index + 1])
            var header = 2
            if length & 0x80 != 0 {
                let count = length & 0x7F
                length = 0
                for i in 0..<count { length = length << 8 | Int(der[index + 2 + i]) }
                header += count
            }
            offsets.append(index + header)
            index += header + length
        }
        return offsets
    }
}
