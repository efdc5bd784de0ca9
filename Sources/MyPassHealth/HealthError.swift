/// The one error type of MyPassHealth: a code, a human reason (never a secret, never a hash of
/// one) and, when known, where in the input it happened (a file, its line and byte offset).
///
/// Errors compare on ``code`` only, so tests can `#expect(throws: HealthError(.unsortedBreachList))`.
public struct HealthError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The classes of failure a caller distinguishes.
    public enum Code: String, Sendable, Equatable {
        /// A breach list (HIBP) file or folder cannot be opened or read.
        case io
        /// A line of a breach list is not `HASH:COUNT` (40 hex digits, a colon, a decimal count),
        /// or a range file's line is not `SUFFIX:COUNT` (35 hex digits).
        case malformedBreachList
        /// A breach list's lines are not in strictly ascending hash order, so a binary search
        /// cannot be trusted.
        case unsortedBreachList
        /// A breach list ends inside a line, or a range folder lacks a prefix's file.
        case truncatedBreachList
        /// A size limit was exceeded (a range file or a line far longer than HIBP's).
        case limitExceeded
        /// Embedded data (the frequency lists) that does not decode: a build defect.
        case invalidData
    }

    /// What went wrong.
    public let code: Code
    /// A human reason, free of secrets.
    public let reason: String
    /// The file concerned, when there is one.
    public let file: String?
    /// The 1-based line of ``file`` concerned, when known.
    public let line: Int?
    /// The byte offset in ``file`` of the start of ``line``, when known.
    public let byteOffset: Int64?

    /// An error with its parts.
    public init(_ code: Code, _ reason: String, file: String? = nil, line: Int? = nil, byteOffset: Int64? = nil) {
        self.code = code
        self.reason = reason
        self.file = file
        self.line = line
        self.byteOffset = byteOffset
    }

    /// Errors are equal when their codes are.
    public static func == (lhs: HealthError, rhs: HealthError) -> Bool { lhs.code == rhs.code }

    /// `'FILE' line N (byte B): reason`, with the parts that are known.
    public var description: String {
        var text = ""
        if let file { text += "'\(file)'" }
        if let line {
            text += (text.isEmpty ? "" : " ") + "line \(line)"
            if let byteOffset { text += " (byte \(byteOffset))" }
        } else if let byteOffset {
            text += (text.isEmpty ? "" : " ") + "byte \(byteOffset)"
        }
        return text.isEmpty ? reason : text + ": " + reason
    }
}
