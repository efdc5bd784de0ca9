/// Sequences (zxcvbn 4 `sequence_match`): runs of scalars with a constant step of 1 to 5 up or
/// down (`abcd`, `9753`, Greek or Cyrillic letters too), and recent years (`regex_match`).
extension Matcher {
    /// The largest step between neighbours of a sequence.
    private static let maximumDelta = 5

    func sequenceMatches(_ text: PasswordText, into out: inout [StrengthMatch]) {
        let password = text.scalars
        guard password.count > 1 else { return }
        func add(_ i: Int, _ j: Int, _ delta: Int) {
            guard j - i > 1 || abs(delta) == 1, abs(delta) > 0, abs(delta) <= Self.maximumDelta else { return }
            let token = password[i...j]
            let kind: StrengthMatch.SequenceKind
            if token.allSatisfy(PasswordText.isASCIILower) {
                kind = .lowercase
            } else if token.allSatisfy(PasswordText.isASCIIUpper) {
                kind = .uppercase
            } else if token.allSatisfy({ PasswordText.digitValue($0) != nil }) {
                kind = .digits
            } else {
                kind = .unicode
            }
            let pattern = StrengthMatch.Pattern.sequence(kind: kind, ascending: delta > 0)
            out.append(match(i..<j + 1, pattern, guesses: Self.sequenceGuesses(first: token.first!, length: token.count, ascending: delta > 0), in: text))
        }
        var i = 0
        var lastDelta: Int?
        for k in 1..<password.count {
            let delta = Int(password[k]) - Int(password[k - 1])
            if lastDelta == nil { lastDelta = delta }
            if delta == lastDelta { continue }
            let j = k - 1
            add(i, j, lastDelta!)
            i = j
            lastDelta = delta
        }
        add(i, password.count - 1, lastDelta!)
    }

    /// zxcvbn 4 `sequence_guesses`: 4 for an obvious start (a, z, 0, 1, 9 and capitals), 10 for
    /// another digit, else 26; doubled when descending; times the length.
    static func sequenceGuesses(first: UInt32, length: Int, ascending: Bool) -> Double {
        var base: Double
        if "aAzZ019".unicodeScalars.contains(where: { $0.value == first }) {
            base = 4
        } else if PasswordText.digitValue(first) != nil {
            base = 10
        } else {
            base = 26
        }
        if !ascending { base *= 2 }
        return base * Double(length)
    }

    /// Recent years: four digits forming a year of ``PasswordStrength/Configuration/recentYears``,
    /// found left to right without overlap (zxcvbn's `19\d\d|200\d|201\d`), each costing its
    /// distance to the reference year, at least 20.
    func recentYearMatches(_ text: PasswordText, into out: inout [StrengthMatch]) {
        let password = text.scalars
        var i = 0
        while i + 4 <= password.count {
            var year = 0
            var isYear = true
            for k in i..<i + 4 {
                guard let digit = PasswordText.digitValue(password[k]) else {
                    isYear = false
                    break
                }
                year = year * 10 + digit
            }
            if isYear, configuration.recentYears.contains(year) {
                let guesses = Double(max(abs(year - configuration.referenceYear), DateRules.minimumYearSpace))
                out.append(match(i..<i + 4, .recentYear, guesses: guesses, in: text))
                i += 4
            } else {
                i += 1
            }
        }
    }
}
