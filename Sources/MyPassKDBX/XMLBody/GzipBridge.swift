import MyPassCompression

/// Gzip for KDBX 3.x pool binaries and inline binaries (`Compressed="True"`), through MyPassCompression.
enum GzipBridge {
    /// Inflates a gzip member (RFC 1952).
    /// - Throws: ``KDBXError`` `.corruptedFile` for invalid gzip, `.limitExceeded` past `maxOutputBytes`.
    static func decompress(_ bytes: [UInt8], maxOutputBytes: Int, location: String) throws(KDBXError) -> [UInt8] {
        do {
            return try Gzip.decompress(bytes, maxOutputBytes: maxOutputBytes)
        } catch {
            if error.code == .outputLimitExceeded {
                throw KDBXError(.limitExceeded, "compressed binaries inflate beyond the limit (per binary and for the whole document)", location: location)
            }
            throw KDBXError(.corruptedFile, "a compressed binary is not valid gzip", location: location)
        }
    }

    /// Compresses as a gzip member (level 6, as KeePass's `GZipStream` default).
    static func compress(_ bytes: [UInt8]) -> [UInt8] {
        Gzip.compress(bytes)
    }
}
