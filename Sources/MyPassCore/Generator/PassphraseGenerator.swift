import MyPassBytes

/// Generates diceware passphrases: words drawn uniformly and independently from the EFF large
/// wordlist (``EFFLargeWordlist``, 7,776 words, log2(7776) = 12.92 bits each), joined by a
/// separator, from the OS random source without modulo bias.
public enum PassphraseGenerator {
    /// The largest word count accepted (about 1,300 bits).
    public static let maxWords = 100

    /// A passphrase of `words` words joined by `separator`.
    ///
    /// - Throws: ``CoreError/Code/invalidGeneratorOptions`` when `words` is not in 1...``maxWords``.
    public static func generate(words: Int, separator: String = " ") throws(CoreError) -> ProtectedString {
        try generate(words: words, separator: separator, randomBelow: SecureRandom.uniform(below:))
    }

    /// ``generate(words:separator:)`` with its random source as a seam: `randomBelow(n)` must
    /// return a uniform integer in `0..<n`.
    public static func generate(words: Int, separator: String,
                                randomBelow: (Int) -> Int) throws(CoreError) -> ProtectedString {
        guard (1...maxWords).contains(words) else {
            throw CoreError(.invalidGeneratorOptions, "the word count must be from 1 to \(maxWords)")
        }
        let list = EFFLargeWordlist.words
        var utf8: [UInt8] = []
        // Room for the longest outcome up front: a growth would free the old buffer unwiped.
        utf8.reserveCapacity(words * (maxWordBytes + separator.utf8.count))
        defer { wipe(&utf8) }
        for index in 0..<words {
            if index > 0 { utf8.append(contentsOf: separator.utf8) }
            utf8.append(contentsOf: list[randomBelow(list.count)].utf8)
        }
        return ProtectedString(utf8Bytes: utf8)
    }

    /// The longest word of the list in UTF-8 bytes.
    static let maxWordBytes = EFFLargeWordlist.words.map { $0.utf8.count }.max() ?? 0

    /// The entropy in bits of a passphrase of `words` words: `words × log2(7776)`.
    public static func entropyBits(words: Int) -> Double { Double(words) * 12.924_812_503_605_78 }
}
