import Foundation

/// Case and diacritic folding for search, as KeePass's search compares (`café` finds `CAFE`,
/// `Straße` finds `strasse`).
public enum SearchFolding {
    /// `text` with case and diacritics folded (Unicode case folding, combining marks removed),
    /// so that a plain substring test is case- and diacritic-insensitive.
    public static func fold(_ text: String) -> String {
        // ASCII fast path: only case to fold.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .lowercased()
    }

    /// Whether `haystack` (already folded) contains the folded `needle`: a comparison of their
    /// UTF-8 bytes (both folded, so case and diacritics are already gone).
    public static func contains(_ haystack: String, folded needle: String) -> Bool {
        guard let first = needle.utf8.first else { return true }
        let hay = haystack.utf8, pattern = needle.utf8
        var start = hay.startIndex
        while let found = hay[start...].firstIndex(of: first) {
            if hay[found...].starts(with: pattern) { return true }
            start = hay.index(after: found)
        }
        return false
    }

    /// Whether `bytes[range]` contains `needle` (UTF-8 of folded text; an empty needle is found).
    static func contains(_ bytes: [UInt8], in range: Range<Int>, needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        let length = needle.count
        var start = range.lowerBound
        let last = range.upperBound - length
        while start <= last {
            if bytes[start] == first {
                var matched = 1
                while matched < length && bytes[start + matched] == needle[matched] { matched += 1 }
                if matched == length { return true }
            }
            start += 1
        }
        return false
    }
}
