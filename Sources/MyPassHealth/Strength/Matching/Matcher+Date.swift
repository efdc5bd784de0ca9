/// zxcvbn 4's rules for reading three numbers as a date.
enum DateRules {
    static let minimumYear = 1000
    static let maximumYear = 2050
    /// A year close to the reference year still costs this many (zxcvbn `MIN_YEAR_SPACE`).
    static let minimumYearSpace = 20

    /// The ways to cut 4 to 8 digits into three numbers: the second and third number's offsets.
    static let splits: [Int: [(Int, Int)]] = [
        4: [(1, 2), (2, 3)],  // 1 1 91, 91 1 1
        5: [(1, 3), (2, 3)],  // 1 11 91, 11 1 91
        6: [(1, 2), (2, 4), (4, 5)],  // 1 1 1991, 11 11 91, 1991 1 1
        7: [(1, 3), (2, 3), (4, 5), (4, 6)],  // 1 11 1991, 11 1 1991, 1991 1 11, 1991 11 1
        8: [(2, 4), (4, 6)],  // 11 11 1991, 1991 11 11
    ]

    /// Three numbers as (year, month, day), or nil (zxcvbn 4 `map_ints_to_dmy`): the middle one is
    /// never a year; a four-digit year comes first or last; else a two-digit year does (87 is
    /// 1987, 15 is 2015).
    static func date(_ numbers: [Int]) -> (year: Int, month: Int, day: Int)? {
        if numbers[1] > 31 || numbers[1] <= 0 { return nil }
        var over12 = 0, over31 = 0, under1 = 0
        for number in numbers {
            if (99 < number && number < minimumYear) || number > maximumYear { return nil }
            if number > 31 { over31 += 1 }
            if number > 12 { over12 += 1 }
            if number <= 0 { under1 += 1 }
        }
        if over31 >= 2 || over12 == 3 || under1 >= 2 { return nil }
        let candidates = [(numbers[2], [numbers[0], numbers[1]]), (numbers[0], [numbers[1], numbers[2]])]
        for (year, rest) in candidates where minimumYear <= year && year <= maximumYear {
            // A four-digit year whose other two numbers are no day and month: not a date.
            guard let (day, month) = dayMonth(rest) else { return nil }
            return (year, month, day)
        }
        for (year, rest) in candidates {
            if let (day, month) = dayMonth(rest) { return (twoDigitYear(year), month, day) }
        }
        return nil
    }

    private static func dayMonth(_ pair: [Int]) -> (day: Int, month: Int)? {
        for (day, month) in [(pair[0], pair[1]), (pair[1], pair[0])] where (1...31).contains(day) && (1...12).contains(month) {
            return (day, month)
        }
        return nil
    }

    private static func twoDigitYear(_ year: Int) -> Int {
        if year > 99 { return year }
        return year > 50 ? year + 1900 : year + 2000
    }
}

/// Dates (zxcvbn 4 `date_match`): 4 to 8 digits, or 6 to 10 characters of three numbers with the
/// same separator twice (`1.1.91`, `11/11/1991`), read as a day, month and year; a date inside a
/// longer one is dropped.
extension Matcher {
    private static func isSeparator(_ value: UInt32) -> Bool {
        PasswordText.isSpace(value) || "/\\_.-".unicodeScalars.contains { $0.value == value }
    }

    func dateMatches(_ text: PasswordText, into out: inout [StrengthMatch]) {
        let password = text.scalars
        let n = password.count
        var found: [(range: Range<Int>, year: Int, month: Int, day: Int, separated: Bool)] = []
        // Without separators: 4 to 8 digits.
        if n >= 4 {
            for i in 0..<(n - 3) {
                for j in (i + 3)..<(i + 8) where j < n {
                    guard password[i...j].allSatisfy({ PasswordText.digitValue($0) != nil }) else { continue }
                    func number(_ range: Range<Int>) -> Int {
                        password[(i + range.lowerBound)..<(i + range.upperBound)].reduce(0) { $0 * 10 + PasswordText.digitValue($1)! }
                    }
                    let count = j - i + 1
                    var best: (year: Int, month: Int, day: Int)?
                    var bestDistance = Int.max
                    for (k, l) in DateRules.splits[count]! {
                        guard let date = DateRules.date([number(0..<k), number(k..<l), number(l..<count)]) else { continue }
                        // Of several readings, the year closest to the reference year.
                        let distance = abs(date.year - configuration.referenceYear)
                        if best == nil || distance < bestDistance {
                            best = date
                            bestDistance = distance
                        }
                    }
                    guard let best else { continue }
                    found.append((i..<j + 1, best.year, best.month, best.day, false))
                }
            }
        }
        // With separators: 6 to 10 characters, digits (1-4), separator, digits (1-2), the same
        // separator, digits (1-4).
        if n >= 6 {
            for i in 0..<(n - 5) {
                for j in (i + 5)..<(i + 10) where j < n {
                    let token = password[i...j]
                    guard let parts = Self.separatedNumbers(token),
                          let date = DateRules.date(parts)
                    else { continue }
                    found.append((i..<j + 1, date.year, date.month, date.day, true))
                }
            }
        }
        // Drop dates inside other dates (2015_06_04 also holds 15_06_04, 5_06_04...).
        for (index, date) in found.enumerated() {
            let inside = found.indices.contains { other in
                other != index && found[other].range.lowerBound <= date.range.lowerBound
                    && found[other].range.upperBound >= date.range.upperBound
            }
            guard !inside else { continue }
            let yearSpace = max(abs(date.year - configuration.referenceYear), DateRules.minimumYearSpace)
            let guesses = Double(yearSpace * 365 * (date.separated ? 4 : 1))
            let pattern = StrengthMatch.Pattern.date(year: date.year, month: date.month, day: date.day, hasSeparator: date.separated)
            out.append(match(date.range, pattern, guesses: guesses, in: text))
        }
    }

    /// The three numbers of `1.1.91`-shaped `token`, or nil.
    private static func separatedNumbers(_ token: ArraySlice<UInt32>) -> [Int]? {
        var numbers: [Int] = [0]
        var runs: [Int] = [0]
        var separator: UInt32?
        for value in token {
            if let digit = PasswordText.digitValue(value) {
                numbers[numbers.count - 1] = numbers[numbers.count - 1] * 10 + digit
                runs[runs.count - 1] += 1
            } else if isSeparator(value), separator == nil || separator == value, numbers.count < 3 {
                separator = value
                numbers.append(0)
                runs.append(0)
            } else {
                return nil
            }
        }
        guard numbers.count == 3, (1...4).contains(runs[0]), (1...2).contains(runs[1]), (1...4).contains(runs[2]) else {
            return nil
        }
        return numbers
    }
}
