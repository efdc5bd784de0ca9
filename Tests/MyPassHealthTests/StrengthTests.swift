import Foundation
import MyPassBytes
import MyPassCrypto
import MyPassHealth
import MyPassTestSupport
import Testing

/// The estimator's parts on known answers: the embedded lists, the keyboard graphs, and passwords
/// whose zxcvbn 4.4 estimate Python's `zxcvbn` 4.5.0 printed (so these run without Python).
@Suite("Strength estimator")
struct StrengthTests {
    @Test("the embedded frequency lists are zxcvbn's: counts, SHA-256 of the text, and Python's lists word for word")
    func embeddedLists() throws {
        let text = try FrequencyLists.embeddedText()
        #expect(text.count == 792_784)
        // Vectors/strength/PROVENANCE.md records this hash.
        #expect(hexString(SHA256.hash(text)) == "af8811cfd6e1b1db3d5c0a6ab8e0b5913b0726a900bc6e63b683593318f32b8b")
        let lists = FrequencyLists.shared
        #expect(lists.wordCounts == [30_000, 30_000, 3_712, 10_000, 19_160, 983])
        #expect(lists.words(of: .passwords).prefix(4) == ["123456", "password", "12345678", "qwerty"])
        #expect(lists.maximumWordLength == 23)
        guard let python = InteropTools.python(withModules: ["zxcvbn"]) else {
            if let message = InteropTools.missing("python3 with zxcvbn", test: "embeddedLists") { Issue.record(Comment(rawValue: message)) }
            return
        }
        let script = "import json; from zxcvbn.frequency_lists import FREQUENCY_LISTS as F; print(json.dumps(F))"
        let result = try InteropTools.runPython(python, script)
        let oracle = try #require(try parseJSON(result.stdoutText) as? [String: [String]])
        for list in FrequencyLists.order {
            #expect(lists.words(of: list) == oracle[list.rawValue], "\(list)")
        }
    }

    @Test("keyboard graphs have zxcvbn's starting positions and average degrees")
    func keyboardGraphs() {
        let qwerty = KeyboardGraph.graph(.qwerty), dvorak = KeyboardGraph.graph(.dvorak)
        let keypad = KeyboardGraph.graph(.keypad), mac = KeyboardGraph.graph(.macKeypad)
        #expect(qwerty.startingPositions == 94 && dvorak.startingPositions == 94)
        #expect(keypad.startingPositions == 15 && mac.startingPositions == 16)
        #expect(abs(qwerty.averageDegree - 4.595744680851064) < 1e-12)
        #expect(abs(dvorak.averageDegree - 4.595744680851064) < 1e-12)
        #expect(abs(keypad.averageDegree - 5.066666666666666) < 1e-12)
        #expect(abs(mac.averageDegree - 5.25) < 1e-12)
        // `a` on qwerty: left none, q, w, s, z, lower-left none (zxcvbn's order of directions).
        let around = qwerty.neighbours(of: UInt32(UInt8(ascii: "a")))!.map { $0.map { String(decoding: $0.map { UInt8($0) }, as: UTF8.self) } }
        #expect(around == [nil, "qQ", "wW", "sS", "zZ", nil])
        let five = keypad.neighbours(of: UInt32(UInt8(ascii: "5")))!.map { $0.map { String(decoding: $0.map { UInt8($0) }, as: UTF8.self) } }
        #expect(five == ["4", "7", "8", "9", "6", "3", "2", "1"])
    }

