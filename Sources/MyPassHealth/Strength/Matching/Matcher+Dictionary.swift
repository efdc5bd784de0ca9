/// Dictionary matches: every slice of the password that is a word of a frequency list, as
/// written (case-insensitively), reversed, or after l33t substitutions (zxcvbn 4
/// `dictionary_match`, `reverse_dictionary_match`, `l33t_match`).
extension Matcher {
    /// zxcvbn's l33t table: a letter and the characters that stand for it, in its order.
    static let l33tTable: [(letter: UInt32, substitutes: [UInt32])] = [
        ("a", "4@"), ("b", "8"), ("c", "({[<"), ("e", "3"), ("g", "69"), ("i", "1!|"), ("l", "1|7"),
        ("o", "0"), ("s", "$5"), ("t", "+7"), ("x", "%"), ("z", "2"),
    ].map { (Unicode.Scalar($0.0)!.value, $0.1.unicodeScalars.map(\.value)) }

    /// A word found in `text.lowered` at `range`, with its list and rank.
    private func forEachWord(in text: PasswordText, _ body: (Range<Int>, FrequencyList, Int) -> Void) {
        let n = text.count
        let longest = max(lists.maximumWordLength, userInputs.reduce(0) { max($0, $1.count) })
        text.lowered.withUnsafeBufferPointer { lowered in
            // zxcvbn's order: each list in turn, then start, then end.
            var fromLists: [(Range<Int>, FrequencyList, Int)] = []
            var fromInputs: [(Range<Int>, FrequencyList, Int)] = []
            for i in 0..<n {
                for j in i..<min(n, i + longest) {
                    let slice = lowered[i...j]
                    if let (list, rank) = lists.rank(of: slice) {
                        fromLists.append((i..<j + 1, list, rank))
                    }
                    for (index, word) in userInputs.enumerated() where word.elementsEqual(slice) {
                        // zxcvbn ranks a repeated input by its last position.
                        if !userInputs[(index + 1)...].contains(word) {
                            fromInputs.append((i..<j + 1, .userInputs, index + 1))
                        }
                    }
                }
            }
            // Grouped by list as zxcvbn generates them; the caller's stable sort by position
            // then puts, for one slice, the lists in their order.
            for list in FrequencyLists.order + [.userInputs] {
                for item in fromLists + fromInputs where item.1 == list { body(item.0, item.1, item.2) }
            }
        }
    }

    func dictionaryMatches(_ text: PasswordText, into out: inout [StrengthMatch]) {
        forEachWord(in: text) { range, list, rank in
            out.append(dictionaryMatch(range, list: list, rank: rank, reversed: false, substitutions: [], in: text))
        }
    }

    func reversedDictionaryMatches(_ text: PasswordText, into out: inout [StrengthMatch]) {
        let reversed = text.reversed()
        defer { reversed.wipe() }
        let n = text.count
        forEachWord(in: reversed) { range, list, rank in
            let original = (n - range.upperBound)..<(n - range.lowerBound)
            out.append(dictionaryMatch(original, list: list, rank: rank, reversed: true, substitutions: [], in: text))
        }
    }

    func l33tMatches(_ text: PasswordText, into out: inout [StrengthMatch]) {
        for substitution in Self.l33tSubstitutions(for: text) {
            let translated = text.substituting(substitution)
            defer { translated.wipe() }
            forEachWord(in: translated) { range, list, rank in
                // Only slices with a real substitution: the plain word is a dictionary match already.
                guard range.count > 1, !text.lowered[range].elementsEqual(translated.lowered[range]) else { return }
                let used = substitution.filter { pair in text.scalars[range].contains(pair.from) }
                out.append(dictionaryMatch(range, list: list, rank: rank, reversed: false, substitutions: used, in: text))
            }
        }
    }

