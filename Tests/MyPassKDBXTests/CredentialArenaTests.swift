import MyPassBytes
import MyPassCrypto
import MyPassKDBX
import Testing

/// The AutoFill index's string arena: clear text back to back, secrets masked with one ChaCha20
/// keystream at their offsets, each value readable alone.
@Suite("Credential arena")
struct CredentialArenaTests {
    /// Values of every length around ChaCha20's 64-byte block, so that they start and end
    /// inside, at and across block boundaries.
    static let secrets: [String] = (0..<40).map(secret)

    static func secret(_ n: Int) -> String {
        var scalars = String.UnicodeScalarView()
        for i in 0..<(n * 7 % 131) {
            let byte = UInt8(33 + (n * 31 + i * 7) % 90)
            scalars.append(Unicode.Scalar(byte))
        }
        return String(scalars) + "ü🔑"
    }

    @Test func secretsUnmaskAloneInAnyOrder() throws {
        var arena = CredentialArena()
        var ranges: [CredentialArena.Range] = []
        for secret in Self.secrets {
            var bytes = Array(secret.utf8)
            ranges.append(try arena.appendSecret(&bytes))
            // The caller's buffer now holds masked bytes, not the clear ones.
            #expect(bytes != Array(secret.utf8))
        }
        var offset: UInt32 = 0
        for (secret, range) in zip(Self.secrets, ranges) {
            #expect(range == CredentialArena.Range(start: offset, count: UInt32(secret.utf8.count)))
            offset += range.count
        }
        for index in ranges.indices.reversed() {
            let clear = arena.withRevealedSecret(ranges[index]) { Array($0) }
            #expect(clear == Array(Self.secrets[index].utf8))
        }
    }

    @Test func theMaskIsChaCha20AtTheValuesOffset() throws {
        var arena = CredentialArena()
        var first = Array("first value, 29 bytes long...".utf8)
        _ = try arena.appendSecret(&first)
        var second = Array(String(repeating: "x", count: 100).utf8)
        let range = try arena.appendSecret(&second)
        let stored = arena.maskedBytesForTesting
        #expect(stored.count == 129)
        // Masked byte XOR clear byte is the keystream; its two halves (before and after the
        // 64-byte boundary) must differ from each other and from zero: a real keystream, not a
        // constant or no mask.
        let keystream = (0..<Int(range.count)).map { stored[Int(range.start) + $0] ^ UInt8(ascii: "x") }
        #expect(keystream.contains(where: { $0 != 0 }))
        #expect(Array(keystream[35..<67]) != Array(keystream[67..<99]))
    }

    @Test func noClearSecretInTheMaskedBuffer() throws {
        var arena = CredentialArena()
        let secret = "Zq8-unusual-secret-value-#41"
        for _ in 0..<50 { _ = try arena.appendSecret(secret) }
        let stored = arena.maskedBytesForTesting
        let needle = Array(secret.utf8)
        let found = (0...(stored.count - needle.count)).contains { Array(stored[$0..<$0 + needle.count]) == needle }
        #expect(!found)
        #expect(stored.count == 50 * needle.count)
    }

    @Test func eachArenaHasItsOwnKey() throws {
        // Each arena draws its own key: the same value is stored differently.
        var a = CredentialArena(), b = CredentialArena()
        _ = try a.appendSecret("same value in both arenas")
        _ = try b.appendSecret("same value in both arenas")
        #expect(a.maskedBytesForTesting != b.maskedBytesForTesting)
    }

    @Test func textValuesBackToBack() throws {
        var arena = CredentialArena()
        let values = ["Title", "", "user@example.com", "https://例え.jp/", String(repeating: "t", count: 300)]
        let ranges = try values.map { value throws(KDBXError) in try arena.appendText(value) }
        #expect(ranges[1] == .empty)
        #expect(arena.text.count == values.reduce(0) { $0 + $1.utf8.count })
        #expect(zip(values, ranges).allSatisfy { arena.string($1) == $0 })
    }
}
