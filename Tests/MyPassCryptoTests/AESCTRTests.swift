import Foundation
import MyPassBytes
import MyPassCrypto
import MyPassTestSupport
import Testing

@Suite("AES-256-CTR")
struct AESCTRTests {
    struct Vector: CustomTestStringConvertible, Sendable {
        var source: String, key: [UInt8], counter: [UInt8], plaintext: [UInt8], ciphertext: [UInt8]
        var testDescription: String { source }
    }

    static let vectors: [Vector] = {
        guard let root = try? parseJSON(TestVectors.text("aes-ctr/aes256_ctr.json")) as? [String: Any] else { return [] }
        return (root["tests"] as! [[String: String]]).map {
            Vector(source: $0["source"]!, key: hexBytes($0["key"]!), counter: hexBytes($0["counter"]!),
                   plaintext: hexBytes($0["plaintext"]!), ciphertext: hexBytes($0["ciphertext"]!))
        }
    }()

    @Test("SP 800-38A, RFC 3686 and the counter carries: seven cases")
    func count() { #expect(Self.vectors.count == 7) }

    @Test("each case encrypts and decrypts byte for byte, whole and fed in pieces, on every backend",
          arguments: vectors, TestBackends.aes)
    func vector(_ vector: Vector, backend: AESBackend) throws {
        func process(_ input: [UInt8]) throws -> [UInt8] {
            var context = try AES256CTR(key: vector.key, counter: vector.counter, backend: backend)
            var output = input
            context.apply(&output)
            return output
        }
        #expect(try process(vector.plaintext) == vector.ciphertext)
        #expect(try process(vector.ciphertext) == vector.plaintext)
        #expect(try AES256CTR.process(key: vector.key, counter: vector.counter, vector.plaintext) == vector.ciphertext)
        // Any split: the keystream continues across calls.
        for seed in UInt64(1)...8 {
            var context = try AES256CTR(key: vector.key, counter: vector.counter, backend: backend)
            var output: [UInt8] = []
            for piece in randomSplits(vector.plaintext, seed: seed, maxPiece: 23) {
                var bytes = Array(piece)
                context.apply(&bytes)
                output += bytes
            }
            #expect(output == vector.ciphertext, "seed \(seed)")
        }
    }

    @Test("wrong key and counter sizes are typed errors; an empty input gives an empty output")
    func sizes() throws {
        #expect(throws: CryptoError(.invalidKeySize)) { try AES256CTR(key: [UInt8](repeating: 0, count: 16), counter: [UInt8](repeating: 0, count: 16)) }
        #expect(throws: CryptoError(.invalidNonceSize)) { try AES256CTR(key: [UInt8](repeating: 0, count: 32), counter: [UInt8](repeating: 0, count: 12)) }
        #expect(try AES256CTR.process(key: [UInt8](repeating: 0, count: 32), counter: [UInt8](repeating: 0, count: 16), []) == [])
    }
}
