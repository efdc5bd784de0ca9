import MyPassBytes

/// A password strength estimator of the zxcvbn family (Wheeler, "zxcvbn: Low-Budget Password
/// Strength Estimation", USENIX Security 2016; the zxcvbn 4.4 algorithm that Python's `zxcvbn`
/// and KeePassXC's zxcvbn-c follow): it finds every pattern in the password (dictionary words of
/// six frequency lists, reversed and with l33t substitutions; keyboard walks on qwerty, dvorak and
/// two keypads; sequences; repeats; recent years; dates), estimates the guesses for each, and
/// searches the decomposition with the fewest guesses overall.
///
/// The password is read as Unicode scalars in arrays that are wiped when the estimate is done; the
/// result keeps offsets, never text. The first use decodes the frequency lists (tens of
/// milliseconds, about 3 MB); an estimate then takes tens of microseconds for a typical password.
/// Only the first ``maximumAnalysedLength`` scalars are searched for patterns; each scalar after
/// them adds a brute-force factor of 10.
public struct PasswordStrength: Sendable {
    /// What the estimator assumes about time.
    public struct Configuration: Sendable, Equatable {
        /// The year dates and years are measured from: a year `y` in a password costs
        /// `max(|y - referenceYear|, 20)` guesses.
        public var referenceYear: Int
        /// The years a four-digit token is taken as a "recent year" (zxcvbn's `19\d\d|200\d|201\d`
        /// is 1900...2019).
        public var recentYears: ClosedRange<Int>

        /// A configuration with its parts.
        public init(referenceYear: Int, recentYears: ClosedRange<Int>) {
            self.referenceYear = referenceYear
            self.recentYears = recentYears
        }

        /// zxcvbn 4.4 as Python's `zxcvbn` 4.5 runs it: reference year 2017, recent years
        /// 1900-2019 (`.current(year: 2017)`). The oracle tests use it.
        public static let zxcvbn4 = current(year: 2017)

        /// The same model brought to `year`: dates measured from `year`, and every year from 1900
        /// to two years after it a recent year, as zxcvbn 4.4 took 1900-2019 in 2017 (`2024` is as
        /// guessable today as `2015` was then).
        public static func current(year: Int) -> Configuration {
            Configuration(referenceYear: year, recentYears: 1900...max(year + 2, 1900))
        }
    }

    /// The longest prefix, in scalars, searched for patterns (the search is quadratic in length).
    public static let maximumAnalysedLength = 100

    /// The assumptions in use.
    public let configuration: Configuration

    /// An estimator with `configuration`.
    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Estimates the guesses for `password`. `userInputs` are words an attacker knows (the entry's
    /// title, user name, site), matched as a seventh dictionary, ranked in the order given.
    public func estimate(_ password: String, userInputs: [String] = []) -> StrengthEstimate {
        var bytes = Array(password.utf8)
        defer { wipe(&bytes) }
        return bytes.withUnsafeBytes { estimate(utf8: $0, userInputs: userInputs) }
    }

    /// Estimates the guesses for a protected password, revealed only in wiped scratch buffers.
    public func estimate(_ password: ProtectedString, userInputs: [String] = []) -> StrengthEstimate {
        password.withRevealedBytes { estimate(utf8: $0, userInputs: userInputs) }
    }

    /// Estimates the guesses for the UTF-8 password `bytes` (an ill-formed sequence counts as U+FFFD).
    public func estimate(utf8 bytes: UnsafeRawBufferPointer, userInputs: [String] = []) -> StrengthEstimate {
        let text = PasswordText(utf8: bytes, limit: Int.max)
        defer { text.wipe() }
        return estimate(text, userInputs: userInputs)
    }

    /// The estimate and, for display, the text of each match's token: for `mypass estimate -a`,
    /// where the user typed the password to see it analysed.
    public func estimateWithTokens(_ password: String, userInputs: [String] = []) -> (StrengthEstimate, [String]) {
        var bytes = Array(password.utf8)
        defer { wipe(&bytes) }
        let text = bytes.withUnsafeBytes { PasswordText(utf8: $0, limit: Int.max) }
        defer { text.wipe() }
        let result = estimate(text, userInputs: userInputs)
        return (result, result.sequence.map { text.string($0.range) })
    }

    func estimate(_ full: PasswordText, userInputs: [String]) -> StrengthEstimate {
        let length = full.count
        let analysed = length > Self.maximumAnalysedLength ? full.slice(0..<Self.maximumAnalysedLength) : full
        defer { if analysed !== full { analysed.wipe() } }
        let matcher = Matcher(configuration: configuration, userInputs: userInputs)
        var search = MinimumGuessSearch(text: analysed, candidates: matcher.omnimatch(analysed))
        var result = search.run()
        if length > analysed.count {
            // The rest is brute force: 10 guesses per scalar, as one more match (capped where a
            // double ends).
            let rest = length - analysed.count
            let extra = StrengthMatch(
                range: analysed.count..<length, pattern: .bruteforce, guesses: min(pow10(rest), StrengthEstimate.maximumGuesses))
            result.sequence.append(extra)
            result.guesses = min(result.guesses * extra.guesses, StrengthEstimate.maximumGuesses)
        }
        return StrengthEstimate(guesses: result.guesses, sequence: result.sequence, length: length)
    }
}