    /// The ways to read the l33t characters present in `text` (zxcvbn 4 `enumerate_l33t_subs` over
    /// the relevant subtable): each a full assignment of every such character to one of its
    /// letters, in zxcvbn's order. None when `text` has no l33t character.
    static func l33tSubstitutions(for text: PasswordText) -> [[(from: UInt32, to: UInt32)]] {
        // (No set of the password's characters: nothing derived from it outlives the estimate.)
        let table = l33tTable.compactMap { entry -> (UInt32, [UInt32])? in
            let relevant = entry.substitutes.filter(text.scalars.contains)
            return relevant.isEmpty ? nil : (entry.letter, relevant)
        }
        guard !table.isEmpty else { return [] }
        var assignments: [[(from: UInt32, to: UInt32)]] = [[]]
        for (letter, substitutes) in table {
            var next: [[(from: UInt32, to: UInt32)]] = []
            for substitute in substitutes {
                for assignment in assignments {
                    if let taken = assignment.firstIndex(where: { $0.from == substitute }) {
                        // The character already stands for another letter: keep that reading and
                        // add the one where it stands for this letter.
                        var alternative = assignment
                        alternative.remove(at: taken)
                        alternative.append((substitute, letter))
                        next.append(assignment)
                        next.append(alternative)
                    } else {
                        next.append(assignment + [(substitute, letter)])
                    }
                }
            }
            // Drop assignments equal as sets (the first one stays).
            var seen = Set<[UInt64]>()
            assignments = next.filter { assignment in
                seen.insert(assignment.map { UInt64($0.to) << 32 | UInt64($0.from) }.sorted()).inserted
            }
        }
        return assignments
    }

    /// A dictionary match with zxcvbn's guesses: rank x capitalisation x l33t x 2 if reversed.
    private func dictionaryMatch(
        _ range: Range<Int>, list: FrequencyList, rank: Int, reversed: Bool,
        substitutions: [(from: UInt32, to: UInt32)], in text: PasswordText
    ) -> StrengthMatch {
        let uppercase = Self.uppercaseVariations(text.scalars[range])
        let l33t = substitutions.isEmpty ? 1 : Self.l33tVariations(text.lowered[range], substitutions)
        let word = StrengthMatch.DictionaryWord(
            list: list, rank: rank, isReversed: reversed, isL33t: !substitutions.isEmpty,
            uppercaseVariations: uppercase, l33tVariations: l33t)
        let guesses = Double(rank) * uppercase * l33t * (reversed ? 2 : 1)
        return match(range, .dictionary(word), guesses: guesses, in: text)
    }

    /// The capitalisations an attacker tries for `token` (zxcvbn 4 `uppercase_variations`): 1 when
    /// it has no upper case, 2 for a capital first or last letter or all capitals, else the number
    /// of ways to place up to min(U, L) capitals among its cased letters.
    static func uppercaseVariations(_ token: ArraySlice<UInt32>) -> Double {
        // Counted without collecting the characters (no copy of the password's letters).
        let asciiUpper = token.reduce(0) { $0 + (PasswordText.isASCIIUpper($1) ? 1 : 0) }
        if asciiUpper == 0 || token.allSatisfy({ PasswordText.lowercase($0) == $0 }) { return 1 }
        if let first = token.first, let last = token.last, token.count >= 2 {
            if PasswordText.isASCIIUpper(first), asciiUpper == 1 { return 2 }  // Start capital
            if PasswordText.isASCIIUpper(last), asciiUpper == 1 { return 2 }  // End capital
        }
        if !token.contains(where: PasswordText.isASCIILower) { return 2 }  // All capitals
        let upper = token.reduce(0) { $0 + (PasswordText.isUpper($1) ? 1 : 0) }
        let lower = token.reduce(0) { $0 + (PasswordText.isLower($1) ? 1 : 0) }
        var variations = 0.0
        if min(upper, lower) >= 1 {
            for i in 1...min(upper, lower) { variations += binomial(upper + lower, i) }
        }
        return variations
    }

    /// The l33t readings an attacker tries (zxcvbn 4 `l33t_variations`): per substitution used,
    /// 2 when every such letter is substituted (or none), else the ways to substitute up to
    /// min(S, U) of them.
    static func l33tVariations(_ lowered: ArraySlice<UInt32>, _ substitutions: [(from: UInt32, to: UInt32)]) -> Double {
        var variations = 1.0
        for (substitute, letter) in substitutions {
            let s = lowered.reduce(0) { $0 + ($1 == substitute ? 1 : 0) }
            let u = lowered.reduce(0) { $0 + ($1 == letter ? 1 : 0) }
            if s == 0 || u == 0 {
                variations *= 2
            } else {
                var possibilities = 0.0
                for i in 1...min(u, s) { possibilities += binomial(u + s, i) }
                variations *= possibilities
            }
        }
        return variations
    }
}
