/// A JSON value (RFC 8259) as the importers read it: a small parser with a depth limit that
/// reports the line of any error, for Bitwarden's export.
public indirect enum ImportJSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([ImportJSON])
    /// Members in file order (duplicate names kept; ``subscript(_:)`` returns the first) and the
    /// 1-based line of the opening brace, for messages.
    case object([(String, ImportJSON)], line: Int)

    /// Deepest nesting accepted (default 64).
    public static let maxDepth = 64

    /// Parses a whole document.
    /// - Throws: ``CoreError`` `.invalidImport` with `line N` for malformed JSON, nesting deeper
    ///   than ``maxDepth``, or text after the value.
    public init(parsing bytes: [UInt8]) throws(CoreError) {
        var parser = Parser(bytes: bytes)
        parser.skipByteOrderMark()
        self = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("text after the JSON value") }
    }

    /// The member `name` of an object (the first, when repeated), or nil.
    public subscript(_ name: String) -> ImportJSON? {
        guard case .object(let members, _) = self else { return nil }
        return members.first(where: { $0.0 == name })?.1
    }

    /// The string, or nil for anything else (null included).
    public var string: String? { if case .string(let text) = self { return text } else { return nil } }
    /// The number, or nil.
    public var number: Double? { if case .number(let value) = self { return value } else { return nil } }
    /// The elements of an array, or nil.
    public var array: [ImportJSON]? { if case .array(let items) = self { return items } else { return nil } }
    /// The line an object starts on (1 for anything else).
    public var line: Int { if case .object(_, let line) = self { return line } else { return 1 } }
    /// The boolean, or nil.
    public var bool: Bool? { if case .bool(let value) = self { return value } else { return nil } }

    public static func == (lhs: ImportJSON, rhs: ImportJSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a, _), .object(let b, _)): return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    struct Parser {
        let bytes: [UInt8]
        var index = 0
        var line = 1

        init(bytes: [UInt8]) { self.bytes = bytes }

        func error(_ reason: String) -> CoreError { CoreError(.invalidImport, "broken JSON: " + reason, location: "line \(line)") }

        mutating func skipByteOrderMark() {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x0A: line += 1; index += 1
                case 0x20, 0x09, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func expect(_ literal: String, _ value: ImportJSON) throws(CoreError) -> ImportJSON {
            let utf8 = Array(literal.utf8)
            guard bytes[index...].starts(with: utf8) else { throw error("unexpected character") }
            index += utf8.count
            return value
        }

        mutating func value(depth: Int) throws(CoreError) -> ImportJSON {
            guard depth < ImportJSON.maxDepth else { throw error("nested deeper than \(ImportJSON.maxDepth) levels") }
            skipWhitespace()
            guard index < bytes.count else { throw error("the document ends early") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                let startLine = line
                index += 1
                var members: [(String, ImportJSON)] = []
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members, line: startLine) }
                while true {
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
                    let name = try string()
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after a member name") }
                    index += 1
                    members.append((name, try value(depth: depth + 1)))
                    skipWhitespace()
                    guard index < bytes.count else { throw error("the document ends inside an object") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members, line: startLine) }
                    throw error("expected ',' or '}' in an object")
                }
            case UInt8(ascii: "["):
                index += 1
                var items: [ImportJSON] = []
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                while true {
                    items.append(try value(depth: depth + 1))
                    skipWhitespace()
                    guard index < bytes.count else { throw error("the document ends inside an array") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                    throw error("expected ',' or ']' in an array")
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"): return try expect("true", .bool(true))
            case UInt8(ascii: "f"): return try expect("false", .bool(false))
            case UInt8(ascii: "n"): return try expect("null", .null)
            default:
                return try number()
            }
        }

        mutating func number() throws(CoreError) -> ImportJSON {
            let start = index
            while index < bytes.count, "+-0123456789.eE".utf8.contains(bytes[index]) { index += 1 }
            #if hasFeature(Embedded)
            // Embedded Swift's standard library has no strtod (what Double(String) calls).
            let value = ImportJSON.decimalValue(bytes[start..<index])
            #else
            let value = Double(String(decoding: bytes[start..<index], as: UTF8.self))
            #endif
            guard index > start, index - start <= 64, let value, value.isFinite else {
                throw error("unexpected character")
            }
            return .number(value)
        }

        mutating func hex4() throws(CoreError) -> UInt32 {
            guard index + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
                throw error("a \\u escape needs four hex digits")
            }
            index += 4
            return value
        }

        mutating func string() throws(CoreError) -> String {
            index += 1  // the opening quote
            var run = index
            var text = ""
            func flush(_ end: Int) { text += String(decoding: bytes[run..<end], as: UTF8.self) }
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    flush(index)
                    index += 1
                    return text
                }
                if byte < 0x20 { throw error("a control character inside a string (write it escaped)") }
                if byte == UInt8(ascii: "\\") {
                    flush(index)
                    index += 1
                    guard index < bytes.count else { break }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""): text += "\""
                    case UInt8(ascii: "\\"): text += "\\"
                    case UInt8(ascii: "/"): text += "/"
                    case UInt8(ascii: "b"): text += "\u{08}"
                    case UInt8(ascii: "f"): text += "\u{0C}"
                    case UInt8(ascii: "n"): text += "\n"
                    case UInt8(ascii: "r"): text += "\r"
                    case UInt8(ascii: "t"): text += "\t"
                    case UInt8(ascii: "u"):
                        var code = try hex4()
                        if (0xD800..<0xDC00).contains(code), index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"),
                           bytes[index + 1] == UInt8(ascii: "u") {
                            index += 2
                            let low = try hex4()
                            guard (0xDC00..<0xE000).contains(low) else { throw error("a broken surrogate pair") }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let scalar = Unicode.Scalar(code) else { throw error("a lone surrogate in a \\u escape") }
                        text.unicodeScalars.append(scalar)
                    default:
                        throw error("an unknown escape in a string")
                    }
                    run = index
                    continue
                }
                index += 1
            }
            throw error("a string is not closed")
        }
    }
}
