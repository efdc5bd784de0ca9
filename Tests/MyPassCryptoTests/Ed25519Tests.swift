import Foundation
import MyPassBytes
import MyPassTestSupport
import Testing
import MyPassCrypto

@Suite("Ed25519")
struct Ed25519Tests {
    static let wycheproof = (try? wycheproofSignatureTests("eddsa/ed25519_test.json")) ?? []

    struct RFCVector: CustomTestStringConvertible, Sendable {
        var name: String, secretKey: [UInt8], publicKey: [UInt8], message: [UInt8], signature: [UInt8]
        var testDescription: String { name }
    }

    static let rfc8032: [RFCVector] = {
        guard let root = try? parseJSON(TestVectors.text("eddsa/rfc8032_ed25519.json")) as? [String: Any] else { return [] }
        return (root["vectors"] as! [[String: String]]).map {
            RFCVector(
                name: $0["name"]!, secretKey: hexBytes($0["secretKey"]!), publicKey: hexBytes($0["publicKey"]!),
                message: hexBytes($0["message"]!), signature: hexBytes($0["signature"]!))
        }
    }()

    @Test("RFC 8032 §7.1 has four vectors here")
    func vectorCount() { #expect(Self.rfc8032.count == 4) }

    @Test("RFC 8032 §7.1: public key and signature byte for byte, and verification", arguments: rfc8032)
    func rfcVector(_ vector: RFCVector) throws {
        let key = try Ed25519.SigningKey(rawRepresentation: vector.secretKey)
        #expect(key.publicKey.rawRepresentation == vector.publicKey)
        #expect(key.signature(for: vector.message) == vector.signature)
        #expect(key.signature(for: offsetSlice(vector.message)) == vector.signature)
        let publicKey = try Ed25519.PublicKey(rawRepresentation: vector.publicKey)
        #expect(publicKey.isValidSignature(vector.signature, for: vector.message))
        var tampered = vector.signature
        tampered[40] ^= 0x01
        #expect(!publicKey.isValidSignature(tampered, for: vector.message))
        #expect(!publicKey.isValidSignature(vector.signature, for: vector.message + [0]))
    }

    @Test("Wycheproof ed25519_test: every test gives its expected result")
    func wycheproofFile() {
        #expect(Self.wycheproof.count == 151)
        var failures: [String] = []
        for test in Self.wycheproof {
            let accepted: Bool
            if let key = try? Ed25519.PublicKey(rawRepresentation: test.publicKey) {
                accepted = key.isValidSignature(test.signature, for: test.message)
            } else {
                accepted = false
            }
            if accepted != (test.result == "valid") { failures.append(test.testDescription) }
        }
        #expect(failures.isEmpty, "\(failures.count) mismatches: \(failures.prefix(10))")
    }

    @Test("Keys: wrong sizes and points off the curve are typed errors; generated keys work; no secret in description")
    func keys() throws {
        #expect(throws: CryptoError(.invalidKey)) { try Ed25519.SigningKey(rawRepresentation: [UInt8](repeating: 1, count: 31)) }
        #expect(throws: CryptoError(.invalidKey)) { try Ed25519.PublicKey(rawRepresentation: [UInt8](repeating: 1, count: 33)) }
        // y = p (non-canonical) is refused.
        let p: [UInt8] = [0xED] + [UInt8](repeating: 0xFF, count: 30) + [0x7F]   // 2^255 - 19, little-endian
        #expect(throws: CryptoError(.invalidKey)) { try Ed25519.PublicKey(rawRepresentation: p) }
        let key = Ed25519.SigningKey.generate()
        let message = Array("webauthn".utf8)
        #expect(key.publicKey.isValidSignature(key.signature(for: message), for: message))
        let seedHex = key.rawRepresentation.withUnsafeBytes { Array($0) }.hexString
        #expect(!"\(key)".contains(seedHex))
    }

    @Test("The fixed-base table gives the same points as the generic window ladder (the readable reference)")
    func baseTableMatchesLadder() {
        // 0, 1, the group order L (RFC 8032 §5.1), random, all ones; little-endian.
        let order = hexBytes("edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010")
        let scalars = [[UInt8](repeating: 0, count: 32), [1] + [UInt8](repeating: 0, count: 31), order,
                       SecureRandom.bytes(count: 32), [UInt8](repeating: 0xFF, count: 32)]
        for scalar in scalars {
            #expect(Ed25519.baseTableMatchesLadderForTesting(scalar: scalar))
        }
    }
}
