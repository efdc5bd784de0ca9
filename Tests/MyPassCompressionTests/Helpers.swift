import MyPassCompression
import MyPassTestSupport

/// Inflates `pieces` one after another, then finishes.
func inflate(_ pieces: [ArraySlice<UInt8>], format: CompressionFormat, maxOutputBytes: Int = .max) throws -> [UInt8] {
    var inflater = Inflater(format: format, maxOutputBytes: maxOutputBytes)
    var out: [UInt8] = []
    for piece in pieces { out += try inflater.update(piece) }
    out += try inflater.finish()
    return out
}

/// Inflates a whole stream in one call.
func inflate(_ data: [UInt8], format: CompressionFormat, maxOutputBytes: Int = .max) throws -> [UInt8] {
    try inflate([data[...]], format: format, maxOutputBytes: maxOutputBytes)
}

/// Deflates `pieces` one after another, then finishes.
func deflate(_ pieces: [ArraySlice<UInt8>], format: CompressionFormat, level: Int) -> [UInt8] {
    var deflater = Deflater(format: format, level: level)
    var out: [UInt8] = []
    for piece in pieces { out += deflater.update(piece) }
    out += deflater.finish()
    return out
}

/// Deterministic pseudo-random bytes (xorshift64).
func pseudoRandomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var state = seed | 1
    var out = [UInt8]()
    out.reserveCapacity(count)
    for _ in 0..<count {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        out.append(UInt8(truncatingIfNeeded: state >> 24))
    }
    return out
}

/// Text-like data: words from a small vocabulary in pseudo-random order (compressible, with
/// matches at many distances).
func wordSoup(_ count: Int, seed: UInt64) -> [UInt8] {
    let words = ["password", "entry", "group", "<Value>", "</Value>", "KeePass", "the", "of", "and", "\t\t<String>\n",
                 "UserName", "URL", "https://example.org/", "Notes", "a", "0123456789", "Times", "UUID", "=="]
    var state = seed | 1
    var out = [UInt8]()
    out.reserveCapacity(count + 32)
    while out.count < count {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        out += Array(words[Int(state % UInt64(words.count))].utf8)
        out.append(state & 0x100 == 0 ? 0x20 : UInt8(truncatingIfNeeded: state >> 40))
    }
    return Array(out.prefix(count))
}

/// The CRC-32 and length recorded for each hand-built edge stream (`edge-manifest.txt`).
func edgeManifest() throws -> [(name: String, size: Int, crc: UInt32)] {
    try TestVectors.text("compression/edge-manifest.txt").split(separator: "\n").map { line in
        let f = line.split(separator: " ")
        return (String(f[0]), Int(f[1])!, UInt32(f[2], radix: 16)!)
    }
}

/// Builds DEFLATE bit streams by hand (RFC 1951 §3.1.1: values LSB first, Huffman codes MSB first).
struct TestBits {
    var bytes: [UInt8] = []
    var accumulator: UInt64 = 0
    var count = 0

    mutating func put(_ value: Int, _ bits: Int) {
        accumulator |= UInt64(value) << UInt64(count)
        count += bits
        while count >= 8 {
            bytes.append(UInt8(accumulator & 0xFF))
            accumulator >>= 8
            count -= 8
        }
    }

    /// A Huffman code of `length` bits, sent most significant bit first.
    mutating func code(_ code: Int, _ length: Int) {
        for i in stride(from: length - 1, through: 0, by: -1) { put((code >> i) & 1, 1) }
    }

    /// A symbol of the fixed literal/length code (RFC 1951 §3.2.6).
    mutating func fixedLitLen(_ symbol: Int) {
        switch symbol {
        case 0..<144: code(0x30 + symbol, 8)
        case 144..<256: code(0x190 + symbol - 144, 9)
        case 256..<280: code(symbol - 256, 7)
        default: code(0xC0 + symbol - 280, 8)
        }
    }

    /// Dynamic block header fields and code length code lengths, in the permuted order.
    mutating func dynamicHeader(final: Bool = true, hlit: Int, hdist: Int, codeLengthLengths: [Int: Int]) {
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var hclen = 19
        while hclen > 4 && codeLengthLengths[order[hclen - 1]] == nil { hclen -= 1 }
        put(final ? 1 : 0, 1)
        put(2, 2)
        put(hlit - 257, 5)
        put(hdist - 1, 5)
        put(hclen - 4, 4)
        for i in 0..<hclen { put(codeLengthLengths[order[i]] ?? 0, 3) }
    }

    var finished: [UInt8] {
        var copy = self
        if copy.count > 0 { copy.put(0, 8 - copy.count) }
        return copy.bytes
    }
}
