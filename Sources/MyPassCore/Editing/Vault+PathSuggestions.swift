import MyPassKDBX

extension Vault {
    /// The known paths that `path` probably meant, best first, at most `limit`: those equal to it
    /// but for letter case (distance 0), then those at most two single-character edits away
    /// (Levenshtein distance on characters, case ignored; at most one edit for paths under eight
    /// characters, so that short names do not suggest everything). Ties keep `known`'s order.
    ///
    /// - Parameters:
    ///   - path: the path as typed, in display form (``displayPath(_:)``).
    ///   - known: the display paths to choose from.
    ///   - limit: the most suggestions returned (default 3).
    public static func suggestions(for path: String, among known: [String], limit: Int = 3) -> [String] {
        closest(to: path, among: known.filter { $0 != path }.map { ($0, $0) }, limit: limit)
    }

    /// The paths of the entries whose title `title` probably meant, best first, at most `limit`:
    /// the same title (any case), then titles at most one edit away (two for titles of eight
    /// characters or more), Levenshtein distance with case ignored; ties keep `entries`' order.
    public static func titleSuggestions(for title: String, among entries: [LocatedEntry], limit: Int = 3) -> [String] {
        closest(to: title, among: entries.map { ($0.entry.title, displayPath($0.path)) }, limit: limit)
    }

    /// The `result`s of the candidates whose `key` is closest to `typed` (the rules of
    /// ``suggestions(for:among:limit:)``), without repeats.
    private static func closest(to typed: String, among candidates: [(key: String, result: String)], limit: Int) -> [String] {
        let letters = Array(typed.lowercased())
        let allowed = letters.count < 8 ? 1 : 2
        var scored: [(distance: Int, index: Int, result: String)] = []
        for (index, candidate) in candidates.enumerated() {
            let other = Array(candidate.key.lowercased())
            guard abs(other.count - letters.count) <= allowed,
                  let distance = editDistance(letters, other, atMost: allowed) else { continue }
            scored.append((distance, index, candidate.result))
        }
        scored.sort { ($0.distance, $0.index) < ($1.distance, $1.index) }
        var out: [String] = []
        for item in scored where !out.contains(item.result) {
            out.append(item.result)
            if out.count == limit { break }
        }
        return out
    }

    /// `; did you mean 'A' or 'B'?` for a not-found message, or `""` without suggestions.
    static func didYouMean(_ suggestions: [String]) -> String {
        guard !suggestions.isEmpty else { return "" }
        return "; did you mean " + suggestions.map { "'\($0)'" }.joined(separator: " or ") + "?"
    }

    /// The Levenshtein distance of `a` and `b` when it is at most `limit`, else nil (rows stop
    /// early once every cell is past the limit).
    static func editDistance(_ a: [Character], _ b: [Character], atMost limit: Int) -> Int? {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) <= limit ? max(a.count, b.count) : nil }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum > limit { return nil }
            swap(&previous, &current)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }
}
