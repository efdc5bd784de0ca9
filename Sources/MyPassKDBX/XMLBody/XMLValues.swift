import MyPassBytes
import MyPassXML

/// Parsing and formatting of KeePass XML leaf values (`KdbxFile.Read.Streamed.cs ReadBool/ReadInt/
/// ReadUuid/ReadTime`, `KdbxFile.Write.cs WriteObject`), lenient where KeePass is.
enum XMLValues {
    /// `True`/`False` (any case, also `1`/`0`); empty or other text gives `defaultValue`.
    static func bool(_ text: String, default defaultValue: Bool) -> Bool {
        tristate(text) ?? defaultValue
    }

    /// A nullable boolean: `True`/`False` (any case, `1`/`0`), else `nil` (inherit), including
    /// `null` and empty text.
    static func tristate(_ text: String) -> Bool? {
        switch trimmed(text).lowercased() {
        case "true", "1": return true
        case "false", "0": return false
        default: return nil
        }
    }

    static func int(_ text: String, default defaultValue: Int) -> Int {
        Int(trimmed(text)) ?? defaultValue
    }

    static func int64(_ text: String, default defaultValue: Int64) -> Int64 {
        Int64(trimmed(text)) ?? defaultValue
    }

    static func uint64(_ text: String, default defaultValue: UInt64) -> UInt64 {
        let t = trimmed(text)
        if let v = UInt64(t) { return v }
        if let v = Int64(t), v < 0 { return 0 }
        return defaultValue
    }

    /// A UUID reference: empty, malformed or all-zero text gives `nil`.
    static func uuidReference(_ text: String) -> KDBXUUID? {
        guard let uuid = KDBXUUID(base64: trimmed(text)), !uuid.isZero else { return nil }
        return uuid
    }

    /// A UUID that may be zero: empty or malformed text gives the zero UUID (KeePass `ReadUuid`).
    static func uuidOrZero(_ text: String) -> KDBXUUID {
        KDBXUUID(base64: trimmed(text)) ?? .zero
    }

    /// An identity UUID (group, entry, icon): empty or malformed text gets a fresh random one.
    static func identity(_ text: String) -> KDBXUUID {
        KDBXUUID(base64: trimmed(text)) ?? .random()
    }

    /// A time in either form, chosen by content like KeePassXC's `readDateTime`: text with `-` or `:`
    /// is ISO-8601, anything else base64 of the KDBX 4 Int64 (short or long values padded or
    /// truncated to 8 bytes). `nil` for empty or unreadable text.
    static func time(_ text: String) -> KDBXTime? {
        let t = trimmed(text)
        if t.isEmpty { return nil }
        if t.utf8.contains(where: { $0 == 0x2D || $0 == 0x3A }) { return KDBXTime(iso8601: t) }
        return KDBXTime(kdbx4Base64: t)
    }

    /// The text and CDATA children of a captured element, concatenated (its value when it holds a
    /// `Protected="True"` string); child elements, comments and instructions are skipped.
    static func characterData(of node: XMLElementNode) -> String {
        var text = ""
        for child in node.children {
            switch child {
            case .text(let t), .cdata(let t): text += t
            default: break
            }
        }
        return text
    }

    /// The text without leading and trailing XML white space.
    static func trimmed(_ text: String) -> String {
        let utf8 = text.utf8
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
        guard let first = utf8.first, let last = utf8.last, isSpace(first) || isSpace(last) else { return text }
        var s = Substring(text)
        while let c = s.utf8.first, isSpace(c) { s = s.dropFirst() }
        while let c = s.utf8.last, isSpace(c) { s = s.dropLast() }
        return String(s)
    }

    /// Whether an attribute list says `name="True"` (any case).
    static func flag(_ attributes: [XMLAttribute], _ name: String) -> Bool {
        attributes.contains { $0.name == name && $0.value.lowercased() == "true" }
    }

    /// The value of attribute `name`, or `nil`.
    static func attribute(_ attributes: [XMLAttribute], _ name: String) -> String? {
        attributes.first(where: { $0.name == name })?.value
    }

    static func boolText(_ value: Bool) -> String { value ? "True" : "False" }

    /// A nullable boolean as KeePass writes it (`StrUtil.BoolToStringEx`): `true`, `false` or `null`,
    /// lowercase, unlike plain booleans.
    static func tristateText(_ value: Bool?) -> String {
        guard let value else { return "null" }
        return value ? "true" : "false"
    }
}
