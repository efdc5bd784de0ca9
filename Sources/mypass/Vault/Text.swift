import MyPassKDBX

/// Small text helpers for the human-readable outputs.
enum Text {
    /// `text` on one line: control characters (C0 such as tabs, line breaks and ESC, DEL, C1 such
    /// as the one-byte CSI U+009B, line separators and bidi overrides: ``isControl(_:)``) become spaces.
    static func oneLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { isControl($0) ? " " : $0 }))
    }

    /// Lines of text (notes, a PEM block) safe for a terminal: line breaks (`\n`, `\r\n`) stay, as
    /// `\n`, and every other control character becomes a space, as in ``oneLine(_:)``.
    static func lines(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            if scalar == "\r" && index + 1 < scalars.count && scalars[index + 1] == "\n" { continue }
            out.append(scalar == "\n" || !isControl(scalar) ? scalar : " ")
        }
        return String(out)
    }

    /// Whether `scalar` must not reach a terminal as it is: a C0 or C1 control character or DEL
    /// (U+0000-001F, U+007F-009F), a line or paragraph separator (U+2028, U+2029), or a bidi
    /// embedding, override or isolate (U+202A-202E, U+2066-2069), which can make text read in
    /// another order than it is (Trojan Source, CVE-2021-42574).
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// The most bytes of an error message: it may quote a path or file content of any length.
    static let maxErrorMessageBytes = 1000

    /// An error message safe for a terminal: every control character (``isControl(_:)``: escape
    /// sequences, line breaks, bells, bidi overrides) becomes `?`, and a message of more than
    /// ``maxErrorMessageBytes`` bytes of UTF-8 keeps its first 700 and last 250 bytes (cut at
    /// scalar boundaries) around ` … (N bytes cut) … `: the end holds the reason
    /// (`: no such file`) after a long quoted path.
    static func errorMessage(_ text: String) -> String {
        var safe: [Unicode.Scalar] = []
        var total = 0
        for scalar in text.unicodeScalars {
            let shown: Unicode.Scalar = isControl(scalar) ? "?" : scalar
            safe.append(shown)
            total += UTF8.width(shown)
        }
        guard total > maxErrorMessageBytes else { return String(String.UnicodeScalarView(safe)) }
        var headEnd = 0, headBytes = 0
        while headEnd < safe.count, headBytes + UTF8.width(safe[headEnd]) <= 700 {
            headBytes += UTF8.width(safe[headEnd])
            headEnd += 1
        }
        var tailStart = safe.count, tailBytes = 0
        while tailStart > headEnd, tailBytes + UTF8.width(safe[tailStart - 1]) <= 250 {
            tailBytes += UTF8.width(safe[tailStart - 1])
            tailStart -= 1
        }
        let cut = total - headBytes - tailBytes
        return String(String.UnicodeScalarView(safe[..<headEnd])) + " … (\(cut) bytes cut) … "
            + String(String.UnicodeScalarView(safe[tailStart...]))
    }

    /// Rows of cells as columns separated by two spaces, trailing blanks trimmed. Each cell is made
    /// safe for a terminal first (``oneLine(_:)``): cells quote titles, names and paths.
    static func columns(_ cells: [[String]]) -> String {
        let rows = cells.map { $0.map(oneLine) }
        guard let width = rows.map(\.count).max() else { return "" }
        var widths = [Int](repeating: 0, count: width)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        var out = ""
        for row in rows {
            var line = ""
            for (index, cell) in row.enumerated() {
                line += cell
                if index < row.count - 1 { line += String(repeating: " ", count: widths[index] - cell.count + 2) }
            }
            while line.last == " " { line.removeLast() }
            out += line + "\n"
        }
        return out
    }

    /// The breadcrumb of a group path as the app shows it: `Work > Email` (empty for the root).
    static func breadcrumb(_ path: [String]) -> String { path.joined(separator: " > ") }

    /// A byte count for people: `532 bytes`, `70.0 KiB`, `1.5 MiB`.
    static func byteSize(_ count: Int) -> String {
        if count < 1024 { return count == 1 ? "1 byte" : "\(count) bytes" }
        let units = ["KiB", "MiB", "GiB"]
        var value = Double(count) / 1024
        var unit = 0
        while value >= 1024 && unit < units.count - 1 { value /= 1024; unit += 1 }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }

    /// A KDBX time as ISO 8601 UTC (`2027-06-30T23:59:59Z`).
    static func time(_ time: KDBXTime) -> String { time.iso8601 }
}
