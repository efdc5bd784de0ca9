/// Terminal display width: how many columns a terminal gives text (East Asian wide and
/// fullwidth characters and emoji take two, combining marks, variation selectors and joiners
/// none), per grapheme cluster, as `wcwidth(3)` with the Unicode 15 wide ranges. For column
/// layouts (`ls`, `browse`).
enum DisplayWidth {
    /// The columns `text` takes (no control characters expected: see `Text.oneLine`).
    static func of(_ text: some StringProtocol) -> Int {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        return text.reduce(0) { $0 + of($1) }
    }

    /// The columns one character (grapheme cluster) takes: 0, 1 or 2.
    static func of(_ character: Character) -> Int {
        var width = 0
        var emojiStyle = false
        for scalar in character.unicodeScalars {
            if scalar.value == 0xFE0F { emojiStyle = true }
            width = max(width, of(scalar))
        }
        if emojiStyle && character.unicodeScalars.first?.properties.isEmoji == true { width = 2 }
        return width
    }

    /// The columns one scalar takes alone.
    static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if (0xFE00...0xFE0F).contains(value) || (0xE0100...0xE01EF).contains(value) || (0x1160...0x11FF).contains(value) { return 0 }
        if scalar.properties.isEmojiPresentation { return 2 }
        for range in wide where range.contains(value) { return 2 }
        return 1
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges.
    private static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
        0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
        0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF,
        0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F2FF,
        0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB, 0x1F90C...0x1F9FF, 0x1FA70...0x1FAFF,
        0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    /// `text` cut to at most `columns` columns, with `…` at the end when cut.
    static func truncated(_ text: String, to columns: Int) -> String {
        guard columns > 0 else { return "" }
        if of(text) <= columns { return text }
        var out = ""
        var used = 0
        for character in text {
            let width = of(character)
            if used + width > columns - 1 { break }
            out.append(character)
            used += width
        }
        return out + "…"
    }

    /// `text` cut in the middle to at most `columns` columns (`Work > … > Email`), keeping its start and end.
    static func middleTruncated(_ text: String, to columns: Int) -> String {
        guard columns > 0 else { return "" }
        if of(text) <= columns { return text }
        guard columns > 2 else { return truncated(text, to: columns) }
        let characters = Array(text)
        let headColumns = (columns - 1) / 2, tailColumns = columns - 1 - headColumns
        var head = "", used = 0
        for character in characters {
            let width = of(character)
            if used + width > headColumns { break }
            head.append(character)
            used += width
        }
        var tail: [Character] = []
        used = 0
        for character in characters.reversed() {
            let width = of(character)
            if used + width > tailColumns { break }
            tail.insert(character, at: 0)
            used += width
        }
        return head + "…" + String(tail)
    }

    /// `text` padded with spaces (or cut) to exactly `columns` columns.
    static func padded(_ text: String, to columns: Int) -> String {
        let cut = truncated(text, to: columns)
        let width = of(cut)
        return width < columns ? cut + String(repeating: " ", count: columns - width) : cut
    }
}
