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
        }
    }
}
