/// How hard a password is to guess: zxcvbn's estimate (guesses, their log10 and log2, the 0-4
/// score) with the cheapest decomposition into patterns that produced it.
public struct StrengthEstimate: Sendable, Equatable {
    /// The estimated number of guesses an attacker who tries the patterns in order needs, at least
    /// 1 (zxcvbn 4's `guesses`). An empty password needs 1.
    public var guesses: Double
    /// The patterns that cover the password, left to right, without gaps.
    public var sequence: [StrengthMatch]
    /// The password's length in Unicode scalars.
    public var length: Int

    /// The largest guess count an estimate reports (10^300, about 997 bits): a password longer
    /// than ``PasswordStrength/maximumAnalysedLength`` scalars may be worth more.
    public static let maximumGuesses = 1e300

    /// `log10(guesses)`.
    public var guessesLog10: Double { logBase10(guesses) }

    /// `log2(guesses)`: the entropy in bits that KeePassXC and `keepassxc-cli estimate` show.
    public var entropyBits: Double { logBase2(guesses) }

    /// zxcvbn's score: 0 below 10^3 guesses (too guessable), 1 below 10^6 (very guessable), 2
    /// below 10^8 (somewhat guessable), 3 below 10^10 (safely unguessable), else 4 (each bound
    /// plus 5, as zxcvbn 4).
    public var score: Int { Self.score(forGuesses: guesses) }

    /// The bits the decomposition adds beyond its patterns' own: the number of ways to order
    /// them and the cost of trying shorter sequences first (zxcvbn 4's `l! * ... + 10000^(l-1)`).
    public var sequenceExtraBits: Double {
        max(0, entropyBits - sequence.reduce(0) { $0 + logBase2($1.guesses) })
    }

    /// The pattern that explains the longest part of the password, the one a report names; a
    /// brute-force token only when nothing else was found.
    public var mainMatch: StrengthMatch? {
        let patterns = sequence.filter { $0.pattern != .bruteforce }
        return (patterns.isEmpty ? sequence : patterns).max { $0.range.count < $1.range.count }
    }

    /// The score of `guesses` (see ``score``).
    public static func score(forGuesses guesses: Double) -> Int {
        let delta = 5.0
        if guesses < 1e3 + delta { return 0 }
        if guesses < 1e6 + delta { return 1 }
        if guesses < 1e8 + delta { return 2 }
        if guesses < 1e10 + delta { return 3 }
        return 4
    }

    /// An English word for a score (0-4): `very weak`, `weak`, `fair`, `strong`, `very strong`.
    public static func scoreName(_ score: Int) -> String {
        switch score {
        case ...0: return "very weak"
        case 1: return "weak"
        case 2: return "fair"
        case 3: return "strong"
        default: return "very strong"
        }
    }
}
