import MyPassBytes

/// The character classes of the password generator (KeePass's character set options).
public enum PasswordCharacterClass: String, CaseIterable, Sendable, Hashable {
    /// `A-Z`.
    case upperCase
    /// `a-z`.
    case lowerCase
    /// `0-9`.
    case digits
    /// `-`.
    case minus
    /// `_`.
    case underline
    /// ` ` (space).
    case space
    /// KeePass's "special": `!"#$%&'*+,./:;=?@\^|~` and the grave accent (U+0060).
    case special
    /// `[]{}()<>`.
    case brackets
    /// Latin-1 supplement letters and signs U+00A1-U+00FF except the soft hyphen.
    case latin1

    /// The characters of this class, in code point order.
    public var characters: [Character] {
        switch self {
        case .upperCase: return Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        case .lowerCase: return Array("abcdefghijklmnopqrstuvwxyz")
        case .digits: return Array("0123456789")
        case .minus: return ["-"]
        case .underline: return ["_"]
        case .space: return [" "]
        case .special: return Array("!\"#$%&'*+,./:;=?@\\^`|~")
        case .brackets: return Array("[]{}()<>")
        case .latin1:
            return (0xA1...0xFF).filter { $0 != 0xAD }.compactMap { Unicode.Scalar($0).map(Character.init) }
        }
    }
}

/// Options of the password generator.
public struct PasswordGeneratorOptions: Sendable, Equatable {
    /// Length in characters.
    public var length: Int
    /// The classes to draw from; each selected class is guaranteed at least one character.
    public var classes: Set<PasswordCharacterClass>
    /// Leave out characters that are easily confused: ``PasswordGenerator/lookAlikes``.
    public var excludeLookAlikes: Bool
    /// Further characters to leave out.
    public var excludedCharacters: String
    /// Sets of selected classes that the user chose as one (a "symbols" switch covering
    /// ``PasswordCharacterClass/special``, ``PasswordCharacterClass/brackets``,
    /// ``PasswordCharacterClass/minus`` and ``PasswordCharacterClass/underline``): such a set is
    /// guaranteed one character of its union, not one of each member. Classes in no set stand alone.
    public var joinedClasses: [Set<PasswordCharacterClass>]

    /// Options with KeePass-like defaults: 20 characters of upper case, lower case and digits.
    public init(length: Int = 20, classes: Set<PasswordCharacterClass> = [.upperCase, .lowerCase, .digits],
                excludeLookAlikes: Bool = false, excludedCharacters: String = "",
                joinedClasses: [Set<PasswordCharacterClass>] = []) {
        self.length = length
        self.classes = classes
        self.excludeLookAlikes = excludeLookAlikes
        self.excludedCharacters = excludedCharacters
        self.joinedClasses = joinedClasses
    }
}

/// Generates random passwords from the OS random source (MyPassBytes `SecureRandom`), without modulo bias.
public enum PasswordGenerator {
    /// Characters left out by ``PasswordGeneratorOptions/excludeLookAlikes`` (KeePass's `O0Il1|`,
    /// plus `B8`, `G6`, `S5`, `Z2` as KeePassXC's "similar" set).
    public static let lookAlikes: Set<Character> = ["O", "0", "I", "l", "1", "|", "B", "8", "G", "6", "S", "5", "Z", "2"]

    /// The usable characters of each selected class after exclusions, classes in declaration order.
    public static func pools(for options: PasswordGeneratorOptions) -> [(PasswordCharacterClass, [Character])] {
        let excluded = Set(options.excludedCharacters).union(options.excludeLookAlikes ? lookAlikes : [])
        return PasswordCharacterClass.allCases.filter { options.classes.contains($0) }.map { characterClass in
            (characterClass, characterClass.characters.filter { !excluded.contains($0) })
        }
    }

    /// The pools that each give the password at least one character: every selected class alone,
    /// except those of a ``PasswordGeneratorOptions/joinedClasses`` set, which give one pool (the
    /// union, in class order) placed where its first member would be.
    public static func guaranteedPools(for options: PasswordGeneratorOptions) -> [[Character]] {
        var out: [[Character]] = []
        var placed = Set<Int>()
        for (characterClass, characters) in pools(for: options) {
            guard let joined = options.joinedClasses.firstIndex(where: { $0.contains(characterClass) }) else {
                out.append(characters)
                continue
            }
            if placed.contains(joined) { continue }
            placed.insert(joined)
            out.append(pools(for: options).filter { options.joinedClasses[joined].contains($0.0) }.flatMap { $0.1 })
        }
        return out
    }

