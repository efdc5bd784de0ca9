/// How many terminal columns text takes, for aligning tables: per grapheme cluster (a
/// `Character`), as terminals that follow Unicode lay text out (UAX #11 East Asian Width, UTS #51
/// emoji presentation):
/// - 2 for a cluster with U+FE0F VARIATION SELECTOR-16 (an emoji presentation sequence: `❤️`,
///   a keycap `1️⃣`), for a pair of regional indicators (a flag), and for one whose first
///   visible scalar is East_Asian_Width W or F (CJK ideographs, kana, Hangul syllables, fullwidth
///   forms, and the emoji shown as emoji by default, `😀`, which Unicode makes W), the marks,
///   joiners and modifiers after it adding nothing (`👩‍💻` is 2);
/// - 1 for a cluster with U+FE0E (text presentation) and for every other visible cluster;
/// - 0 for a cluster of nothing but zero-width scalars (combining marks, format characters).
///
/// The tables come from the Unicode Character Database (``unicodeVersion``) through
/// `Tools/generate-display-width.py`. Control characters are never measured: table cells are made
/// safe first (`Text.oneLine`), which turns them into spaces.
enum DisplayWidth {
    /// The columns `text` takes.
    static func of(_ text: some StringProtocol) -> Int {
        // ASCII text (most titles and user names) without the per-cluster work.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.utf8.count }
        return text.reduce(0) { $0 + of($1) }
    }

    /// The columns one grapheme cluster takes.
    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        if scalars.contains("\u{FE0F}") { return 2 }
        if let first = scalars.first, isRegionalIndicator(first) {
            return scalars.dropFirst().contains(where: isRegionalIndicator) ? 2 : 1
        }
        for scalar in scalars where !isZeroWidth(scalar) {
            if scalars.contains("\u{FE0E}") { return 1 }
            return isWide(scalar) ? 2 : 1
        }
        return 0
    }

    /// U+1F1E6...1F1FF, the letters that pair into flags.
    static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool {
        (0x1F1E6...0x1F1FF).contains(scalar.value)
    }

    /// East_Asian_Width W or F (``wideRanges``).
    static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        contains(wideRanges, scalar.value)
    }

    /// A mark or format character (``zeroRanges``).
    static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        contains(zeroRanges, scalar.value)
    }

    /// Binary search of sorted, disjoint ranges.
    private static func contains(_ ranges: [(first: UInt32, last: UInt32)], _ value: UInt32) -> Bool {
        var low = 0, high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].last < value {
                low = middle + 1
            } else if ranges[middle].first > value {
                high = middle
            } else {
                return true
            }
        }
        return false
    }
}
