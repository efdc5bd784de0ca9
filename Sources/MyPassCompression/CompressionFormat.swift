/// The container around a DEFLATE stream.
public enum CompressionFormat: Sendable, Equatable {
    /// Bare DEFLATE data (RFC 1951), no header or checksum.
    case raw
    /// zlib (RFC 1950): a 2-byte header, DEFLATE data, Adler-32 of the data (big-endian).
    case zlib
    /// gzip (RFC 1952): a 10-byte-plus header, DEFLATE data, CRC-32 and ISIZE (little-endian).
    /// Several members in a row decode as one stream, as `gzip -d` does.
    case gzip
}
