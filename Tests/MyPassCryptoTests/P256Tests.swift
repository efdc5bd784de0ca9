import Foundation
import MyPassBytes
import MyPassTestSupport
import Testing
import MyPassCrypto

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
            #expect(P256.rfc6979NonceForTesting(privateKey: vector.privateKey, digest: digest) == item.k)
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
        #expect(throws: CryptoError(.invalidKey)) { try P256.SigningKey(rawRepresentation: P256Constants.n) }
        #expect(throws: CryptoError(.invalidKey)) { try P256.SigningKey(rawRepresentation: [1, 2, 3]) }
        var offCurveY = P256Constants.gy
        offCurveY[31] ^= 1
        #expect(throws: CryptoError(.invalidKey)) {
            try P256.PublicKey(rawRepresentation: P256Constants.gx + offCurveY)
        }
        #expect(throws: CryptoError(.invalidSignature)) { try P256.Signature(rawRepresentation: [UInt8](repeating: 1, count: 63)) }
    }

    @Test("n - 1 as a private key gives -G; generated keys sign and verify; description hides the key")
    func generatedKeys() throws {
        let key = try P256.SigningKey(rawRepresentation: P256Constants.nMinusOne)
        #expect(key.publicKey.x == P256Constants.gx)
        #expect(key.publicKey.y == P256Constants.negatedGy)
        let generated = P256.SigningKey.generate()
        let message = Array("passkey".utf8)
        #expect(generated.publicKey.isValidSignature(generated.signature(for: message), for: message))
        let secretHex = generated.rawRepresentation.withUnsafeBytes { Array($0) }.hexString
        #expect(!"\(generated)".contains(secretHex))
    }

    @Test("The fixed-base table gives the same points as the generic window ladder (the readable reference)")
    func generatorTableMatchesLadder() {
        let scalars = [[UInt8](repeating: 0, count: 32), [UInt8](repeating: 0, count: 31) + [1], P256Constants.nMinusOne,
                       P256Constants.n, SecureRandom.bytes(count: 32), [UInt8](repeating: 0xFF, count: 32)]
        for scalar in scalars {
            #expect(P256.generatorTableMatchesLadderForTesting(scalar: scalar))
        }
    }
}

/// P-256 domain constants (SEC 2 §2.4.2), big-endian.
enum P256Constants {
    static let n = hexBytes("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
    static let nMinusOne = hexBytes("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550")
    static let gx = hexBytes("6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296")
    static let gy = hexBytes("4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5")
    /// p - Gy: the y of -G.
    static let negatedGy = hexBytes("b01cbd1c01e58065711814b583f061e9d431cca994cea1313449bf97c840ae0a")
}