    /// A password: one random character from each guaranteed pool (``guaranteedPools(for:)``),
    /// the rest drawn uniformly from the union of all selected classes, then shuffled
    /// (Fisher-Yates), all draws uniform and from the OS random source.
    ///
    /// - Throws: ``CoreError/Code/invalidGeneratorOptions`` when no class is selected, a selected
    ///   class has no character left after exclusions, or `length` is below the number of
    ///   guaranteed pools (the classes as the user chose them).
    public static func generate(_ options: PasswordGeneratorOptions) throws(CoreError) -> ProtectedString {
        try generate(options, randomBelow: SecureRandom.uniform(below:))
    }

    /// ``generate(_:)`` with its random source as a seam: `randomBelow(n)` must return a uniform
    /// integer in `0..<n` (tests pass a seeded generator; everything else uses ``generate(_:)``).
    public static func generate(_ options: PasswordGeneratorOptions,
                                randomBelow: (Int) -> Int) throws(CoreError) -> ProtectedString {
        let classPools = pools(for: options)
        guard !classPools.isEmpty else {
            throw CoreError(.invalidGeneratorOptions, "no character class selected")
        }
        if let empty = classPools.first(where: { $0.1.isEmpty }) {
            throw CoreError(.invalidGeneratorOptions, "every character of \(empty.0.rawValue) is excluded")
        }
        let guaranteed = guaranteedPools(for: options)
        guard options.length >= guaranteed.count else {
            throw CoreError(.invalidGeneratorOptions,
                            "length \(options.length) is less than the \(guaranteed.count) character classes asked for")
        }
        // The password exists only as its UTF-8 bytes in a wiping buffer. What is drawn is kept
        // as positions in the pools (sized up front, zeroed afterwards), never as Characters or
        // a String; the pools themselves are public character sets, not secrets.
        let all = classPools.flatMap { $0.1 }.map { Array($0.utf8) }
        let guaranteedUTF8 = guaranteed.map { $0.map { Array($0.utf8) } }
        var chosen = [Int](repeating: 0, count: options.length)
        var fromGuaranteed = [Int](repeating: -1, count: options.length)
        defer {
            wipe(&chosen)
            wipe(&fromGuaranteed)
        }
        for (slot, pool) in guaranteedUTF8.enumerated() {
            chosen[slot] = randomBelow(pool.count)
            fromGuaranteed[slot] = slot
        }
        for slot in guaranteedUTF8.count..<options.length {
            chosen[slot] = randomBelow(all.count)
        }
        var index = options.length - 1
        while index > 0 {
            let other = randomBelow(index + 1)
            chosen.swapAt(index, other)
            fromGuaranteed.swapAt(index, other)
            index -= 1
        }
        var password = SecureBytes()
        password.reserveCapacity(options.length * 4)
        for slot in 0..<options.length {
            let pool = fromGuaranteed[slot]
            let character = pool >= 0 ? guaranteedUTF8[pool][chosen[slot]] : all[chosen[slot]]
            password.append(contentsOf: character)
        }
        return ProtectedString(secureUTF8: password)
    }

    /// The entropy in bits of a password drawn uniformly from the selected pools:
    /// `length × log2(pool size)` (an upper bound; the per-class guarantee lowers it slightly).
    public static func entropyBits(_ options: PasswordGeneratorOptions) -> Double {
        let size = pools(for: options).reduce(0) { $0 + $1.1.count }
        guard size > 1, options.length > 0 else { return 0 }
        return Double(options.length) * log2Approx(Double(size))
    }

    private static func log2Approx(_ x: Double) -> Double {
        // log2 without Foundation: exponent from the binary representation, mantissa by series.
        let exponent = Double(x.exponent)
        let mantissa = x.significand  // 1 <= m < 2
        // ln(m) by atanh series; ln2 constant.
        let y = (mantissa - 1) / (mantissa + 1)
        var term = y, sum = 0.0, n = 1.0
        for _ in 0..<20 { sum += term / n; term *= y * y; n += 2 }
        return exponent + 2 * sum / 0.693_147_180_559_945_3
    }
}
