import MyPassBytes
import MyPassHealth

/// `mypass estimate [PASSWORD] [-a] [--reference-year YEAR] [--json]`: a password's strength, as
/// `keepassxc-cli estimate [-a]` prints it (`Length`, `Entropy` in bits, `Log10` of the guesses);
/// with `-a` the score and each pattern of the decomposition. Without PASSWORD it is read from the
/// terminal without echo, or from the first line of standard input.
enum EstimateCommand {
    static func run(_ parsed: ParsedArguments) throws {
        let year = try parsed.integer("reference-year", in: 1000...9999) ?? currentTime().components.year
        let estimator = PasswordStrength(configuration: .current(year: year))
        let password = try parsed.positional("password").map { ProtectedString($0) }
            ?? SecretReader.readSecret(prompt: "Password to estimate: ")
        // The tokens (pieces of the password) are made with -a only; the estimate holds no text.
        let advanced = parsed.flag("advanced")
        let (estimate, tokens) = advanced
            ? password.withRevealedBytes { estimator.estimateWithTokens(String(decoding: $0, as: UTF8.self)) }
            : (estimator.estimate(password), [])
        if parsed.flag("json") {
            Console.line(json(estimate, tokens: advanced ? tokens : nil).prettyPrinted)
            return
        }
        var out = "Length \(estimate.length)\tEntropy \(fixed(estimate.entropyBits, 3))\tLog10 \(fixed(estimate.guessesLog10, 3))\n"
        if advanced {
            out += "  Score \(estimate.score) (\(StrengthEstimate.scoreName(estimate.score)))\n"
            out += "  Sequence extra bits \(fixed(estimate.sequenceExtraBits, 1))\n"
            for (match, token) in zip(estimate.sequence, tokens) {
                let type = ("Type: " + typeName(match)).padding(toLength: 22, withPad: " ", startingAt: 0)
                let bits = fixed(match.entropyBits, 3)
                var line = "  \(type) Length \(match.range.count)\t"
                line += "Entropy \(String(repeating: " ", count: max(0, 6 - bits.count)))\(bits) (\(fixed(match.guessesLog10, 2)))\t"
                line += Text.oneLine(token)
                if let note = note(match) { line += "\t(\(note))" }
                out += line + "\n"
            }
        }
        Console.out(out)
    }

    /// zxcvbn-c's names of the pattern kinds, as `keepassxc-cli estimate -a` prints them.
    static func typeName(_ match: StrengthMatch) -> String {
        switch match.pattern {
        case .dictionary(let word):
            if word.isL33t { return "Dict+Leet" }
            return word.isReversed ? "Reversed" : "Dictionary"
        case .spatial: return "Spatial"
        case .repeated: return "Repeat"
        case .sequence: return "Sequence"
        case .recentYear: return "Year"
        case .date: return "Date"
        case .bruteforce: return "Bruteforce"
        }
    }

    /// What a match is beyond its type: the list and rank, the keyboard, the repeat count.
    static func note(_ match: StrengthMatch) -> String? {
        switch match.pattern {
        case .dictionary(let word): return "\(word.list.title), rank \(word.rank)"
        case .spatial(let layout, let turns, let shifted):
            return "\(layout.rawValue), \(turns) turn\(turns == 1 ? "" : "s")" + (shifted > 0 ? ", \(shifted) shifted" : "")
        case .repeated(let baseLength, let count, _, _): return "\(baseLength) repeated \(count) times"
        case .sequence(let kind, let ascending): return "\(kind.rawValue), \(ascending ? "ascending" : "descending")"
        case .date(_, _, _, let separated): return separated ? "with separators" : "digits only"
        case .recentYear, .bruteforce: return nil
        }
    }

    static func json(_ estimate: StrengthEstimate, tokens: [String]?) -> JSON {
        var members: [(String, JSON)] = [
            ("length", .int(estimate.length)),
            ("entropyBits", .decimal(estimate.entropyBits, places: 3)),
            ("guessesLog10", .decimal(estimate.guessesLog10, places: 3)),
            ("score", .int(estimate.score)),
        ]
        if let tokens {
            members.append(("sequence", .array(zip(estimate.sequence, tokens).map { match, token in
                var item: [(String, JSON)] = [
                    ("type", .string(typeName(match))), ("start", .int(match.range.lowerBound)), ("length", .int(match.range.count)),
                    ("entropyBits", .decimal(match.entropyBits, places: 3)),
                    ("guessesLog10", .decimal(match.guessesLog10, places: 3)), ("token", .string(token)),
                ]
                if let note = note(match) { item.append(("detail", .string(note))) }
                return .object(item)
            })))
        }
        return .object(members)
    }

    static func fixed(_ value: Double, _ places: Int) -> String {
        JSON.decimal(value, places: places).serialized
    }
}
