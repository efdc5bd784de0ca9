/// One pattern of a password's cheapest decomposition (zxcvbn's "match"): where it lies, what it
/// is, and how many guesses an attacker who knows the pattern needs for it.
///
/// A match holds scalar offsets, never the matched text: the estimate of a vault password can be
/// kept and shown without copying any part of the password. (The ``Pattern`` may still tell a
/// lot, a dictionary rank or a date: show it only to the password's owner.)
public struct StrengthMatch: Sendable, Equatable {
    /// The Unicode scalar offsets of the token in the password (`0..<3` for the first three).
    public var range: Range<Int>
    /// What the token is.
    public var pattern: Pattern
    /// The guesses for this token, at least 1 (zxcvbn 4 `estimate_guesses`, with its minimum of
    /// 10 for a one-scalar and 50 for a longer token that is not the whole password).
    public var guesses: Double

    /// `log10(guesses)`.
    public var guessesLog10: Double { logBase10(guesses) }

    /// `log2(guesses)`: the bits this token adds.
    public var entropyBits: Double { logBase2(guesses) }

    /// The kinds of pattern, with what their guess count depends on.
    public enum Pattern: Sendable, Equatable {
        /// A word of a frequency list, possibly reversed, capitalised or with l33t substitutions.
        case dictionary(DictionaryWord)
        /// A walk on a keyboard: adjacent keys, `turns` changes of direction, `shiftedCount` keys
        /// typed with Shift.
        case spatial(layout: KeyboardLayout, turns: Int, shiftedCount: Int)
        /// A token repeated (`abcabc`): the base token's length and cheapest decomposition, and
        /// how many times it is repeated.
        case repeated(baseLength: Int, repeatCount: Int, baseGuesses: Double, base: [StrengthMatch])
        /// Scalars with a constant step of 1 to 5 (`abcd`, `9753`).
        case sequence(kind: SequenceKind, ascending: Bool)
        /// Four digits that form a recent year (zxcvbn's `recent_year` expression).
        case recentYear
        /// A date of three numbers, with or without separators (`13.5.1987`, `130587`).
        case date(year: Int, month: Int, day: Int, hasSeparator: Bool)
        /// Characters no pattern explains: 10 guesses per scalar.
        case bruteforce
    }

    /// A dictionary match's details.
    public struct DictionaryWord: Sendable, Equatable {
        /// The frequency list the word is in.
        public var list: FrequencyList
        /// The word's rank in that list (1: the most frequent).
        public var rank: Int
        /// Whether the token is the word backwards.
        public var isReversed: Bool
        /// Whether the token has l33t substitutions (`@` for `a`).
        public var isL33t: Bool
        /// The factor for capitalisation (1: all lower case; 2: first, last or all upper case).
        public var uppercaseVariations: Double
        /// The factor for the l33t substitutions (1 without).
        public var l33tVariations: Double
    }

    /// The sets of characters a ``Pattern/sequence(kind:ascending:)`` runs through.
    public enum SequenceKind: String, Sendable, Equatable {
        case lowercase, uppercase, digits, unicode
    }

    /// A short English name of the pattern, free of any part of the password: `dictionary word
    /// (common passwords)`, `keyboard walk (qwerty)`, `date`.
    public var kindDescription: String {
        switch pattern {
        case .dictionary(let word):
            var text = word.isReversed ? "reversed word" : "dictionary word"
            if word.isL33t { text = "l33t " + text }
            return text + " (\(word.list.title))"
        case .spatial(let layout, _, _): return "keyboard walk (\(layout.rawValue))"
        case .repeated: return "repetition"
        case .sequence: return "sequence"
        case .recentYear: return "recent year"
        case .date: return "date"
        case .bruteforce: return "random characters"
        }
    }
}

/// The frequency lists the dictionary matcher searches (zxcvbn's, in its order), and the words a
/// caller adds for one estimate (the entry's title, user name...).
public enum FrequencyList: String, Sendable, Equatable, CaseIterable {
    case passwords
    case englishWikipedia = "english_wikipedia"
    case femaleNames = "female_names"
    case surnames
    case usTVAndFilm = "us_tv_and_film"
    case maleNames = "male_names"
    case userInputs = "user_inputs"

    /// A plain English name of the list.
    public var title: String {
        switch self {
        case .passwords: return "common passwords"
        case .englishWikipedia: return "English Wikipedia words"
        case .femaleNames: return "female names"
        case .surnames: return "surnames"
        case .usTVAndFilm: return "US TV and film words"
        case .maleNames: return "male names"
        case .userInputs: return "the entry's own words"
        }
    }
}

/// The keyboards the spatial matcher walks (zxcvbn's adjacency graphs).
public enum KeyboardLayout: String, Sendable, Equatable, CaseIterable {
    case qwerty, dvorak, keypad
    case macKeypad = "mac keypad"
}
