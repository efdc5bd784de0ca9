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

    /// Whether `haystack` (already folded) contains the folded `needle`.
    public static func contains(_ haystack: String, folded needle: String) -> Bool {
        needle.isEmpty || haystack.contains(needle)
    }
}