    /// Python zxcvbn 4.5.0: guesses and pattern names.
    static let knownAnswers: [(String, Double, [String])] = [
        ("zxcvbn", 58, ["dictionary"]),
        ("qwER43@!", 90470621.03078316, ["spatial"]),
        ("Tr0ub4dour&3", 19058000, ["dictionary", "bruteforce"]),
        ("correcthorsebatterystaple", 273500327700640, ["dictionary", "dictionary", "dictionary", "dictionary"]),
        ("coRrecth0rseba++ery9.23.2007staple$", 5.150562665106304e+20, ["dictionary", "dictionary", "dictionary", "date", "dictionary"]),
        ("p@$$word", 9, ["dictionary"]),
        ("zxcvbnm,./", 3889.0000000000005, ["spatial"]),
        ("temppass22", 387500, ["dictionary", "repeat"]),
        ("briansmith4mayor", 15100000000, ["dictionary", "dictionary", "bruteforce"]),
        ("do you know", 1000010000, ["bruteforce", "dictionary"]),
        ("ryanhunter2000", 100750000, ["dictionary", "dictionary", "regex"]),
        ("asdfghju7654rewq", 923189026.4430684, ["spatial"]),
        ("AOEUIDHG&*()LS_", 1280140890.9735801, ["spatial"]),
        ("defghi6789", 25600, ["sequence", "sequence"]),
        ("R0$38uD99", 1310800, ["dictionary", "repeat"]),
        ("verlineVANDERMARK", 24500856400, ["dictionary", "dictionary", "dictionary"]),
        ("eheuczkqyq", 10000000001, ["bruteforce"]),
        ("Пароль87", 100000001, ["bruteforce"]),
        ("αβγδε23", 23000, ["sequence", "sequence"]),
        ("9753", 33, ["sequence"]),
        ("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 529, ["repeat"]),
        ("aabaab", 2003, ["repeat"]),
        ("1/1/91", 37961, ["date"]),
        ("2015_06_04", 29201, ["date"]),
        ("2015", 21, ["regex"]),
        ("2023", 7301, ["date"]),
        ("a", 12, ["bruteforce"]),
    ]

    @Test("known answers of zxcvbn 4.4", arguments: knownAnswers.indices)
    func knownAnswer(_ index: Int) {
        let (password, guesses, patterns) = Self.knownAnswers[index]
        let estimate = PasswordStrength(configuration: .zxcvbn4).estimate(password)
        #expect(abs(estimate.guessesLog10 - log10(guesses)) < 1e-9, "\(password): \(estimate.guesses) instead of \(guesses)")
        #expect(estimate.sequence.map(StrengthOracleTests.zxcvbnName) == patterns, "\(password)")
        #expect(estimate.score == StrengthEstimate.score(forGuesses: guesses))
        // The decomposition covers the password without gaps.
        var next = 0
        for match in estimate.sequence {
            #expect(match.range.lowerBound == next)
            next = match.range.upperBound
        }
        #expect(next == password.unicodeScalars.count)
    }

    @Test("an empty password needs one guess; a protected password gives the same estimate as its text")
    func emptyAndProtected() {
        let estimator = PasswordStrength(configuration: .zxcvbn4)
        let empty = estimator.estimate("")
        #expect(empty.guesses == 1 && empty.sequence.isEmpty && empty.score == 0 && empty.entropyBits == 0)
        let protected = estimator.estimate(ProtectedString("Tr0ub4dour&3"))
        #expect(protected == estimator.estimate("Tr0ub4dour&3"))
    }

    @Test("years measured from the current year: 2023 is a recent year, not a date")
    func currentYear() {
        let estimate = PasswordStrength(configuration: .current(year: 2026)).estimate("2023")
        #expect(estimate.sequence.map(\.pattern) == [.recentYear])
        #expect(estimate.guesses == 21)
        // 1990: 36 years before 2026 instead of 27 before 2017.
        #expect(PasswordStrength(configuration: .current(year: 2026)).estimate("1990").guesses == 37)
    }

    @Test("past the analysed prefix each scalar is a factor of 10, and a long password stays fast")
    func longPassword() {
        let estimator = PasswordStrength(configuration: .zxcvbn4)
        let prefix = String(repeating: "password", count: 12) + "pass"  // 100 scalars
        let head = estimator.estimate(prefix)
        let long = estimator.estimate(prefix + "xyz")
        #expect(abs(long.guessesLog10 - (head.guessesLog10 + 3)) < 1e-9)
        #expect(long.sequence.last?.pattern == .bruteforce && long.sequence.last?.range == 100..<103)
        #expect(long.length == 103)
        // A hostile length: 100 KB of one character takes a bounded time and gives a finite answer.
        let huge = estimator.estimate(String(repeating: "x", count: 100_000))
        #expect(huge.guesses.isFinite && huge.score == 4)
    }
}
