/// The error of the bytes helpers: a code and the byte offset where it happened.
public struct BytesError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Sendable, Equatable {
        /// The input ended before a value it announced.
        case truncated
        /// A negative or absurd length.
        case invalidLength
        /// A character that is not valid hex or base64, or a wrong length for the encoding.
        case invalidEncoding
        /// DER: an element whose tag is not the one expected here (X.690 §8.1.2).
        case unexpectedTag
        /// DER: a length or integer not in its minimal form, or an indefinite length (X.690 §10.1).
        case nonMinimalEncoding
        /// DER: bytes left over after the last element.
        case trailingBytes
        /// DER: constructed elements nested deeper than the reader's limit.
        case nestingTooDeep
        /// DER or PEM: a well-formed value outside what the caller accepts (an unknown OID, a
        /// wrong key size, a missing PEM boundary).
        case invalidValue
    }

    /// What went wrong.
    public let code: Code
    /// Offset in the input (bytes or characters) where the problem was found.
    public let offset: Int

    /// An error with a code and the offset in the input where it was found.
    public init(_ code: Code, offset: Int) {
        self.code = code
        self.offset = offset
    }

    /// Errors compare on their code, so tests can expect a specific one.
    public static func == (lhs: BytesError, rhs: BytesError) -> Bool { lhs.code == rhs.code }

    /// A human description: the problem and its offset.
    public var description: String {
        switch code {
        case .truncated: return "input ends early at offset \(offset)"
        case .invalidLength: return "invalid length at offset \(offset)"
        case .invalidEncoding: return "invalid encoding at offset \(offset)"
        case .unexpectedTag: return "unexpected DER tag at offset \(offset)"
        case .nonMinimalEncoding: return "non-minimal DER encoding at offset \(offset)"
        case .trailingBytes: return "trailing bytes at offset \(offset)"
        case .nestingTooDeep: return "DER nesting too deep at offset \(offset)"
        case .invalidValue: return "invalid value at offset \(offset)"
        }
    }
}
