/// Repeats (zxcvbn 4 `repeat_match`): a token written twice or more in a row (`aaa`, `abcabc`),
/// scored as its base token's own estimate times the repeat count.
///
/// zxcvbn finds them with the expressions `(.+)\1+` (greedy) and `(.+?)\1+` (lazy) searched left
/// to right; this is the same search without a regular expression engine: at the leftmost start
/// where any base repeats, the greedy reading takes the longest base, the lazy one the shortest,
/// and both repeat it as often as it goes on. As `.` there, a base never holds a line feed.
extension Matcher {
    func repeatMatches(_ text: PasswordText, into out: inout [StrengthMatch]) {
        let password = text.scalars
        let n = password.count
        var start = 0
        while start < n {
            guard let (position, greedy, lazy) = Self.firstRepeat(in: password, from: start) else { break }
            let match: (base: Int, length: Int)
            if greedy.base * greedy.count > lazy.base * lazy.count {
                // `aabaab`: greedy reads aab x 2, lazy a x 2; the greedy token wins, with its
                // shortest period as base (aabaabaabaab is aab x 4, not aabaab x 2).
                let length = greedy.base * greedy.count
                match = (Self.shortestPeriod(password[position..<position + length]), length)
            } else {
                match = (lazy.base, lazy.base * lazy.count)
            }
            let base = text.slice(position..<position + match.base)
            defer { base.wipe() }
            var search = MinimumGuessSearch(text: base, candidates: omnimatch(base))
            let baseResult = search.run()
            let count = match.length / match.base
            let pattern = StrengthMatch.Pattern.repeated(
                baseLength: match.base, repeatCount: count, baseGuesses: baseResult.guesses, base: baseResult.sequence)
            out.append(self.match(position..<position + match.length, pattern, guesses: baseResult.guesses * Double(count), in: text))
            start = position + match.length
        }
    }

    /// The leftmost position at or after `start` where some base repeats, with the longest and the
    /// shortest such base and how many times each repeats there; nil when nothing repeats.
    private static func firstRepeat(in password: [UInt32], from start: Int)
        -> (Int, greedy: (base: Int, count: Int), lazy: (base: Int, count: Int))?
    {
        let n = password.count
        for position in start..<n {
            // The base may not cross a line feed (`.` does not match one).
            var lineEnd = position
            while lineEnd < n, password[lineEnd] != 0x0A { lineEnd += 1 }
            let longest = (lineEnd - position) / 2
            guard longest >= 1 else { continue }
            var shortest: Int?
            var greatest: Int?
            for base in 1...longest where repeatsOnce(password, at: position, base: base) {
                if shortest == nil { shortest = base }
                greatest = base
            }
            guard let shortest, let greatest else { continue }
            return (position,
                    (greatest, repeatCount(password, at: position, base: greatest, end: lineEnd)),
                    (shortest, repeatCount(password, at: position, base: shortest, end: lineEnd)))
        }
        return nil
    }

    /// Whether the `base` scalars at `position` are followed by the same scalars.
    private static func repeatsOnce(_ password: [UInt32], at position: Int, base: Int) -> Bool {
        for offset in 0..<base where password[position + offset] != password[position + base + offset] { return false }
        return true
    }

    /// How many times the base at `position` occurs in a row before `end` (at least 2 here).
    private static func repeatCount(_ password: [UInt32], at position: Int, base: Int, end: Int) -> Int {
        var count = 1
        while position + (count + 1) * base <= end {
            let copy = position + count * base
            var same = true
            for offset in 0..<base where password[copy + offset] != password[position + offset] {
                same = false
                break
            }
            guard same else { break }
            count += 1
        }
        return count
    }

    /// The shortest base that `token` is two or more copies of (`^(.+?)\1+$`).
    private static func shortestPeriod(_ token: ArraySlice<UInt32>) -> Int {
        let length = token.count
        let first = token.startIndex
        for base in 1...max(1, length / 2) where length % base == 0 {
            var periodic = true
            for offset in base..<length where token[first + offset] != token[first + offset - base] {
                periodic = false
                break
            }
            if periodic { return base }
        }
        return length
    }
}
