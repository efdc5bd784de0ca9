import MyPassBytes
import MyPassCrypto
import MyPassTestSupport
import Testing

/// Hashes `message` one-shot, as an offset slice, and incrementally in random pieces; all three
/// must agree (the one-shot value is returned for comparison with the vector). `make` gives a
/// fresh hasher (on the backend under test).
private func hashAllWays<H: HashFunction>(_ make: () -> H, _ message: [UInt8], seed: UInt64) -> [UInt8] {
    var one = make()
    one.update(message)
    let whole = one.finalize()
    var sliced = make()
    sliced.update(offsetSlice(message))
    let slice = sliced.finalize()
    var incremental = make()
    for piece in randomSplits(message, seed: seed) { incremental.update(piece) }
    let pieces = incremental.finalize()
    var raw = make()
    for piece in randomSplits(message, seed: seed &+ 1, maxPiece: 300) { piece.withUnsafeBytes { raw.update($0) } }
    let rawPieces = raw.finalize()
    #expect(slice == whole)
    #expect(pieces == whole)
    #expect(rawPieces == whole)
    return whole
}

/// The NIST SHAVS message tests: `Len` is in bits; the `Len = 0` record has `Msg = 00`, ignored.
private func checkMessageFile<H: HashFunction>(_ make: () -> H, _ path: String) throws -> Int {
    let records = try hashResponseRecords(path).filter { $0["Len"] != nil }
    for (index, record) in records.enumerated() {
        let message = Array(record.bytes("Msg").prefix(record.int("Len") / 8))
        let digest = hashAllWays(make, message, seed: UInt64(index + 1))
        #expect(digest.hexString == record["MD"]!, "\(path) Len = \(record.int("Len"))")
    }
    return records.count
}

/// The SHAVS Monte Carlo test (SHAVS §6.4): 100 checkpoints of 1000 chained hashes.
private func checkMonteFile<H: HashFunction>(_ make: () -> H, _ path: String) throws -> Int {
    let records = try hashResponseRecords(path)
    var seed = records.first { $0["Seed"] != nil }!.bytes("Seed")
    var checked = 0
    for record in records where record["MD"] != nil {
        var md0 = seed, md1 = seed, md2 = seed
        for _ in 3..<1003 {
            var hasher = make()
            hasher.update(md0)
            hasher.update(md1)
            hasher.update(md2)
            (md0, md1, md2) = (md1, md2, hasher.finalize())
        }
        seed = md2
        #expect(md2.hexString == record["MD"]!, "\(path) COUNT = \(record["COUNT"]!)")
        checked += 1
    }
    return checked
}

@Suite("SHA-1, SHA-256, SHA-512 against NIST SHAVS, SHA-2 on every backend")
struct HashSHATests {
    @Test func sha1ShortAndLong() throws {
        #expect(try checkMessageFile(SHA1.init, "sha/SHA1ShortMsg.rsp") == 65)
        #expect(try checkMessageFile(SHA1.init, "sha/SHA1LongMsg.rsp") == 64)
    }

    @Test(arguments: TestBackends.sha256)
    func sha256ShortAndLong(backend: HashBackend) throws {
        #expect(try checkMessageFile({ SHA256(backend: backend) }, "sha/SHA256ShortMsg.rsp") == 65)
        #expect(try checkMessageFile({ SHA256(backend: backend) }, "sha/SHA256LongMsg.rsp") == 64)
    }

    @Test(arguments: TestBackends.sha512)
    func sha512ShortAndLong(backend: HashBackend) throws {
        #expect(try checkMessageFile({ SHA512(backend: backend) }, "sha/SHA512ShortMsg.rsp") == 129)
        #expect(try checkMessageFile({ SHA512(backend: backend) }, "sha/SHA512LongMsg.rsp") == 128)
    }

    @Test func sha1MonteCarlo() throws {
        #expect(try checkMonteFile(SHA1.init, "sha/SHA1Monte.rsp") == 100)
    }

    @Test(arguments: TestBackends.sha256)
    func sha256MonteCarlo(backend: HashBackend) throws {
        #expect(try checkMonteFile({ SHA256(backend: backend) }, "sha/SHA256Monte.rsp") == 100)
    }

    @Test(arguments: TestBackends.sha512)
    func sha512MonteCarlo(backend: HashBackend) throws {
        #expect(try checkMonteFile({ SHA512(backend: backend) }, "sha/SHA512Monte.rsp") == 100)
    }

    @Test func sizes() {
        #expect(SHA1.digestByteCount == 20 && SHA1.blockByteCount == 64)
        #expect(SHA256.digestByteCount == 32 && SHA256.blockByteCount == 64)
        #expect(SHA512.digestByteCount == 64 && SHA512.blockByteCount == 128)
    }

    /// FIPS 180-4 example "abc" and the one-million-"a" message (crosses many block boundaries).
    @Test func knownAnswers() {
        let abc: [UInt8] = Array("abc".utf8)
        #expect(SHA1.hash(abc).hexString == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(SHA256.hash(abc).hexString == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let million = [UInt8](repeating: 0x61, count: 1_000_000)
        #expect(SHA256.hash(million).hexString == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        #expect(SHA1.hash(million).hexString == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
        #expect(
            SHA512.hash(million).hexString
                == "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b")
    }
}
