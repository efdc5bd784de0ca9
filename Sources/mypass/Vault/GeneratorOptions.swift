import MyPassBytes
import MyPassCore

/// The password generator's settings from `--length` and the character-class flags, or a
/// diceware passphrase from `--words` and `--separator`.
struct GeneratorOptions {
    var length: Int
    var lower: Bool
    var upper: Bool
    var digits: Bool
    var symbols: Bool
    var excludeSimilar: Bool
    /// A passphrase of this many EFF words instead of a password, or nil.
    var words: Int?
    var separator: String

    static let defaultLength = 20

    /// The classes `--symbols` turns on; they count as one class for the one-of-each guarantee.
    static let symbolClasses: Set<PasswordCharacterClass> = [.special, .brackets, .minus, .underline]

    static func isGiven(_ parsed: ParsedArguments) -> Bool {
        ["length", "words", "separator"].contains { parsed.value($0) != nil }
            || ["lower", "upper", "digits", "symbols", "exclude-similar"].contains { parsed.flag($0) }
    }

    init(_ parsed: ParsedArguments) throws(CLIError) {
        length = try parsed.integer("length", in: 1...4096) ?? GeneratorOptions.defaultLength
        lower = parsed.flag("lower")
        upper = parsed.flag("upper")
        digits = parsed.flag("digits")
        symbols = parsed.flag("symbols")
        excludeSimilar = parsed.flag("exclude-similar")
        words = try parsed.integer("words", in: 1...PassphraseGenerator.maxWords)
        separator = parsed.value("separator") ?? " "
        if words != nil {
            if parsed.value("length") != nil || lower || upper || digits || symbols || excludeSimilar {
                throw parsed.usageError("--words makes a passphrase: it cannot be used with --length or the character-class flags")
            }
        } else if parsed.value("separator") != nil {
            throw parsed.usageError("--separator needs --words")
        }
        // Without a class flag: KeePass's default, upper and lower case letters and digits.
        if !(lower || upper || digits || symbols) { (lower, upper, digits) = (true, true, true) }
    }

    /// A password from the core's generator (OS randomness, at least one character of each class
    /// asked for), or a passphrase with `--words`.
    func generate() throws -> ProtectedString {
        do {
            if let words { return try PassphraseGenerator.generate(words: words, separator: separator) }
            var classes = Set<PasswordCharacterClass>()
            if lower { classes.insert(.lowerCase) }
            if upper { classes.insert(.upperCase) }
            if digits { classes.insert(.digits) }
            if symbols { classes.formUnion(GeneratorOptions.symbolClasses) }
            let options = PasswordGeneratorOptions(length: length, classes: classes, excludeLookAlikes: excludeSimilar,
                                                   joinedClasses: [GeneratorOptions.symbolClasses])
            return try PasswordGenerator.generate(options)
        } catch {
            throw CLIError.failure("cannot generate a password: \(error.reason)")
        }
    }
}
