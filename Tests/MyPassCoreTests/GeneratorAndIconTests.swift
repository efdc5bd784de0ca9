import MyPassBytes
import MyPassCore
import Testing

@Suite("Password generator")
struct PasswordGeneratorTests {
    @Test func lengthAndEveryClassGuaranteed() throws {
        let options = PasswordGeneratorOptions(length: 4, classes: [.upperCase, .lowerCase, .digits, .special])
        for _ in 0..<200 {
            let password = try PasswordGenerator.generate(options).revealed
            #expect(password.count == 4)
            #expect(password.contains(where: { $0.isUppercase }))
            #expect(password.contains(where: { $0.isLowercase }))
            #expect(password.contains(where: { $0.isNumber }))
            #expect(password.contains(where: { PasswordCharacterClass.special.characters.contains($0) }))
        }
    }

    @Test func onlySelectedCharacters() throws {
        let options = PasswordGeneratorOptions(length: 64, classes: [.digits, .minus])
        let allowed = Set("0123456789-")
        for _ in 0..<50 {
            let password = try PasswordGenerator.generate(options).revealed
            #expect(password.count == 64)
            #expect(password.allSatisfy { allowed.contains($0) })
        }
    }

    @Test func excludesLookAlikesAndChosenCharacters() throws {
        let options = PasswordGeneratorOptions(length: 200, classes: [.upperCase, .lowerCase, .digits, .special],
                                               excludeLookAlikes: true, excludedCharacters: "xyz")
        let pools = PasswordGenerator.pools(for: options)
        #expect(pools.first(where: { $0.0 == .digits })?.1 == Array("3479"))
        for _ in 0..<20 {
            let password = try PasswordGenerator.generate(options).revealed
            #expect(!password.contains(where: { "O0Il1|xyz".contains($0) }))
        }
    }

    @Test func usesAllOfThePool() throws {
        // 2,000 digits: each of 0-9 appears (the chance any is missing is < 1e-80).
        let password = try PasswordGenerator.generate(PasswordGeneratorOptions(length: 2000, classes: [.digits])).revealed
        #expect(Set(password) == Set("0123456789"))
    }

    @Test func classSizes() {
        #expect(PasswordCharacterClass.special.characters.count == 22)
        #expect(PasswordCharacterClass.brackets.characters == Array("[]{}()<>"))
        #expect(PasswordCharacterClass.latin1.characters.count == 94)
        let bits = PasswordGenerator.entropyBits(PasswordGeneratorOptions(length: 10, classes: [.digits]))
        #expect(abs(bits - 33.219_280_948_873_62) < 1e-9)
    }

    @Test func rejectsUnusableOptions() {
        #expect(throws: CoreError(.invalidGeneratorOptions)) {
            try PasswordGenerator.generate(PasswordGeneratorOptions(length: 10, classes: []))
        }
        #expect(throws: CoreError(.invalidGeneratorOptions)) {
            try PasswordGenerator.generate(PasswordGeneratorOptions(length: 2, classes: [.upperCase, .lowerCase, .digits]))
        }
        #expect(throws: CoreError(.invalidGeneratorOptions)) {
            try PasswordGenerator.generate(PasswordGeneratorOptions(length: 8, classes: [.minus], excludedCharacters: "-"))
        }
    }
}

@Suite("KeePass icon mapper")
struct KeePassIconMapperTests {
    @Test func mapsAll69StandardIcons() {
        #expect(KeePassIconMapper.symbols.count == 69)
        #expect(KeePassIconMapper.symbolName(forIconID: 0) == "key.fill")
        #expect(KeePassIconMapper.symbolName(forIconID: 1) == "globe")
        #expect(KeePassIconMapper.symbolName(forIconID: 19) == "envelope.fill")
        #expect(KeePassIconMapper.symbolName(forIconID: 43) == "trash.fill")
        #expect(KeePassIconMapper.symbolName(forIconID: 48) == "folder.fill")
        #expect(KeePassIconMapper.symbolName(forIconID: 68) == "iphone")
        #expect(Set(KeePassIconMapper.symbols).count == 69)
    }

    @Test(arguments: [-1, 69, 70, 1000, Int.max, Int.min])
    func unmappedFallsBackToKey(_ id: Int) {
        #expect(KeePassIconMapper.symbolName(forIconID: id) == "key.fill")
    }
}
