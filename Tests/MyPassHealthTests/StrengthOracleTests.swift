import Foundation
import MyPassHealth
import MyPassTestSupport
import Testing

/// The estimator against Python's `zxcvbn` 4.5 (the zxcvbn 4.4 algorithm and lists; installed by
/// `.ci/run`), on the generated corpus: one Python run for all of it.
@Suite("Strength estimator against Python's zxcvbn")
struct StrengthOracleTests {
    /// The oracle: for each password of a JSON array on stdin, `[guesses_log10, score, patterns]`.
    static let oracleScript = """
        import json, sys
        from zxcvbn import zxcvbn
        out = []
        for password in json.load(sys.stdin):
            result = zxcvbn(password)
            out.append([float(result["guesses_log10"]), result["score"],
                        [m["pattern"] for m in result["sequence"]]])
        json.dump(out, sys.stdout)
        """

    /// How far our log10(guesses) may be from the oracle's and still agree: 1% of the oracle's
    /// value or 0.05, whichever is larger (a factor of 1.12 on guesses at the least).
    static func agrees(ours: Double, oracle: Double) -> Bool {
        abs(ours - oracle) <= max(0.05, abs(oracle) * 0.01)
    }

    /// zxcvbn's name of a match's pattern.
    static func zxcvbnName(_ match: StrengthMatch) -> String {
        switch match.pattern {
        case .dictionary: return "dictionary"
        case .spatial: return "spatial"
        case .repeated: return "repeat"
        case .sequence: return "sequence"
        case .recentYear: return "regex"
        case .date: return "date"
        case .bruteforce: return "bruteforce"
        }
    }

    @Test("at least 95% of 2,080 passwords agree with zxcvbn within tolerance, and the same score")
    func corpusAgreesWithPython() throws {
        guard let python = InteropTools.python(withModules: ["zxcvbn"]) else {
            if let message = InteropTools.missing("python3 with zxcvbn", test: "corpusAgreesWithPython") {
                Issue.record(Comment(rawValue: message))
            }
            return
        }
        // MYPASS_STRENGTH_SEED and MYPASS_STRENGTH_PER_CATEGORY run other and larger corpora by hand.
        let environment = ProcessInfo.processInfo.environment
        let categories = StrengthCorpus.make(
            perCategory: environment["MYPASS_STRENGTH_PER_CATEGORY"].flatMap(Int.init) ?? 260,
            seed: environment["MYPASS_STRENGTH_SEED"].flatMap(UInt64.init) ?? 0x6D79_7061_7373)
        let passwords = categories.flatMap(\.passwords)
        #expect(passwords.count >= 2_000)
        let input = try JSONSerialization.data(withJSONObject: passwords)
        let result = try InteropTools.runPython(python, Self.oracleScript, stdin: [UInt8](input))
        try #require(result.status == 0, "zxcvbn oracle: \(result.stderrText)")
        let oracle = try #require(try parseJSON(result.stdoutText) as? [[Any]])
        try #require(oracle.count == passwords.count)

        let estimator = PasswordStrength(configuration: .zxcvbn4)
        var agreeing = 0
        var exact = 0
        var samePatterns = 0
        var tieBreaks: [String] = []
        var disagreements: [String] = []
        var index = 0
        var perCategory: [String] = []
        for category in categories {
            var categoryAgreeing = 0
            for password in category.passwords {
                let ours = estimator.estimate(password)
                let theirs = oracle[index][0] as? Double ?? .nan
                let theirScore = oracle[index][1] as? Int ?? -1
                let theirPatterns = oracle[index][2] as? [String] ?? []
                if abs(ours.guessesLog10 - theirs) < 1e-9 { exact += 1 }
                if ours.sequence.map(Self.zxcvbnName) == theirPatterns {
                    samePatterns += 1
                } else {
                    tieBreaks.append("\(password.debugDescription): ours \(ours.sequence.map(Self.zxcvbnName)) zxcvbn \(theirPatterns)")
                }
                if Self.agrees(ours: ours.guessesLog10, oracle: theirs), ours.score == theirScore {
                    agreeing += 1
                    categoryAgreeing += 1
                } else {
                    let patterns = theirPatterns.joined(separator: ",")
                    let mine = ours.sequence.map(Self.zxcvbnName).joined(separator: ",")
                    disagreements.append("\(category.name): \(password.debugDescription) ours \(ours.guessesLog10) [\(mine)] zxcvbn \(theirs) [\(patterns)]")
                }
                index += 1
            }
            perCategory.append("\(category.name) \(categoryAgreeing)/\(category.passwords.count)")
        }
        if let path = environment["MYPASS_STRENGTH_DUMP"] {
            // For Tools/compare-keepassxc-estimate.py: category, password, our and zxcvbn's log10.
            var rows: [[Any]] = []
            var row = 0
            for category in categories {
                for password in category.passwords {
                    rows.append([category.name, password, estimator.estimate(password).guessesLog10, oracle[row][0]])
                    row += 1
                }
            }
            try JSONSerialization.data(withJSONObject: rows).write(to: URL(fileURLWithPath: path))
        }
        let share = Double(agreeing) / Double(passwords.count)
        print("strength corpus: \(agreeing)/\(passwords.count) agree (\(String(format: "%.2f", share * 100))%), \(exact) with the same guesses to 1e-9 in log10, \(samePatterns) with the same pattern sequence; " + perCategory.joined(separator: ", "))
        for line in disagreements.prefix(40) { print("  disagreement: \(line)") }
        for line in tieBreaks.prefix(20) { print("  other decomposition of the same cost: \(line)") }
        #expect(share >= 0.95, "only \(agreeing) of \(passwords.count) agree")
    }
}
