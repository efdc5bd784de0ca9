/// A minimal JSON value with hand-written, stdlib-only serialisation (RFC 8259), for the manifest.
enum JSONValue {
    case string(String)
    case int(Int64)
    case uint(UInt64)
    case bool(Bool)
    case null
    case array([JSONValue])
    /// Keys in the order given.
    case object([(String, JSONValue)])

    /// Serialises; `indent` spaces per level (0: compact, one line).
    func serialized(indent: Int) -> String {
        var out = ""
        write(into: &out, indent: indent, level: 0)
        return out
    }

    private func newline(_ out: inout String, indent: Int, level: Int) {
        guard indent > 0 else { return }
        out.append("\n")
        out.append(String(repeating: " ", count: indent * level))
    }

    func write(into out: inout String, indent: Int, level: Int) {
        switch self {
        case .string(let s): JSONValue.appendQuoted(s, to: &out)
        case .int(let v): out.append(String(v))
        case .uint(let v): out.append(String(v))
        case .bool(let v): out.append(v ? "true" : "false")
        case .null: out.append("null")
        case .array(let items):
            if items.isEmpty { out.append("[]"); return }
            out.append("[")
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(",") }
                newline(&out, indent: indent, level: level + 1)
                item.write(into: &out, indent: indent, level: level + 1)
            }
            newline(&out, indent: indent, level: level)
            out.append("]")
        case .object(let members):
            if members.isEmpty { out.append("{}"); return }
            out.append("{")
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out.append(",") }
                newline(&out, indent: indent, level: level + 1)
                JSONValue.appendQuoted(key, to: &out)
                out.append(indent > 0 ? ": " : ":")
                value.write(into: &out, indent: indent, level: level + 1)
            }
            newline(&out, indent: indent, level: level)
            out.append("}")
        }
    }

    /// Appends `s` as a JSON string: `"` and `\` escaped, control characters as `\n`, `\t`, ... or
    /// `\u00XX`; everything else (non-ASCII included) as UTF-8.
    static func appendQuoted(_ s: String, to out: inout String) {
        out.append("\"")
        var plainStart = s.unicodeScalars.startIndex
        var index = plainStart
        let scalars = s.unicodeScalars
        while index != scalars.endIndex {
            let scalar = scalars[index]
            let escape: String?
            switch scalar.value {
            case 0x22: escape = "\\\""
            case 0x5C: escape = "\\\\"
            case 0x0A: escape = "\\n"
            case 0x0D: escape = "\\r"
            case 0x09: escape = "\\t"
            case 0x08: escape = "\\b"
            case 0x0C: escape = "\\f"
            case 0x00..<0x20:
                let hex = String(scalar.value, radix: 16, uppercase: false)
                escape = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: escape = nil
            }
            if let escape {
                out.unicodeScalars.append(contentsOf: scalars[plainStart..<index])
                out.append(escape)
                plainStart = scalars.index(after: index)
            }
            index = scalars.index(after: index)
        }
        out.unicodeScalars.append(contentsOf: scalars[plainStart..<scalars.endIndex])
        out.append("\"")
    }
}
