import MyPassKDBX

/// Small text helpers for the human-readable outputs.
enum Text {
    /// `text` on one line: control characters (C0 such as tabs, line breaks and ESC, DEL, C1 such
    /// as the one-byte CSI U+009B, line separators and bidi overrides: ``isControl(_:)``) become spaces.
    static func oneLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { isControl($0) ? " " : $0 }))
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
    /// sequences, line breaks, bells, bidi overrides) becomes `?`, and past ``maxErrorMessageBytes`` bytes of
    /// UTF-8 the text is cut at a character boundary and ends with `… (N bytes cut)`.
    static func errorMessage(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var bytes = 0
        var cut = 0
        for scalar in text.unicodeScalars {
            let safe: Unicode.Scalar = isControl(scalar) ? "?" : scalar
            let size = UTF8.width(safe)
            if cut > 0 || bytes + size > maxErrorMessageBytes {
                cut += size
                continue
            }
            out.append(safe)
            bytes += size
        }
        return cut > 0 ? String(out) + "… (\(cut) bytes cut)" : String(out)
    }

    /// Rows of cells as columns separated by two spaces, trailing blanks trimmed.
    static func columns(_ rows: [[String]]) -> String {
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
