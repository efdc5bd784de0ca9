#if !hasFeature(Embedded)
import Foundation
#endif

/// Case and diacritic folding for search, as KeePass's search compares (`café` finds `CAFE`,
/// `Straße` finds `strasse`).
public enum SearchFolding {
    /// `text` with case and diacritics folded (Unicode case folding, combining marks removed),
    /// so that a plain substring test is case- and diacritic-insensitive.
    ///
    /// In Embedded Swift (no Foundation) non-ASCII text is lower-cased by the standard library,
    /// the Latin-1 and Latin Extended-A letters that decompose lose their diacritics by a table
    /// (`é` → `e`, `ß` → `ss`; not `ø` or `ł`, which do not decompose) and combining marks (U+0300-U+036F) are dropped; other scripts keep
    /// their diacritics there (Foundation folds them in the package build).
    public static func fold(_ text: String) -> String {
        // ASCII fast path: only case to fold.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        #if hasFeature(Embedded)
        return latinFold(text.lowercased())
        #else
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .lowercased()
        #endif
    }

    /// Whether `haystack` (already folded) contains the folded `needle`.
    public static func contains(_ haystack: String, folded needle: String) -> Bool {
        #if hasFeature(Embedded)
        // Both are folded, so a UTF-8 substring test is the same test (UTF-8 is self-synchronising).
        let bytes = Array(haystack.utf8), pattern = Array(needle.utf8)
        guard !pattern.isEmpty else { return true }
        guard bytes.count >= pattern.count else { return false }
        for start in 0...(bytes.count - pattern.count) where bytes[start] == pattern[0] {
            if bytes[start..<(start + pattern.count)].elementsEqual(pattern) { return true }
        }
        return false
        #else
        return needle.isEmpty || haystack.contains(needle)
        #endif
    }

    #if hasFeature(Embedded)
    /// Base letters of U+00E0-U+017F (lower case, from their canonical decomposition), one per
    /// scalar; `_` where the scalar does not decompose to an ASCII letter and a mark.
    private static let latinBases: [UInt8] = Array(
        "aaaaaa_ceeeeiiii_nooooo__uuuuy_yaaaaaaccccccccdd__eeeeeeeeeegggggggghh__iiiiiiiii___jjkk_llllll____nnnnnn___oooooo__rrrrrrsssssssstttt__uuuuuuuuuuuuwwyyyzzzzzz_".utf8)

    private static func latinFold(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value >= 0x300 && value <= 0x36F { continue }
            if value == 0xDF {
                out.append("s")
                out.append("s")
            } else if value >= 0xE0 && value <= 0x17F, latinBases[Int(value - 0xE0)] != UInt8(ascii: "_") {
                out.append(Unicode.Scalar(latinBases[Int(value - 0xE0)]))
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
    #endif
}
