/// Gzip for KDBX 3.x pool binaries (`Compressed="True"`), through MyPassCompression.
///
/// TEMPORARY: until the `compression` branch is merged, compression is unavailable and
/// decompression reports `.unsupported`.
enum GzipBridge {
    /// Inflates a gzip member.
    /// - Throws: ``KDBXError`` `.corruptedFile` for invalid gzip, `.limitExceeded` past `maxOutputBytes`.
    static func decompress(_ bytes: [UInt8], maxOutputBytes: Int, location: String) throws(KDBXError) -> [UInt8] {
        throw KDBXError(.unsupported, "gzip is not available yet", location: location)
    }

    /// Compresses as a gzip member (level 6).
    static func compress(_ bytes: [UInt8]) -> [UInt8] {
        fatalError("gzip is not available yet")
    }
}
