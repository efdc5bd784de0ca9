/// Finds every pattern in a password (zxcvbn 4 `omnimatch`): dictionary words (as written,
/// reversed, with l33t substitutions), keyboard walks, repeats, sequences, recent years and dates,
/// each with its guess count. Overlapping matches are all kept; ``MinimumGuessSearch`` picks.
struct Matcher {
    let configuration: PasswordStrength.Configuration
    let lists: FrequencyLists
    /// The caller's words, lower-cased, as a seventh dictionary ranked in the order given.
    let userInputs: [[UInt32]]

    init(configuration: PasswordStrength.Configuration, userInputs: [String]) {
        self.configuration = configuration
        lists = FrequencyLists.shared
        self.userInputs = userInputs.map { $0.unicodeScalars.map { PasswordText.lowercase($0.value) } }
    }

    /// Every match in `text`, ordered by start, then end, then matcher (dictionary, reversed,
    /// l33t, spatial, repeat, sequence, recent year, date), as zxcvbn orders them: the order
    /// decides between decompositions of equal cost.
    func omnimatch(_ text: PasswordText) -> [StrengthMatch] {
        var found: [StrengthMatch] = []
        dictionaryMatches(text, into: &found)
        reversedDictionaryMatches(text, into: &found)
        l33tMatches(text, into: &found)
        spatialMatches(text, into: &found)
        repeatMatches(text, into: &found)
        sequenceMatches(text, into: &found)
        recentYearMatches(text, into: &found)
        dateMatches(text, into: &found)
        // A stable sort on (start, end): the generation order above breaks ties.
        let order = found.indices.sorted {
            let a = found[$0].range, b = found[$1].range
            if a.lowerBound != b.lowerBound { return a.lowerBound < b.lowerBound }
            if a.upperBound != b.upperBound { return a.upperBound < b.upperBound }
            return $0 < $1
        }
        return order.map { found[$0] }
    }

    /// The match of `pattern` over `range` of `text`, with its guesses: the pattern's own
    /// estimate, at least zxcvbn's minimum for a token that is not the whole password (10 for one
    /// scalar, 50 for more).
    func match(_ range: Range<Int>, _ pattern: StrengthMatch.Pattern, guesses: Double, in text: PasswordText) -> StrengthMatch {
        var minimum = 1.0
        if range.count < text.count { minimum = range.count == 1 ? 10 : 50 }
        return StrengthMatch(range: range, pattern: pattern, guesses: max(guesses, minimum))
    }
}
