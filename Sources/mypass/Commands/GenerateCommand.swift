import MyPassBytes

/// `mypass generate [--length N] [--lower] [--upper] [--digits] [--symbols] [--exclude-similar]`.
enum GenerateCommand {
    static func run(_ parsed: ParsedArguments) throws {
        let password = try GeneratorOptions(parsed).generate()
        password.withRevealedBytes { Console.outBytes($0, newline: true) }
    }
}
