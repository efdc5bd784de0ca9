import MyPassBytes
import MyPassCore

/// The password generator's settings from `--length` and the character-class flags.
struct GeneratorOptions {
    var length: Int
    var lower: Bool
    var upper: Bool
    var digits: Bool
    var symbols: Bool
    var excludeSimilar: Bool

    static let defaultLength = 20

    static func isGiven(_ parsed: ParsedArguments) -> Bool {
        parsed.value("length") != nil || ["lower", "upper", "digits", "symbols", "exclude-similar"].contains { parsed.flag($0) }
    }

    init(_ parsed: ParsedArguments) throws(CLIError) {
        length = try parsed.integer("length", in: 1...4096) ?? GeneratorOptions.defaultLength
        lower = parsed.flag("lower")
        upper = parsed.flag("upper")
        digits = parsed.flag("digits")
        symbols = parsed.flag("symbols")
        // Without a class flag: KeePass's default, upper and lower case letters and digits.
        if !(lower || upper || digits || symbols) { (lower, upper, digits) = (true, true, true) }
        excludeSimilar = parsed.flag("exclude-similar")
    }

    /// A password from the core's generator (OS randomness, at least one character of each class).
    func generate() throws -> ProtectedString {
        var classes = Set<PasswordCharacterClass>()
        if lower { classes.insert(.lowerCase) }
        if upper { classes.insert(.upperCase) }
        if digits { classes.insert(.digits) }
        if symbols { classes.formUnion([.special, .brackets, .minus, .underline]) }
        let options = PasswordGeneratorOptions(length: length, classes: classes, excludeLookAlikes: excludeSimilar)
        do {
            return try PasswordGenerator.generate(options)
        } catch {
            throw CLIError.failure("cannot generate a password: \(error.description)")
        }
    }
}
