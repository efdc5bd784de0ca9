import MyPassBytes
import MyPassCore
import MyPassCrypto
import MyPassTestSupport
import Testing

/// SplitMix64 (Steele, Lea, Flood 2014): a small seeded generator, so that the statistics below
/// are the same in every run; `below(n)` rejects the biased top of the range.
struct SplitMix64 {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ n: Int) -> Int {
        let bound = UInt64(n)
        let limit = UInt64.max - UInt64.max % bound
        while true {
            let value = next()
            if value < limit { return Int(value % bound) }
        }
    }
}

@Suite("Password generator distribution")
struct GeneratorDistributionTests {
    /// What `mypass generate --lower --upper --digits --symbols` asks for: four classes, the
    /// symbols being special, brackets, minus and underline joined.
    static let symbols: Set<PasswordCharacterClass> = [.special, .brackets, .minus, .underline]
    static let options = PasswordGeneratorOptions(
        length: 20, classes: symbols.union([.lowerCase, .upperCase, .digits]), joinedClasses: [symbols])

    @Test func joinedClassesAreOnePool() {
        let pools = PasswordGenerator.guaranteedPools(for: Self.options)
        #expect(pools.map(\.count) == [26, 26, 10, 32])
        #expect(pools[3].contains("-") && pools[3].contains("_") && pools[3].contains("["))
        let separate = PasswordGeneratorOptions(length: 20, classes: Self.options.classes)
        #expect(PasswordGenerator.guaranteedPools(for: separate).count == 7)
    }

    @Test("each chosen class gives at least one character; - and _ are not forced in")
    func guaranteeAndNoForcedSymbols() throws {
        var random = SplitMix64(state: 19)
        var withMinus = 0
        var withUnderline = 0
        let symbolSet = Set(PasswordGenerator.guaranteedPools(for: Self.options)[3])
        for _ in 0..<300 {
            let password = try PasswordGenerator.generate(Self.options) { random.below($0) }.revealed
            #expect(password.count == 20)
            #expect(password.contains { $0.isASCII && $0.isLowercase })
            #expect(password.contains { $0.isASCII && $0.isUppercase })
            #expect(password.contains { $0.isASCII && $0.isNumber })
            #expect(password.contains { symbolSet.contains($0) })
            if password.contains("-") { withMinus += 1 }
            if password.contains("_") { withUnderline += 1 }
        }
        // About 1 - (93/94)^19 + 1/32 = 21% contain a '-'; forced in, it would be 300 of 300.
        #expect(withMinus > 20 && withMinus < 120, "\(withMinus) of 300 with '-'")
        #expect(withUnderline > 20 && withUnderline < 120, "\(withUnderline) of 300 with '_'")
    }

    @Test("the OS random source does not force - into every password either")
    func osRandomSource() throws {
        var withMinus = 0
        for _ in 0..<300 where try PasswordGenerator.generate(Self.options).revealed.contains("-") { withMinus += 1 }
        // P(300 of 300) is about 0.21^300; P(0 of 300) about 0.79^300.
        #expect(withMinus > 0 && withMinus < 300)
    }

    /// Pearson's chi-square of character counts over 4,000 passwords (80,000 characters) against
    /// the model "one character uniform from each chosen pool, the other 16 uniform from the
    /// union of 94": 93 degrees of freedom, bound 200 (the 99.9999th percentile is about 160).
    @Test("chi-square: characters follow class guarantee plus uniform rest")
    func chiSquare() throws {
        var random = SplitMix64(state: 2026)
        let pools = PasswordGenerator.guaranteedPools(for: Self.options)
        let union = pools.flatMap { $0 }
        let samples = 4000
        var counts: [Character: Int] = [:]
        for _ in 0..<samples {
            for character in try PasswordGenerator.generate(Self.options, randomBelow: { random.below($0) }).revealed {
                counts[character, default: 0] += 1
            }
        }
        #expect(Set(counts.keys) == Set(union))
        let rest = Double(Self.options.length - pools.count)
        var chiSquare = 0.0
        for pool in pools {
            for character in pool {
                let expected = Double(samples) * (1 / Double(pool.count) + rest / Double(union.count))
                let observed = Double(counts[character] ?? 0)
                chiSquare += (observed - expected) * (observed - expected) / expected
            }
        }
        #expect(chiSquare < 200, "chi-square \(chiSquare) with 93 degrees of freedom")
        // The same statistic under the old rule (minus and underline each forced in) is far off.
        var forced = 0.0
        for pool in pools {
            for character in pool {
                let alone: Double = character == "-" || character == "_" ? 1 : 0
                let guaranteed = alone == 1 ? 1 : 1 / Double(pool.count - 2)
                let expected = Double(samples) * (guaranteed + (rest - 2) / Double(union.count))
                let observed = Double(counts[character] ?? 0)
                forced += (observed - expected) * (observed - expected) / expected
            }
        }
        #expect(forced > 1000, "old-rule chi-square \(forced)")
    }

    @Test func tooShortCountsTheChosenClasses() {
        var options = Self.options
        options.length = 3
        do {
            _ = try PasswordGenerator.generate(options)
            Issue.record("generated")
        } catch {
            #expect(error.reason == "length 3 is less than the 4 character classes asked for")
        }
        options.length = 4
        #expect((try? PasswordGenerator.generate(options).revealed.count) == 4)
    }
}

@Suite("Diceware passphrases")
struct PassphraseGeneratorTests {
    @Test("the embedded list is EFF's large wordlist, word for word")
    func wordlistMatchesVector() throws {
        let bytes = try TestVectors.bytes("wordlist/eff_large_wordlist.txt")
        #expect(SHA256.hash(bytes).hexString == "addd35536511597a02fa0a9ff1e5284677b8883b83e986e43f15a3db996b903e")
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 7776)
        let words = lines.map { String($0.split(separator: "\t")[1]) }
        #expect(EFFLargeWordlist.words == words)
        #expect(Set(EFFLargeWordlist.words).count == 7776)
        #expect(EFFLargeWordlist.words.first == "abacus" && EFFLargeWordlist.words.last == "zoom")
        // Dice 11111 is index 0 and 66666 index 7775: the digits are the index in base 6, each plus 1.
        #expect(lines[1234].hasPrefix("16525\t"))
    }

    @Test func wordsAndSeparator() throws {
        var indices = [0, 7775, 1, 3000][...]
        let phrase = try PassphraseGenerator.generate(words: 4, separator: "-") { n in
            #expect(n == 7776)
            return indices.popFirst()!
        }.revealed
        #expect(phrase == "abacus-zoom-abdomen-\(EFFLargeWordlist.words[3000])")
        let spaced = try PassphraseGenerator.generate(words: 6).revealed.split(separator: " ")
        #expect(spaced.count == 6 && spaced.allSatisfy { EFFLargeWordlist.words.contains(String($0)) })
        #expect(abs(PassphraseGenerator.entropyBits(words: 6) - 77.548_875) < 1e-5)
        for bad in [0, 101] {
            #expect(throws: CoreError(.invalidGeneratorOptions)) { try PassphraseGenerator.generate(words: bad) }
        }
    }
}
