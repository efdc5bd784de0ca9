/// One-shot gzip (RFC 1952) helpers, as KDBX payloads and KDBX 3.1 binaries need them.
public enum Gzip {
    /// Compresses `data` into one gzip member (no file name, modification time 0).
    /// - Parameters:
    ///   - data: the bytes to compress.
    ///   - level: 0 (stored) ... 9 (smallest); 6 by default, as zlib.
    /// - Returns: the gzip stream.
    public static func compress(_ data: [UInt8], level: Int = 6) -> [UInt8] {
        var deflater = Deflater(format: .gzip, level: level)
        var out = deflater.update(data[...])
        out += deflater.finish()
        return out
    }

    /// Decompresses a gzip stream (one or more members).
    /// - Parameters:
    ///   - data: the whole gzip stream.
    ///   - maxOutputBytes: the most decompressed bytes to accept.
    /// - Returns: the decompressed bytes.
    /// - Throws: ``CompressionError`` for malformed or truncated data, a CRC-32 or ISIZE mismatch,
    ///   trailing garbage, or output beyond `maxOutputBytes`.
    public static func decompress(_ data: [UInt8], maxOutputBytes: Int = .max) throws(CompressionError) -> [UInt8] {
        var inflater = Inflater(format: .gzip, maxOutputBytes: maxOutputBytes)
        inflater.isWholeStream = true
        var out = try inflater.update(data[...])
        out += try inflater.finish()
        return out
    }
}

extension Inflater {
    /// Decompresses a complete stream in one call.
    /// - Parameters:
    ///   - data: the whole compressed stream.
    ///   - format: its container format.
    ///   - maxOutputBytes: the most decompressed bytes to accept.
    /// - Throws: see ``update(_:)-(ArraySlice<UInt8>)`` and ``finish()``.
    public static func decompress(
        _ data: ArraySlice<UInt8>, format: CompressionFormat, maxOutputBytes: Int = .max
    ) throws(CompressionError) -> [UInt8] {
        var inflater = Inflater(format: format, maxOutputBytes: maxOutputBytes)
        inflater.isWholeStream = true
        var out = try inflater.update(data)
        out += try inflater.finish()
        return out
    }
}
