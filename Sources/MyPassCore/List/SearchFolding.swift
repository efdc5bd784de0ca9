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
