import MyPassCrypto
import MyPassTestSupport
import Testing

/// One vector of the eSTREAM "verified.test-vectors" file.
struct ESTREAMVector: CustomTestStringConvertible, Sendable {
    var name: String
    var key: [UInt8], iv: [UInt8]
    var windows: [(start: Int, bytes: [UInt8])]
    var xorDigest: [UInt8]
    var testDescription: String { name }

    static func load() throws -> [ESTREAMVector] {
        let text = try TestVectors.text("salsa20/salsa20-256.64-verified.test-vectors")
        var vectors: [ESTREAMVector] = []
        var name = "", fields: [(String, String)] = []
        func flush() {
            guard !name.isEmpty else { return }
            var v = ESTREAMVector(name: name, key: [], iv: [], windows: [], xorDigest: [])
            for (field, hex) in fields {
                switch field {
                case "key": v.key = hexBytes(hex)
                case "IV": v.iv = hexBytes(hex)
                case "xor-digest": v.xorDigest = hexBytes(hex)
                case let f where f.hasPrefix("stream["):
                    // stream[a..b]
                    let range = field.dropFirst("stream[".count).dropLast()
                    let start = Int(range.split(separator: ".").first!)!
                    v.windows.append((start, hexBytes(hex)))
                default:
                    continue
                }
            }
            vectors.append(v)
            name = ""; fields = []
        }
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("Set ") && line.hasSuffix(":") {
                flush()
                name = String(line.dropLast())
            } else if !name.isEmpty, let eq = line.firstIndex(of: "="), eq != line.startIndex {
                fields.append((line[..<eq].trimmingCharacters(in: .whitespaces),
                               line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)))
            } else if !name.isEmpty, !fields.isEmpty, line.allSatisfy(\.isHexDigit) {
                fields[fields.count - 1].1 += line
            }
        }
        flush()
        return vectors
    }
}

@Suite("Salsa20/20")
struct Salsa20Tests {
    @Test("eSTREAM verified vectors (256-bit key, 64-bit IV): windows and xor-digest, keystream whole and split at random points, on every backend",
          arguments: TestBackends.salsa20)
    func estream(backend: StreamBackend) throws {
        let vectors = try ESTREAMVector.load()
        #expect(vectors.count == 103)
        for (n, v) in vectors.enumerated() {
            let length = v.windows.map { $0.start + $0.bytes.count }.max()! <= 512 ? 512 : 131_072
            var cipher = try Salsa20(key: v.key, nonce: v.iv, backend: backend)
            var split: [UInt8] = []
            for piece in randomSplits([UInt8](repeating: 0, count: length), seed: UInt64(n + 1), maxPiece: 300) {
                var chunk = Array(piece)
                cipher.apply(to: &chunk)
                split += chunk
            }
            // Whole, at least 1,024 bytes: the wide kernels make it.
            var wholeCipher = try Salsa20(key: v.key, nonce: v.iv, backend: backend)
            var whole = [UInt8](repeating: 0, count: max(length, 1024))
            wholeCipher.apply(to: &whole)
            for (how, stream) in [("split", split), ("whole", whole)] {
                for w in v.windows {
                    #expect(Array(stream[w.start..<(w.start + w.bytes.count)]) == w.bytes, "\(v.name) \(how) stream[\(w.start)]")
                }
                var digest = [UInt8](repeating: 0, count: 64)
                for i in 0..<length { digest[i & 63] ^= stream[i] }
                #expect(digest == v.xorDigest, "\(v.name) \(how) xor-digest")
            }
        }
    }

    @Test("Botan Salsa20 vectors (32-byte key, 8-byte nonce), incl. seeks across the 32-bit counter, on every backend",
          arguments: TestBackends.salsa20)
    func botan(backend: StreamBackend) throws {
        let records = try keyValueRecords("salsa20/botan-salsa20.vec").filter {
            $0["KEY"]!.count == 64 && $0["NONCE"]!.count == 16
        }
        #expect(records.count >= 4)
        for (n, r) in records.enumerated() {
            let seek = UInt64(r["SEEK"] ?? "0")!
            let expected = hexBytes(r["OUT"]!)
            var data = r["IN"].map(hexBytes) ?? [UInt8](repeating: 0, count: expected.count)
            var cipher = try Salsa20(key: hexBytes(r["KEY"]!), nonce: hexBytes(r["NONCE"]!), counter: seek / 64, backend: backend)
            var skip = [UInt8](repeating: 0, count: Int(seek % 64))
            cipher.apply(to: &skip)
            data.withUnsafeMutableBytes { buffer in
                // Exercise the raw-buffer entry point on a region that does not start at 0.
                var offset = 0
                for piece in randomSplits(Array(buffer), seed: UInt64(n + 3)) {
                    cipher.apply(to: UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<(offset + piece.count)]))
                    offset += piece.count
                }
            }
            #expect(data == expected, "record \(n)")
            var whole = try Salsa20(key: hexBytes(r["KEY"]!), nonce: hexBytes(r["NONCE"]!), counter: seek / 64, backend: backend)
            let skipped = Int(seek % 64)
            var padded = [UInt8](repeating: 0, count: skipped) + (r["IN"].map(hexBytes) ?? [UInt8](repeating: 0, count: expected.count))
                + [UInt8](repeating: 0, count: 1024)
            whole.apply(to: &padded)
            #expect(Array(padded[skipped...].prefix(expected.count)) == expected, "record \(n), whole")
        }
        #expect(throws: CryptoError(.invalidNonceSize)) { try Salsa20(key: [UInt8](repeating: 0, count: 32), nonce: [0]) }
        #expect(throws: CryptoError(.invalidKeySize)) { try Salsa20(key: [UInt8](repeating: 0, count: 16), nonce: [UInt8](repeating: 0, count: 8)) }
    }

    @Test("Four and sixteen blocks at a time equal block by block, also where the low counter word carries into the high one",
          arguments: TestBackends.salsa20)
    func fourBlockPath(backend: StreamBackend) throws {
        let key = (0..<32).map { UInt8($0 * 7 + 1) }, nonce: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        for start: UInt64 in [0, 0xFFFF_FFFD, 0x1_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFE, 0xFFFF_FFFF_FFFF_FFF6] {
            var whole = try Salsa20(key: key, nonce: nonce, counter: start, backend: backend)
            var bulk = [UInt8](repeating: 0, count: 2048 + 37)
            whole.apply(to: &bulk)
            var single = try Salsa20(key: key, nonce: nonce, counter: start, backend: .portableSalsa20)
            var blocks: [UInt8] = []
            for _ in 0..<33 {
                var block = [UInt8](repeating: 0, count: 64)
                single.apply(to: &block)
                blocks += block
            }
            #expect(bulk == Array(blocks.prefix(bulk.count)), "counter \(start)")
        }
    }
}
