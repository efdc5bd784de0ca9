/// The one error type of the XML module: a well-formedness violation or an exceeded limit, with
/// the position where it was found. Errors compare on their code only.
public struct XMLError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Sendable, Equatable {
        /// An end tag whose name differs from the open element's (or with no open element).
        case mismatchedTag
        /// Input ended while elements were still open.
        case unclosedTag
        /// A name that is empty or has a character XML 1.0 §2.3 does not allow in names.
        case invalidName
        /// An entity reference other than the five predefined ones (`&lt; &gt; &amp; &apos; &quot;`).
        case unknownEntity
        /// A character XML 1.0 §2.2 forbids (control characters, U+FFFE, U+FFFF), literal or by reference.
        case invalidCharacter
        /// Bytes that are not well-formed UTF-8 (overlong, surrogate, truncated, above U+10FFFF).
        case invalidUTF8
        /// A literal `<` inside an attribute value.
        case ltInAttribute
        /// A `<!DOCTYPE`: DTDs are never processed, so entity expansion attacks cannot happen.
        case doctypeNotAllowed
        /// Nesting deeper than `XMLLimits.maxDepth`.
        case depthLimitExceeded
        /// A name longer than `XMLLimits.maxNameBytes`.
        case nameTooLong
        /// More attributes on one tag than `XMLLimits.maxAttributes`.
        case tooManyAttributes
        /// A value larger than `XMLLimits.maxValueBytes`.
        case valueTooLarge
        /// More input than `XMLLimits.maxDocumentBytes`.
        case documentTooLarge
        /// Input ended inside markup or before the root element.
        case unexpectedEndOfInput
        /// Any other well-formedness violation (bad syntax, `]]>` in text, `--` in a comment...).
        case malformed
        /// The same attribute name twice on one tag.
        case duplicateAttribute
        /// An element or text after the root element ended.
        case contentAfterRoot
    }

    /// What went wrong.
    public let code: Code
    /// 1-based line of the problem (lines end at `"\n"`).
    public let line: Int
    /// 1-based column of the problem, counted in UTF-8 bytes from the start of the line.
    public let column: Int
    /// A human reason.
    public let reason: String

    /// Creates an error.
    public init(_ code: Code, line: Int, column: Int, _ reason: String = "") {
        self.code = code
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// Errors compare on their code only, so tests can expect a specific code.
    public static func == (lhs: XMLError, rhs: XMLError) -> Bool { lhs.code == rhs.code }

    public var description: String {
        "XML error \(code) at line \(line), column \(column)" + (reason.isEmpty ? "" : ": \(reason)")
    }
}
