import MyPassCrypto
import MyPassTestSupport
import Testing

@Suite("AES-KDF (KeePass)")
struct AESKDFTests {
    @Test("transformRaw and transform match OpenSSL-generated vectors (rounds 0, 1, 2, 1000, 6000, 60000)",
          arguments: TestBackends.aes)
    func raw(backend: AESBackend) throws {
        let records = try keyValueRecords("aeskdf/aeskdf-vectors.txt")
        #expect(records.count == 8)
        for r in records {
            let raw = try AESKDF.transformRaw(
                key: hexBytes(r["KEY"]!), seed: hexBytes(r["SEED"]!), rounds: UInt64(r["ROUNDS"]!)!, backend: backend)
            #expect(raw == hexBytes(r["RAW"]!), "rounds \(r["ROUNDS"]!)")
            #expect(SHA256.hash(raw) == hexBytes(r["TRANSFORMED"]!), "rounds \(r["ROUNDS"]!)")
            let transformed = try AESKDF.transform(
                key: hexBytes(r["KEY"]!), seed: hexBytes(r["SEED"]!), rounds: UInt64(r["ROUNDS"]!)!)
            #expect(transformed == hexBytes(r["TRANSFORMED"]!), "rounds \(r["ROUNDS"]!)")
        }
    }

    @Test("Sizes are checked")
    func sizes() {
        #expect(throws: CryptoError(.invalidKeySize)) {
            try AESKDF.transformRaw(key: [UInt8](repeating: 0, count: 31), seed: [UInt8](repeating: 0, count: 32), rounds: 1)
        }
        #expect(throws: CryptoError(.invalidKeySize)) {
            try AESKDF.transformRaw(key: [UInt8](repeating: 0, count: 32), seed: [UInt8](repeating: 0, count: 16), rounds: 1)
        }
    }
}
