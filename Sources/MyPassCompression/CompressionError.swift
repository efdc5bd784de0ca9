/// The one error type of the compression module: what failed, why, and where in the input.
///
/// Errors compare on ``code`` only, so tests and callers can match a class of failure.
public struct CompressionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The class of failure.
    public enum Code: Sendable, Equatable {
        /// A DEFLATE block header with BTYPE 11 (RFC 1951 §3.2.3).
        case invalidBlockType
        /// Dynamic block code lengths that cannot be right: HLIT > 286, HDIST > 30, a repeat code
        /// with nothing to repeat or running past the end, a missing end-of-block code (RFC 1951 §3.2.7).
        case invalidCodeLengths
        /// An over-subscribed or incomplete Huffman code, or a symbol the alphabet reserves
        /// (literal/length 286 and 287) (RFC 1951 §3.2.2, §3.2.6).
        case invalidHuffmanTree
        /// A distance code 30/31, or a distance before the start of the output (RFC 1951 §3.2.5).
        case invalidDistance
        /// The input ended before the stream did.
        case truncated
        /// CRC-32 (gzip, RFC 1952 §2.3.1), Adler-32 (zlib, RFC 1950 §2.2) or header CRC-16 mismatch.
        case checksumMismatch
        /// The gzip ISIZE field differs from the decompressed length modulo 2^32 (RFC 1952 §2.3.1).
        case lengthMismatch
        /// A gzip or zlib header that is not valid: magic, method, window size, FCHECK, preset
        /// dictionary, reserved flags (RFC 1950 §2.2, RFC 1952 §2.3.1).
        case invalidHeader
        /// Bytes after the end of the stream (other than a further gzip member).
        case trailingGarbage
        /// The decompressed data would exceed the caller's `maxOutputBytes`.
        case outputLimitExceeded
        /// A stored block whose NLEN is not the one's complement of LEN (RFC 1951 §3.2.4).
        case invalidStoredLength
    }

    /// The class of failure.
    public let code: Code
    /// A human reason (never contains decompressed data).
    public let reason: String
    /// The byte offset in the compressed input near which the failure was found, when known.
    public let offset: Int?

    /// Creates an error with a code, a reason and the input offset where it happened.
    public init(_ code: Code, _ reason: String = "", offset: Int? = nil) {
        self.code = code
        self.reason = reason
        self.offset = offset
    }

    /// Errors compare on their code only.
    public static func == (lhs: CompressionError, rhs: CompressionError) -> Bool { lhs.code == rhs.code }

    /// The code, the reason and the input offset, for logs (never contains data).
    public var description: String {
        var text = "compression error \(code)"
        if !reason.isEmpty { text += ": \(reason)" }
        if let offset { text += " (at input byte \(offset))" }
        return text
    }
}
