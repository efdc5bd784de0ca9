/// The cheapest decomposition of a password into matches (zxcvbn 4
/// `most_guessable_match_sequence`): a dynamic program over prefixes that, for a sequence of
/// `l` matches, minimises `l! x product(guesses) + 10000^(l-1)` (the orders of the patterns,
/// and the shorter sequences an attacker tries first), filling gaps with brute-force matches.
///
/// For each prefix end `k` and each length `l` it keeps the best sequence only while no shorter
/// one covering the same prefix is as good, so it runs in O(l_max x (n + m)) for n scalars and
/// m candidate matches, l_max rarely above 5.
struct MinimumGuessSearch {
    /// The additive term's base (zxcvbn `MIN_GUESSES_BEFORE_GROWING_SEQUENCE`).
    static let minimumGuessesBeforeGrowingSequence = 10_000.0

    private let length: Int
    /// Every match: the candidates, then brute-force matches as the search makes them.
    private var matches: [StrengthMatch]
    /// Candidate indices by the offset of their last scalar, in candidate order.
    private var candidatesByEnd: [[Int]]
    /// Per prefix end: the best sequence of each length found, in the order first found.
    private var optimal: [[Step]]

    private struct Step {
        var length: Int
        /// The overall metric of the sequence.
        var cost: Double
        /// The product of its matches' guesses.
        var product: Double
        /// Its last match.
        var match: Int
    }

    init(text: PasswordText, candidates: [StrengthMatch]) {
        length = text.count
        matches = candidates
        var byEnd = [[Int]](repeating: [], count: text.count)
        for (index, candidate) in candidates.enumerated() {
            byEnd[candidate.range.upperBound - 1].append(index)
        }
        // By start, keeping the candidates' order among equal starts.
        for k in byEnd.indices {
            byEnd[k] = byEnd[k].enumerated().sorted {
                let a = candidates[$0.element].range.lowerBound, b = candidates[$1.element].range.lowerBound
                return a != b ? a < b : $0.offset < $1.offset
            }.map(\.element)
        }
        candidatesByEnd = byEnd
        optimal = [[Step]](repeating: [], count: text.count)
    }

    /// Runs the search: the guesses (1 for an empty password) and the cheapest sequence.
    mutating func run() -> (guesses: Double, sequence: [StrengthMatch]) {
        guard length > 0 else { return (1, []) }
        for k in 0..<length {
            for index in candidatesByEnd[k] {
                let start = matches[index].range.lowerBound
                if start > 0 {
                    for step in optimal[start - 1] { update(index, length: step.length + 1) }
                } else {
                    update(index, length: 1)
                }
            }
            bruteforceUpdate(k)
        }
        // Unwind from the end: the length with the lowest cost, the shorter among equals.
        var best = optimal[length - 1][0]
        for step in optimal[length - 1].dropFirst()
        where Self.isLess(step.cost, best.cost) || (!Self.isLess(best.cost, step.cost) && step.length < best.length) {
            best = step
        }
        var sequence: [StrengthMatch] = []
        var k = length - 1
        var l = best.length
        while k >= 0 {
            let step = optimal[k].first { $0.length == l }!
            let match = matches[step.match]
            sequence.append(match)
            k = match.range.lowerBound - 1
            l -= 1
        }
        return (best.cost, sequence.reversed())
    }

    /// Considers the sequence of `length` matches ending with `index`, keeping it when no sequence
    /// of that length or shorter covering the same prefix costs as little.
    private mutating func update(_ index: Int, length l: Int) {
        let match = matches[index]
        let k = match.range.upperBound - 1
        var product = match.guesses
        if l > 1 {
            product *= optimal[match.range.lowerBound - 1].first { $0.length == l - 1 }!.product
        }
        var cost = factorial(l) * product
        cost += power(Self.minimumGuessesBeforeGrowingSequence, l - 1)
        for step in optimal[k] where step.length <= l && !Self.isLess(cost, step.cost) { return }
        let step = Step(length: l, cost: cost, product: product, match: index)
        if let existing = optimal[k].firstIndex(where: { $0.length == l }) {
            optimal[k][existing] = step
        } else {
            optimal[k].append(step)
        }
    }

    /// Whether cost `a` is below `b` by more than rounding. zxcvbn computes in exact decimals,
    /// where a longer sequence with the same product costs `10000^(l-1)` more; in doubles that
    /// term rounds away above 10^20, and products of the same value round differently by an ulp.
    /// Costs within 10^-12 of each other are equal here, and equal costs keep the shorter sequence.
    private static func isLess(_ a: Double, _ b: Double) -> Bool {
        a < b - abs(b) * 1e-12
    }

    /// Brute-force matches ending at `k`: one over the whole prefix, and one from each `i` after a
    /// sequence that does not already end in brute force.
    private mutating func bruteforceUpdate(_ k: Int) {
        update(bruteforce(0...k), length: 1)
        if k >= 1 {
            for i in 1...k {
                let index = bruteforce(i...k)
                for step in optimal[i - 1] where matches[step.match].pattern != .bruteforce {
                    update(index, length: step.length + 1)
                }
            }
        }
    }

    /// A new brute-force match over `range`: 10 guesses per scalar, and more than a non-brute-force
    /// match of the same span may cost (11 for one scalar, 51 for more; zxcvbn
    /// `bruteforce_guesses`), so that any pattern takes precedence.
    private mutating func bruteforce(_ range: ClosedRange<Int>) -> Int {
        let count = range.count
        var guesses = max(pow10(count), count == 1 ? 11 : 51)
        if count < length { guesses = max(guesses, count == 1 ? 10 : 50) }
        matches.append(StrengthMatch(range: range.lowerBound..<range.upperBound + 1, pattern: .bruteforce, guesses: guesses))
        return matches.count - 1
    }
}
