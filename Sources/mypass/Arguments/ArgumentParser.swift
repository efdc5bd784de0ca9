import Foundation

/// Parses a command line the way swift-argument-parser does: options anywhere among the
/// positionals, `--name value` and `--name=value`, repeatable options, `--` ends options,
/// `-h`/`--help` on every command.
enum ArgumentParser {
    /// The outcome of parsing one command's arguments.
    enum Outcome: Sendable {
        case run(ParsedArguments)
        case help(CommandSpec)
    }

    /// Parses `arguments` (the words after the command name) against `spec`. When the command's
    /// first positional is `<vault>` and fewer positionals are given than it requires, or fewer
    /// than it takes and the first is neither a file nor named `*.kdbx` (`ls Work`), the vault is
    /// `defaultVault()` (``DefaultVault``) and the given ones fill the rest.
    ///
    /// - Throws: a usage `CLIError` (exit code 2) for unknown options, missing values, missing or
    ///   extra positionals, a missing required option, or a value given to a flag; what
    ///   `defaultVault` throws.
    static func parse(_ arguments: [String], for spec: CommandSpec,
                      defaultVault: () throws(CLIError) -> String? = { nil }) throws(CLIError) -> Outcome {
        // Help wins over every other problem, as in swift-argument-parser.
        for argument in arguments {
            if argument == "--" { break }
            if argument == "--help" || argument == "-h" { return .help(spec) }
        }
        var parsed = ParsedArguments(command: spec)
        var positionals: [String] = []
        var index = 0
        var optionsEnded = false
        let trailing = spec.positionals.last.map { $0.isTrailing } ?? false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded && trailing {
                parsed.trailing.append(argument)
                continue
            }
            if optionsEnded || !looksLikeOption(argument) {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            let option: OptionSpec
            var inlineValue: String?
            if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                let name: Substring
                if let equals = body.firstIndex(of: "=") {
                    name = body[..<equals]
                    inlineValue = String(body[body.index(after: equals)...])
                } else {
                    name = body
                }
                guard let found = spec.option(named: String(name)) else {
                    let known = spec.options.map { "--" + $0.long }
                    throw .usage("Unknown option '--\(name)'" + CommandLineTool.didYouMean("--" + name, among: known), spec)
                }
                option = found
            } else {
                let letters = Array(argument.dropFirst())
                guard letters.count == 1, let found = spec.option(short: letters[0]) else {
                    throw .usage("Unknown option '\(argument)'", spec)
                }
                option = found
            }
            if option.isFlag {
                if inlineValue != nil { throw .usage("The flag '--\(option.long)' does not take a value", spec) }
                parsed.flags.insert(option.long)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else {
                    throw .usage("Missing value for '\(option.synopsis)'", spec)
                }
                value = arguments[index]
                index += 1
            }
            if option.isRepeatable {
                parsed.values[option.long, default: []].append(value)
            } else {
                parsed.values[option.long] = [value]
            }
        }
        func isOptional(_ positional: PositionalSpec) -> Bool {
            positional.isOptional || positional.optionalWithFlag.map { parsed.flags.contains($0) } == true
        }
        let named = spec.positionals.filter { !$0.isTrailing }
        if let last = spec.positionals.last, last.isTrailing, parsed.trailing.isEmpty {
            throw .usage("Missing the command to run after '--' (\(spec.usage))", spec)
        }
        let required = named.filter { !isOptional($0) }.count
        if spec.positionals.first?.name == "vault", positionals.count < required, let vault = try defaultVault() {
            positionals.insert(vault, at: 0)
        } else if spec.positionals.first?.name == "vault", !positionals.isEmpty, positionals.count < named.count,
                  !names(aVault: positionals[0]), let vault = try defaultVault()
        {
            // `ls Work` with a default vault: the word is the optional positional, not a vault.
            positionals.insert(vault, at: 0)
        }
        var remaining = positionals[...]
        for positional in named {
            if let value = remaining.popFirst() {
                parsed.positionals[positional.name] = value
            } else if !isOptional(positional) {
                throw .usage("Missing expected argument '<\(positional.name)>'", spec)
            }
        }
        if let extra = remaining.first {
            throw .usage("Unexpected argument '\(extra)'", spec)
        }
        if let missing = spec.options.first(where: { $0.isRequired && parsed.values[$0.long] == nil }) {
            throw .usage("Missing expected argument '\(missing.synopsis)'", spec)
        }
        return .run(parsed)
    }

    /// Whether a word given where the vault goes is one: an existing file (not a directory), or
    /// a name ending in `.kdbx`.
    private static func names(aVault word: String) -> Bool {
        var isDirectory: ObjCBool = false
        return word.lowercased().hasSuffix(".kdbx")
            || (FileManager.default.fileExists(atPath: word, isDirectory: &isDirectory) && !isDirectory.boolValue)
    }

    /// `-x`, `--xyz`, `--`; but not `-` (standard input) or a negative number (`-5`).
    private static func looksLikeOption(_ argument: String) -> Bool {
        guard argument.hasPrefix("-"), argument.count > 1 else { return false }
        if Int(argument) != nil { return false }
        return true
    }
}
