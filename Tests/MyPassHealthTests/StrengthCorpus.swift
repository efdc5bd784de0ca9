import MyPassCore
import MyPassHealth

/// The comparison corpus: passwords of the kinds people choose, generated from a fixed seed so that
/// every run (and the oracle) sees the same ones. Each is at most 72 scalars (Python's zxcvbn
/// refuses longer ones).
enum StrengthCorpus {
    /// A category of the corpus and its passwords.
    struct Category {
        var name: String
        var passwords: [String]
    }

    /// SplitMix64: a small deterministic generator (not for secrets).
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
        mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
        mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    }

    /// `perCategory` passwords in each of the eight categories.
    static func make(perCategory: Int = 260, seed: UInt64 = 0x6D79_7061_7373) -> [Category] {
        var random = Generator(state: seed)
        let lists = FrequencyLists.shared
        // Frequent words are what people pick: draw ranks from the head of each list more often.
        let passwords = lists.words(of: .passwords), english = lists.words(of: .englishWikipedia)
        let film = lists.words(of: .usTVAndFilm), names = lists.words(of: .femaleNames) + lists.words(of: .maleNames)
        let surnames = lists.words(of: .surnames)
        func word(_ random: inout Generator) -> String {
            let list = random.pick([passwords, english, film, names, surnames])
            let limit = random.pick([100, 1_000, 10_000, list.count])
            return list[random.below(min(limit, list.count))]
        }
        func decorate(_ text: String, _ random: inout Generator) -> String {
            var out = text
            switch random.below(4) {
            case 0: out = out.prefix(1).uppercased() + out.dropFirst()
            case 1: out = out.uppercased()
            default: break
            }
            switch random.below(5) {
            case 0: out += String(random.below(100))
            case 1: out += String(random.pick(["!", "?", ".", "#", "*"]))
            case 2: out += String(1950 + random.below(75))
            default: break
            }
            return out
        }
        let digits = Array("0123456789"), lower = Array("abcdefghijklmnopqrstuvwxyz")
        let upper = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), symbols = Array("!@#$%^&*()-_=+[]{};:,.<>/?~")
        var categories: [Category] = []

        categories.append(Category(name: "dictionary words", passwords: (0..<perCategory).map { _ in
            decorate(word(&random), &random)
        }))

        let l33t: [Character: [Character]] = [
            "a": ["4", "@"], "e": ["3"], "i": ["1", "!"], "o": ["0"], "s": ["5", "$"], "t": ["7", "+"], "l": ["1", "|"],
            "g": ["9"], "b": ["8"], "z": ["2"],
        ]
        categories.append(Category(name: "l33t", passwords: (0..<perCategory).map { _ in
            var base = word(&random)
            while !base.contains(where: { l33t[$0] != nil }) { base = word(&random) }
            let swapped = String(base.map { c -> Character in
                guard let subs = l33t[c], random.chance(70) else { return c }
                return random.pick(subs)
            })
            return decorate(swapped, &random)
        }))

        let walkStarts: [KeyboardLayout] = [.qwerty, .qwerty, .qwerty, .dvorak, .keypad, .macKeypad]
        categories.append(Category(name: "keyboard walks", passwords: (0..<perCategory).map { _ in
            let graph = KeyboardGraph.graph(random.pick(walkStarts))
            let keys = graph.layout == .qwerty || graph.layout == .dvorak ? Array("qwertyuiopasdfghjklzxcvbnm1234567890") : Array("1234567890")
            var current = random.pick(keys).unicodeScalars.first!.value
            var out = String(UnicodeScalarType(current)!)
            let length = 4 + random.below(9)
            var direction = random.below(6)
            while out.unicodeScalars.count < length {
                let around = graph.neighbours(of: current) ?? []
                if random.chance(25) { direction = random.below(max(1, around.count)) }
                guard let key = around.indices.contains(direction) ? around[direction] : nil else {
                    direction = random.below(max(1, around.count))
                    continue
                }
                current = key.count > 1 && random.chance(10) ? key[1] : key[0]
                out.unicodeScalars.append(UnicodeScalarType(current)!)
            }
            return random.chance(30) ? decorate(out, &random) : out
        }))

        categories.append(Category(name: "dates", passwords: (0..<perCategory).map { _ in
            let year = 1930 + random.below(96), month = 1 + random.below(12), day = 1 + random.below(28)
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            let separator = random.pick(["", "", "/", ".", "-", "_"])
            let shortYear = two(year % 100)
            let date: String
            switch random.below(5) {
            case 0: date = two(day) + separator + two(month) + separator + String(year)
            case 1: date = two(month) + separator + two(day) + separator + shortYear
            case 2: date = String(year) + separator + two(month) + separator + two(day)
            case 3: date = "\(day)" + separator + "\(month)" + separator + shortYear
            default: date = String(year)
            }
            return random.chance(40) ? word(&random) + date : date
        }))

        categories.append(Category(name: "random strings", passwords: (0..<perCategory).map { _ in
            let classes = random.pick([[lower], [lower, digits], [lower, upper, digits], [lower, upper, digits, symbols], [digits]])
            let pool = classes.flatMap { $0 }
            let length = 4 + random.below(21)
            return String((0..<length).map { _ in random.pick(pool) })
        }))

        let eff = EFFLargeWordlist.words
        categories.append(Category(name: "passphrases", passwords: (0..<perCategory).map { _ in
            let count = 2 + random.below(4)
            let separator = random.pick([" ", "-", "", ".", "_"])
            let words = (0..<count).map { _ in random.chance(50) ? eff[random.below(eff.count)] : word(&random) }
            let phrase = words.joined(separator: separator)
            return String(phrase.unicodeScalars.prefix(72).map(Character.init))
        }))

        categories.append(Category(name: "sequences and repeats", passwords: (0..<perCategory).map { _ in
            switch random.below(6) {
            case 0:
                let start = random.below(20), length = 3 + random.below(7)
                return String(lower[start..<min(26, start + length)])
            case 1:
                let start = random.below(5), length = 3 + random.below(6)
                let run = String(digits[start..<min(10, start + length)])
                return random.chance(50) ? String(run.reversed()) : run
            case 2:
                return String(repeating: String(random.pick(lower + digits)), count: 3 + random.below(8))
            case 3:
                return String(repeating: String(word(&random).prefix(4)), count: 2 + random.below(3))
            case 4:
                return word(&random) + String(repeating: String(random.pick(digits)), count: 2 + random.below(5))
            default:
                return decorate(String(repeating: String((0..<2).map { _ in random.pick(lower) }), count: 2 + random.below(3)), &random)
            }
        }))

        categories.append(Category(name: "mixed and unicode", passwords: (0..<perCategory).map { _ in
            switch random.below(5) {
            case 0: return word(&random) + random.pick(["é", "ß", "ü", "ø", "🔑", "日本"]) + String(random.below(1000))
            case 1: return random.pick(["Пароль", "пароль", "contraseña", "mötley", "αβγδε", "ΑΒΓΔ", "абвгд"]) + String(random.below(100))
            case 2: return word(&random) + String(random.pick(symbols)) + word(&random)
            case 3: return String(random.pick(upper)) + word(&random) + String(random.below(10_000))
            default: return word(&random) + String(1990 + random.below(35)) + String(random.pick(symbols))
            }
        }))
        return categories
    }

    typealias UnicodeScalarType = Unicode.Scalar
}
