/// Cutting and padding text to terminal columns (``DisplayWidth``), for the layout of `browse`.
extension DisplayWidth {
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
