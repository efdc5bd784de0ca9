/// A JSON value with ordered object keys, for the CLI's `--json` outputs.
indirect enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    /// A number written with `places` digits after the point (`12.345`); not finite: `null`.
    case decimal(Double, places: Int)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    static func == (lhs: JSON, rhs: JSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.decimal(a, x), .decimal(b, y)): return a == b && x == y
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// `nil` becomes JSON `null`.
    static func string(_ value: String?) -> JSON { value.map { .string($0) } ?? .null }

    /// The compact serialisation (no insignificant white space), keys in the order given.
    var serialized: String {
        var out = ""
        write(into: &out, indent: nil, level: 0)
        return out
    }

    /// A readable serialisation with two-space indentation.
    var prettyPrinted: String {
        var out = ""
        write(into: &out, indent: "  ", level: 0)
        return out
    }

    private func write(into out: inout String, indent: String?, level: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .decimal(let value, let places): out += value.isFinite ? JSON.fixed(value, places: places) : "null"
        case .string(let value): JSON.writeString(value, into: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                JSON.newline(&out, indent, level + 1)
                item.write(into: &out, indent: indent, level: level + 1)
            }
            JSON.newline(&out, indent, level)
            out += "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out += "," }
                JSON.newline(&out, indent, level + 1)
                JSON.writeString(key, into: &out)
                out += indent == nil ? ":" : ": "
                value.write(into: &out, indent: indent, level: level + 1)
            }
            JSON.newline(&out, indent, level)
            out += "}"
        }
    }

    /// `value` rounded to `places` decimals, without exponent (`-0` written `0`).
    private static func fixed(_ value: Double, places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e15 else { return String(Int64(value.rounded())) }
        let units = Int64(scaled)
        let whole = units / Int64(scale), fraction = units % Int64(scale)
        var text = (value < 0 && units != 0 ? "-" : "") + String(whole)
        if places > 0 {
            let digits = String(fraction)
            text += "." + String(repeating: "0", count: places - digits.count) + digits
        }
        return text
    }

    private static func newline(_ out: inout String, _ indent: String?, _ level: Int) {
        guard let indent else { return }
        out += "\n"
        for _ in 0..<level { out += indent }
    }

    /// RFC 8259 §7 string escaping: quote, backslash and control characters; DEL, C1 controls,
    /// U+2028/2029 and the bidi embeddings, overrides and isolates (``Text/isControl(_:)``) too, as `\uXXXX`, so that JSON
    /// read on a terminal carries none of them raw (the value parsed back is the same).
    private static func writeString(_ value: String, into out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if Text.isControl(scalar) {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
