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
