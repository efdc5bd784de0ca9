import Foundation
import MyPassBytes
import MyPassTestSupport
import Testing
@testable import MyPassCrypto

@Suite("P-256 ECDSA")
struct P256Tests {
    static let wycheproofDER = (try? wycheproofSignatureTests("ecdsa/ecdsa_secp256r1_sha256_test.json")) ?? []
    static let wycheproofP1363 = (try? wycheproofSignatureTests("ecdsa/ecdsa_secp256r1_sha256_p1363_test.json")) ?? []

    struct RFC6979Vector {
        var privateKey: [UInt8], publicX: [UInt8], publicY: [UInt8]
        var cases: [(message: String, k: [UInt8], r: [UInt8], s: [UInt8])]
    }

    static func rfc6979() throws -> RFC6979Vector {
        let root = try parseJSON(TestVectors.text("ecdsa/rfc6979_p256_sha256.json")) as! [String: Any]
        let cases = (root["signatures"] as! [[String: String]]).map {
            (message: $0["message"]!, k: hexBytes($0["k"]!), r: hexBytes($0["r"]!), s: hexBytes($0["s"]!))
        }
        return RFC6979Vector(
            privateKey: hexBytes(root["privateKey"] as! String), publicX: hexBytes(root["publicKeyX"] as! String),
            publicY: hexBytes(root["publicKeyY"] as! String), cases: cases)
    }

    @Test("RFC 6979 A.2.5: public key, nonce k, and the deterministic (r, s) for SHA-256")
    func rfc6979Vectors() throws {
        let vector = try Self.rfc6979()
        let key = try P256.SigningKey(rawRepresentation: vector.privateKey)
        #expect(key.publicKey.x == vector.publicX)
        #expect(key.publicKey.y == vector.publicY)
        // The same key from a slice that does not start at index 0.
        #expect(try P256.SigningKey(rawRepresentation: offsetSlice(vector.privateKey)).publicKey == key.publicKey)
        #expect(vector.cases.count == 2)
        for item in vector.cases {
            let digest = SHA256.hash(Array(item.message.utf8))
            #expect(RFC6979.nonce(privateKey: vector.privateKey, digest: digest).bigEndianBytes == item.k)
            let signature = key.signature(for: Array(item.message.utf8))
            #expect(signature.r == item.r, "r for \(item.message)")
            #expect(signature.s == item.s, "s for \(item.message)")
            #expect(key.publicKey.isValidSignature(signature, for: Array(item.message.utf8)))
            #expect(!key.publicKey.isValidSignature(signature, for: Array((item.message + "!").utf8)))
            // DER round trip.
            #expect(try P256.Signature(derRepresentation: signature.derRepresentation) == signature)
        }
    }

    @Test("Wycheproof ecdsa_secp256r1_sha256 (DER signatures): every test gives its expected result")
    func wycheproofDERFile() {
        #expect(Self.wycheproofDER.count == 484)
        var failures: [String] = []
        for test in Self.wycheproofDER {
            let accepted: Bool
            if let key = try? P256.PublicKey(x963Representation: test.publicKey),
               let signature = try? P256.Signature(derRepresentation: test.signature) {
                accepted = key.isValidSignature(signature, for: test.message)
            } else {
                accepted = false
            }
            if accepted != (test.result == "valid") { failures.append(test.testDescription) }
        }
        #expect(failures.isEmpty, "\(failures.count) mismatches: \(failures.prefix(10))")
    }

    @Test("Wycheproof ecdsa_secp256r1_sha256_p1363 (r || s signatures): every test gives its expected result")
    func wycheproofP1363File() {
        #expect(Self.wycheproofP1363.count == 262)
        var failures: [String] = []
        for test in Self.wycheproofP1363 {
            let accepted: Bool
            if let key = try? P256.PublicKey(x963Representation: test.publicKey),
               let signature = try? P256.Signature(rawRepresentation: test.signature) {
                accepted = key.isValidSignature(signature, for: test.message)
            } else {
                accepted = false
            }
            if accepted != (test.result == "valid") { failures.append(test.testDescription) }
        }
        #expect(failures.isEmpty, "\(failures.count) mismatches: \(failures.prefix(10))")
    }

    @Test("Private keys out of range and points off the curve are typed errors")
    func invalidKeys() {
        #expect(throws: CryptoError(.invalidKey)) { try P256.SigningKey(rawRepresentation: [UInt8](repeating: 0, count: 32)) }
        #expect(throws: CryptoError(.invalidKey)) { try P256.SigningKey(rawRepresentation: P256OrderModulus.modulus.bigEndianBytes) }
        #expect(throws: CryptoError(.invalidKey)) { try P256.SigningKey(rawRepresentation: [1, 2, 3]) }
        var offCurve = P256Point.generator.affine()
        offCurve.y.l0 ^= 1
        #expect(throws: CryptoError(.invalidKey)) {
            try P256.PublicKey(rawRepresentation: offCurve.x.bigEndianBytes + offCurve.y.bigEndianBytes)
        }
        #expect(throws: CryptoError(.invalidSignature)) { try P256.Signature(rawRepresentation: [UInt8](repeating: 1, count: 63)) }
    }

    @Test("n - 1 as a private key gives -G; generated keys sign and verify; description hides the key")
    func generatedKeys() throws {
        let (nMinusOne, _) = UInt256.subtract(P256OrderModulus.modulus, UInt256(1, 0, 0, 0))
        let key = try P256.SigningKey(rawRepresentation: nMinusOne.bigEndianBytes)
        let g = P256Point.generator.affine()
        #expect(key.publicKey.x == g.x.bigEndianBytes)
        #expect(key.publicKey.y == (-P256FieldElement(reduced: g.y)).value.bigEndianBytes)
        let generated = P256.SigningKey.generate()
        let message = Array("passkey".utf8)
        #expect(generated.publicKey.isValidSignature(generated.signature(for: message), for: message))
        let secretHex = generated.rawRepresentation.withUnsafeBytes { Array($0) }.hexString
        #expect(!"\(generated)".contains(secretHex))
    }

    @Test("The fixed-base table gives the same points as the generic window ladder (the readable reference)")
    func generatorTableMatchesLadder() {
        let scalars = [UInt256(0, 0, 0, 0), UInt256(1, 0, 0, 0), UInt256.subtract(P256OrderModulus.modulus, UInt256(1, 0, 0, 0)).difference,
                       UInt256(bigEndian: SecureRandom.bytes(count: 32)), UInt256(bigEndian: [UInt8](repeating: 0xFF, count: 32))]
        for scalar in scalars {
            let table = P256Point.multipliedGenerator(by: scalar)
            let ladder = P256Point.generator.multiplied(by: scalar)
            #expect(table.isInfinityMask == ladder.isInfinityMask)
            if ladder.isInfinityMask == 0 { #expect(table.affine() == ladder.affine()) }
        }
    }
}
