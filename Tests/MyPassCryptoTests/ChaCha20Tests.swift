import MyPassBytes
import MyPassCrypto
import MyPassTestSupport
import Testing

/// Applies the keystream to `input` in pieces of the given split.
func chachaApply(_ cipher: inout ChaCha20, _ input: [UInt8], seed: UInt64, maxPiece: Int = 97) -> [UInt8] {
    var out: [UInt8] = []
    for piece in randomSplits(input, seed: seed, maxPiece: maxPiece) {
        var chunk = Array(piece)
        cipher.apply(to: &chunk)
        out += chunk
    }
    return out
}

@Suite("ChaCha20 (RFC 8439)")
struct ChaCha20Tests {
    @Test("RFC 7539 A.2 vectors, whole, padded to sixteen blocks and more, and split at random points, on every backend",
          arguments: TestBackends.chacha20)
    func rfc(backend: StreamBackend) throws {
        let records = try keyValueRecords("chacha20/rfc7539.txt")
        #expect(records.count == 3)
        for (n, r) in records.enumerated() {
            let key = hexBytes(r["KEY"]!), nonce = hexBytes(r["NONCE"]!)
            let counter = UInt32(r["INITIAL_BLOCK_COUNTER"]!)!
            let pt = hexBytes(r["PLAINTEXT"]!), ct = hexBytes(r["CIPHERTEXT"]!)
            var whole = try ChaCha20(key: key, nonce: nonce, counter: counter, backend: backend)
            var buffer = pt
            whole.apply(to: &buffer)
            #expect(buffer == ct)
            // The vectors are shorter than the wide kernels' 1,024 bytes: padded, the kernel makes them.
            for padding in [1024, 2048 + 64 + 5] {
                var padded = try ChaCha20(key: key, nonce: nonce, counter: counter, backend: backend)
                var long = pt + [UInt8](repeating: 0, count: padding)
                padded.apply(to: &long)
                #expect(Array(long.prefix(ct.count)) == ct, "record \(n), padded by \(padding)")
            }
            for seed in 1...20 {
                var split = try ChaCha20(key: key, nonce: nonce, counter: counter, backend: backend)
                #expect(chachaApply(&split, pt, seed: UInt64(seed * 31 + n), maxPiece: seed * 13) == ct)
            }
            var streaming = try ChaCha20(key: key, nonce: nonce, counter: counter, backend: backend)
            #expect(try stream(&streaming, [offsetSlice(pt)]) == ct)
        }
    }

    @Test("Botan ChaCha20 vectors with 12-byte nonces, incl. seeks, whole (padded to sixteen blocks) and split at random points, on every backend",
          arguments: TestBackends.chacha20)
    func botan(backend: StreamBackend) throws {
        let records = try keyValueRecords("chacha20/botan-chacha.vec").filter {
            $0["SECTION"] == "ChaCha(20)" && $0["KEY"]!.count == 64 && $0["NONCE"]!.count == 24
        }
        #expect(records.count >= 5)
        for (n, r) in records.enumerated() {
            let seek = Int(r["SEEK"] ?? "0")!
            let expected = hexBytes(r["OUT"]!)
            let input = r["IN"].map(hexBytes) ?? [UInt8](repeating: 0, count: expected.count)
            var cipher = try ChaCha20(key: hexBytes(r["KEY"]!), nonce: hexBytes(r["NONCE"]!),
                                      counter: UInt32(seek / 64), backend: backend)
            var skip = [UInt8](repeating: 0, count: seek % 64)
            cipher.apply(to: &skip)
            #expect(chachaApply(&cipher, input, seed: UInt64(n + 1)) == expected, "record \(n)")
            var whole = try ChaCha20(key: hexBytes(r["KEY"]!), nonce: hexBytes(r["NONCE"]!),
                                     counter: UInt32(seek / 64), backend: backend)
            var padded = [UInt8](repeating: 0, count: seek % 64) + input + [UInt8](repeating: 0, count: 1024)
            whole.apply(to: &padded)
            #expect(Array(padded[(seek % 64)...].prefix(expected.count)) == expected, "record \(n), whole")
        }
    }

    @Test("The 32-bit counter wraps to 0 without carrying into the nonce, on every backend", arguments: TestBackends.chacha20)
    func counterWrap(backend: StreamBackend) throws {
        let r = try keyValueRecords("chacha20/rfc7539.txt")[0]   // key 0, nonce 0, counter 0
        let key = hexBytes(r["KEY"]!), nonce = hexBytes(r["NONCE"]!)
        for count in [64 + 64 + 256, 64 + 2048] {
            var cipher = try ChaCha20(key: key, nonce: nonce, counter: 0xFFFF_FFFF, backend: backend)
            var bytes = [UInt8](repeating: 0, count: count)
            cipher.apply(to: &bytes)
            #expect(Array(bytes[64..<128]) == hexBytes(r["CIPHERTEXT"]!))
            // The same stream from counter 0, through the 4-block path (and the wide kernel's).
            var fromZero = try ChaCha20(key: key, nonce: nonce, counter: 0, backend: backend)
            var tail = [UInt8](repeating: 0, count: count - 64)
            fromZero.apply(to: &tail)
            #expect(Array(bytes[64...]) == tail)
        }
    }

    @Test("Inner-stream style calls (3, 17, 200, ... bytes) equal one long keystream")
    func oddCalls() throws {
        let key = pseudoRandomBytes(32, seed: 3), nonce = pseudoRandomBytes(12, seed: 4)
        var reference = try ChaCha20(key: key, nonce: nonce)
        var long = [UInt8](repeating: 0, count: 5000)
        reference.apply(to: &long)
        var cipher = try ChaCha20(key: key, nonce: nonce)
        var out: [UInt8] = []
        for length in [3, 17, 200, 1, 64, 256, 255, 257, 0, 1024, 63, 65, 2011] {
            var chunk = [UInt8](repeating: 0, count: length)
            cipher.apply(to: &chunk)
            out += chunk
        }
        #expect(out == Array(long[0..<out.count]))
        #expect(throws: CryptoError(.invalidKeySize)) { try ChaCha20(key: [1], nonce: nonce) }
        #expect(throws: CryptoError(.invalidNonceSize)) { try ChaCha20(key: key, nonce: [1, 2, 3, 4, 5, 6, 7, 8]) }
    }

    @Test("ChaCha20PadSource: pads follow one keystream (never repeated), and two sources differ")
    func padSource() {
        let source = ChaCha20PadSource(), other = ChaCha20PadSource()
        func pad(_ from: ChaCha20PadSource, _ count: Int) -> [UInt8] {
            var bytes = [UInt8](repeating: 0xAA, count: count)
            bytes.withUnsafeMutableBytes { from.fill($0) }
            return bytes
        }
        let first = pad(source, 64), second = pad(source, 64), third = pad(source, 3)
        #expect(first != second && first != pad(other, 64))
        #expect(!first.allSatisfy { $0 == 0xAA } && Set(first + second).count > 64)
        // A later pad continues the keystream; it does not start it again.
        #expect(Array(first.prefix(3)) != third)
        var pads = ChaCha20PadSource()
        let value = Array("correct horse".utf8).withUnsafeBytes { ProtectedString(utf8: $0, pads: &pads) }
        #expect(value.revealed == "correct horse")
    }
}
