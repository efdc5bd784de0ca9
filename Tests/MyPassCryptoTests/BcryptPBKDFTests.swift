import Foundation
import MyPassBytes
import MyPassCrypto
import MyPassTestSupport
import Testing

@Suite("Blowfish and bcrypt-pbkdf")
struct BcryptPBKDFTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String, rounds: UInt32, password: [UInt8], salt: [UInt8], key: [UInt8]
        var testDescription: String { name }
    }

    static let openBSD: [Case] = {
        guard let root = try? parseJSON(TestVectors.text("bcrypt-pbkdf/openbsd_bcrypt_pbkdf_test.json")) as? [String: Any]
        else { return [] }
        return (root["tests"] as! [[String: Any]]).map {
            Case(name: $0["name"] as! String, rounds: UInt32($0["rounds"] as! Int), password: hexBytes($0["password"] as! String),
                 salt: hexBytes($0["salt"] as! String), key: hexBytes($0["key"] as! String))
        }
    }()

    @Test("Eric Young's 58 Blowfish vectors (ECB and keys of 1 to 24 bytes)")
    func blowfish() throws {
        let root = try #require(try parseJSON(TestVectors.text("blowfish/eric_young_vectors.json")) as? [String: Any])
        let tests = root["tests"] as! [[String: String]]
        #expect(tests.count == 58)
        for test in tests {
            let cipher = try Blowfish(key: hexBytes(test["key"]!))
            #expect(cipher.encrypt(block: hexBytes(test["plaintext"]!)) == hexBytes(test["ciphertext"]!), "key \(test["key"]!)")
        }
        #expect(throws: CryptoError(.invalidKeySize)) { try Blowfish(key: []) }
        #expect(throws: CryptoError(.invalidKeySize)) { try Blowfish(key: [UInt8](repeating: 1, count: 57)) }
    }

    @Test("OpenBSD's bcrypt_pbkdf regression cases, byte for byte", arguments: openBSD)
    func openBSDCase(_ test: Case) throws {
        let key = try BcryptPBKDF.deriveKey(password: test.password, salt: test.salt, rounds: test.rounds, keyByteCount: test.key.count)
        #expect(key == test.key)
    }

    @Test("eleven OpenBSD cases; the output never writes past its length (OpenBSD's overwrite check)")
    func countAndLength() throws {
        #expect(Self.openBSD.count == 11)
        let long = try BcryptPBKDF.deriveKey(password: Array("password".utf8), salt: Array("salt".utf8), rounds: 4, keyByteCount: 88)
        let short = try BcryptPBKDF.deriveKey(password: Array("password".utf8), salt: Array("salt".utf8), rounds: 4, keyByteCount: 32)
        #expect(long.count == 88)
        #expect(short == hexBytes("5bbf0cc293587f1c3635555c27796598d47e579071bf427e9d8fbe842aba34d9"))
    }

    @Test("parameters out of range are typed errors, checked before any work")
    func limits() {
        let password = Array("p".utf8), salt = Array("s".utf8)
        #expect(throws: CryptoError(.invalidParameter)) { try BcryptPBKDF.deriveKey(password: [], salt: salt, rounds: 1, keyByteCount: 16) }
        #expect(throws: CryptoError(.invalidParameter)) { try BcryptPBKDF.deriveKey(password: password, salt: [], rounds: 1, keyByteCount: 16) }
        #expect(throws: CryptoError(.invalidParameter)) { try BcryptPBKDF.deriveKey(password: password, salt: salt, rounds: 0, keyByteCount: 16) }
        #expect(throws: CryptoError(.invalidParameter)) {
            try BcryptPBKDF.deriveKey(password: password, salt: salt, rounds: BcryptPBKDF.maxRounds + 1, keyByteCount: 16)
        }
        #expect(throws: CryptoError(.invalidParameter)) { try BcryptPBKDF.deriveKey(password: password, salt: salt, rounds: 1, keyByteCount: 0) }
        #expect(throws: CryptoError(.invalidParameter)) { try BcryptPBKDF.deriveKey(password: password, salt: salt, rounds: 1, keyByteCount: 1025) }
    }
}
