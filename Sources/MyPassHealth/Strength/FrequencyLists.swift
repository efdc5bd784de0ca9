import MyPassBytes
import MyPassCompression

/// zxcvbn's frequency lists, decoded on first use into one table: word to rank per list.
///
/// The words (93,855 of them, all ASCII, each in exactly one of six lists: zxcvbn's build kept a
/// word only in the list where it ranks best) stay in the decoded text, found through an
/// open-addressing hash table keyed by FNV-1a over the lower-case scalars, so that a lookup of a
/// slice of the password builds no string. The embedded data is raw DEFLATE in base64
/// (``embeddedDeflateBase64``, 388 KB) inflated once (793 KB of text); the table adds about
/// 1.9 MB. Nothing of it is touched until the first estimate: a process that never estimates (the
/// AutoFill extension does not even link this module) never pays for it.
package final class FrequencyLists: Sendable {
    /// The lists in the embedded data's (and zxcvbn's) order.
    package static let order: [FrequencyList] = [.passwords, .englishWikipedia, .femaleNames, .surnames, .usTVAndFilm, .maleNames]

    /// The embedded lists, decoded once (thread-safe: a `static let` is initialised once).
    package static let shared: FrequencyLists = {
        do {
            return try FrequencyLists(embedded: ())
        } catch {
            // The data is part of the binary and checked by the tests: failing here is a build defect.
            fatalError("the embedded frequency lists do not decode: \(error)")
        }
    }()

    /// The length of the longest word, in scalars: longer slices are not looked up.
    package let maximumWordLength: Int
    /// The number of words of each list, in ``order``.
    package let wordCounts: [Int]
    /// The decoded text (`#name` lines and words); words are slices of it.
    private let text: [UInt8]
    /// Per word: its offset in ``text`` (low 40 bits) and length (high bits).
    private let words: [UInt64]
    /// Per word: its list (index in ``order``, high 8 bits) and rank (low 24 bits).
    private let ranks: [UInt32]
    /// Open addressing: word index + 1, 0 for an empty slot; a power of two long.
    private let slots: [UInt32]

    private static let listCount = 6

    /// Decodes the embedded data.
    private convenience init(embedded: Void) throws {
        try self.init(text: try Self.embeddedText())
    }

    /// The embedded lists' text, inflated (`#name` lines and words; see the generator).
    package static func embeddedText() throws -> [UInt8] {
        let packed = embeddedDeflateBase64.withUTF8Buffer { Array($0) }
        let compressed = try Base64.decode(utf8: packed)
        var inflater = Inflater(format: .raw, maxOutputBytes: embeddedInflatedByteCount)
        var text = try inflater.update(compressed)
        text += try inflater.finish()
        return text
    }

    /// Builds the table from `text` in the embedded layout (``Tools/generate-frequency-lists.py``).
    init(text: [UInt8]) throws(HealthError) {
        var words: [UInt64] = []
        var ranks: [UInt32] = []
        var counts = [Int](repeating: 0, count: Self.listCount)
        var longest = 0
        var list = -1
        var rank = 0
        // Capacity: twice the words, rounded up to a power of two (load factor below 0.5).
        let lineCount = text.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
        var capacity = 1
        while capacity < lineCount * 2 { capacity <<= 1 }
        var slots = [UInt32](repeating: 0, count: capacity)
        let mask = capacity - 1
        var start = 0
        for (offset, byte) in text.enumerated() where byte == 0x0A {
            let line = start..<offset
            start = offset + 1
            if text[line.lowerBound] == UInt8(ascii: "#") {
                list += 1
                rank = 0
                let name = String(decoding: text[line.dropFirst()], as: UTF8.self)
                guard list < Self.listCount, name == Self.order[list].rawValue else {
                    throw HealthError(.invalidData, "frequency list header '\(name)' out of order")
                }
                continue
            }
            guard list >= 0, !line.isEmpty, line.count <= 255 else {
                throw HealthError(.invalidData, "frequency list word outside a list or of a bad length")
            }
            rank += 1
            counts[list] += 1
            longest = max(longest, line.count)
            var slot = Int(truncatingIfNeeded: Self.hash(text[line].lazy.map(UInt32.init))) & mask
            var found = -1
            while slots[slot] != 0 {
                let index = Int(slots[slot] - 1)
                if Self.equal(text, words[index], text[line].lazy.map(UInt32.init)) {
                    found = index
                    break
                }
                slot = (slot + 1) & mask
            }
            guard found < 0 else { throw HealthError(.invalidData, "frequency list word listed twice") }
            words.append(UInt64(line.lowerBound) | UInt64(line.count) << 40)
            ranks.append(UInt32(list) << 24 | UInt32(rank))
            slots[slot] = UInt32(words.count)
        }
        guard list == Self.listCount - 1 else { throw HealthError(.invalidData, "frequency lists missing") }
        self.text = text
        self.words = words
        self.ranks = ranks
        self.slots = slots
        self.wordCounts = counts
        maximumWordLength = longest
    }

    /// The list and rank of the lower-case word `key` (scalars), or nil. Allocates nothing.
    func rank<C: Collection>(of key: C) -> (list: FrequencyList, rank: Int)? where C.Element == UInt32 {
        guard key.count <= maximumWordLength, !key.isEmpty else { return nil }
        for value in key where value >= 0x80 { return nil }
        var slot = Int(truncatingIfNeeded: Self.hash(key)) & (slots.count - 1)
        while slots[slot] != 0 {
            let index = Int(slots[slot] - 1)
            if Self.equal(text, words[index], key) {
                return (Self.order[Int(ranks[index] >> 24)], Int(ranks[index] & 0xFF_FFFF))
            }
            slot = (slot + 1) & (slots.count - 1)
        }
        return nil
    }

    /// The words of `list` in rank order (tests compare them with the oracle's lists).
    package func words(of list: FrequencyList) -> [String] {
        guard let column = Self.order.firstIndex(of: list) else { return [] }
        var ranked: [(Int, String)] = []
        for index in 0..<words.count where Int(ranks[index] >> 24) == column {
            let rank = ranks[index] & 0xFF_FFFF
            let offset = Int(words[index] & 0xFF_FFFF_FFFF), length = Int(words[index] >> 40)
            ranked.append((Int(rank), String(decoding: text[offset..<offset + length], as: UTF8.self)))
        }
        return ranked.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// FNV-1a over the scalars (all ASCII in the lists, one byte each).
    private static func hash<C: Collection>(_ key: C) -> UInt64 where C.Element == UInt32 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for value in key {
            hash ^= UInt64(value)
            hash &*= 0x100_0000_01b3
        }
        return hash ^ (hash >> 29)
    }

    /// Whether the word at `packed` in `text` is `key`.
    private static func equal<C: Collection>(_ text: [UInt8], _ packed: UInt64, _ key: C) -> Bool where C.Element == UInt32 {
        let offset = Int(packed & 0xFF_FFFF_FFFF), length = Int(packed >> 40)
        guard length == key.count else { return false }
        var position = offset
        for value in key {
            if UInt32(text[position]) != value { return false }
            position += 1
        }
        return true
    }
}
