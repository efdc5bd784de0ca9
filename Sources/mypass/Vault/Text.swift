import MyPassKDBX

/// Small text helpers for the human-readable outputs.
enum Text {
    /// `text` on one line: control characters (C0 such as tabs, line breaks and ESC, DEL, C1 such
    /// as the one-byte CSI U+009B, line separators and bidi overrides: ``isControl(_:)``) become spaces.
    static func oneLine(_ text: String) -> String {
        // Most text has no control character: returned as it is, without a copy.
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { isControl($0) ? " " : $0 }))
    }

    /// Lines of text (notes, a PEM block) safe for a terminal: line breaks (`\n`, `\r\n`) stay, as
    /// `\n`, and every other control character becomes a space, as in ``oneLine(_:)``.
    static func lines(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 != "\n" && isControl($0) }) else { return text }
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

    /// The most bytes of one quoted value (`'…'`) in an error message before it is shortened to
    /// its first ``quotedHeadBytes`` and last ``quotedTailBytes`` bytes (always shorter: the
    /// marker between them is at most 27 bytes).
    static let maxQuotedBytes = 260
    static let quotedHeadBytes = 160, quotedTailBytes = 60

    /// What a message over ``maxErrorMessageBytes`` keeps: its first and last bytes (the end holds
    /// the reason, `: no such file`). 700 + 250 + the marker stay under the maximum.
    static let messageHeadBytes = 700, messageTailBytes = 250

    /// An error message safe for a terminal: every control character (``isControl(_:)``: escape
    /// sequences, line breaks, bells, bidi overrides) becomes `?`; a quoted value (`'…'`) of more
    /// than ``maxQuotedBytes`` bytes of UTF-8 is shortened around ` … (N bytes cut) … `, so that
    /// the words between two long values stay (`entry '…' has no field '…'`); and a message still
    /// over ``maxErrorMessageBytes`` is shortened the same way. N counts the bytes of the text as
    /// shown (a control character as its `?`); cuts fall on scalar boundaries.
    ///
    /// A `'` opens a quoted value at the start or after a space or `(`, and closes it at the end or
    /// before a space or one of `:,.;)`: an apostrophe inside a value (`Bob's`) does neither.
    static func errorMessage(_ text: String) -> String {
        let safe = text.unicodeScalars.map { isControl($0) ? "?" : $0 }
        func closes(_ index: Int) -> Bool {
            safe[index] == "'" && (index + 1 == safe.count || " :,.;)".unicodeScalars.contains(safe[index + 1]))
        }
        // The first closing quote at or after each index, found from the end (linear time).
        var nextClose = [Int](repeating: safe.count, count: safe.count + 1)
        for index in stride(from: safe.count - 1, through: 0, by: -1) {
            nextClose[index] = closes(index) ? index : nextClose[index + 1]
        }
        var shown: [Unicode.Scalar] = []
        shown.reserveCapacity(safe.count)
        var index = 0
        while index < safe.count {
            let opens = safe[index] == "'" && (index == 0 || safe[index - 1] == " " || safe[index - 1] == "(")
            let close = nextClose[index + 1]
            guard opens, close < safe.count else {
                shown.append(safe[index])
                index += 1
                continue
            }
            let value = safe[(index + 1)..<close]
            shown.append("'")
            shown += utf8Count(value) > maxQuotedBytes ? shortened(value, head: quotedHeadBytes, tail: quotedTailBytes) : value
            shown.append("'")
            index = close + 1
        }
        let all = shown[...]
        let message = utf8Count(all) > maxErrorMessageBytes ? shortened(all, head: messageHeadBytes, tail: messageTailBytes) : all
        return String(String.UnicodeScalarView(message))
    }

    private static func utf8Count(_ scalars: ArraySlice<Unicode.Scalar>) -> Int {
        scalars.reduce(0) { $0 + UTF8.width($1) }
    }

    /// The first `head` and last `tail` bytes of `scalars` (whole scalars) around ` … (N bytes cut) … `.
    private static func shortened(_ scalars: ArraySlice<Unicode.Scalar>, head: Int, tail: Int) -> ArraySlice<Unicode.Scalar> {
        var headEnd = scalars.startIndex, headBytes = 0
        while headEnd < scalars.endIndex, headBytes + UTF8.width(scalars[headEnd]) <= head {
            headBytes += UTF8.width(scalars[headEnd])
            headEnd += 1
        }
        var tailStart = scalars.endIndex, tailBytes = 0
        while tailStart > headEnd, tailBytes + UTF8.width(scalars[tailStart - 1]) <= tail {
            tailBytes += UTF8.width(scalars[tailStart - 1])
            tailStart -= 1
        }
        let cut = utf8Count(scalars) - headBytes - tailBytes
        return scalars[..<headEnd] + " … (\(cut) bytes cut) … ".unicodeScalars + scalars[tailStart...]
    }

    /// Rows of cells as columns separated by two spaces, trailing blanks trimmed. Each cell is made
    /// safe for a terminal first (``oneLine(_:)``): cells quote titles, names and paths. Widths are
    /// terminal columns (``DisplayWidth``), so that CJK text and emoji, two columns each, line up.
    static func columns(_ cells: [[String]]) -> String {
        let rows = cells.map { $0.map(oneLine) }
        let cellWidths = rows.map { $0.map { DisplayWidth.of($0) } }
        guard let width = rows.map(\.count).max() else { return "" }
        var widths = [Int](repeating: 0, count: width)
        for row in cellWidths {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell) }
        }
        var out = ""
        for (row, rowWidths) in zip(rows, cellWidths) {
            var line = ""
            for (index, cell) in row.enumerated() {
                line += cell
                if index < row.count - 1 { line += String(repeating: " ", count: widths[index] - rowWidths[index] + 2) }
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
