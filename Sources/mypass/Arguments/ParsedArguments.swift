/// The arguments of one command after parsing: positionals by name, option values, flags.
struct ParsedArguments: Sendable {
    /// The command the arguments were parsed for (for usage errors found later).
    var command: CommandSpec
    /// Positional values by their spec name (absent optional positionals are missing).
    var positionals: [String: String] = [:]
    /// Option values by long name, in command-line order.
    var values: [String: [String]] = [:]
    /// Flags that were given, by long name.
    var flags: Set<String> = []
    /// The words after `--` of a command with a trailing positional (``PositionalSpec/isTrailing``).
    var trailing: [String] = []

    /// True when `--long` was given.
    func flag(_ long: String) -> Bool { flags.contains(long) }

    /// The value of `--long` (the last one, if given more than once), or nil.
    func value(_ long: String) -> String? { values[long]?.last }

    /// Every value of a repeatable `--long`, in order.
    func values(_ long: String) -> [String] { values[long] ?? [] }

    /// The positional named `name`, or nil when an optional one is absent.
    func positional(_ name: String) -> String? { positionals[name] }

    /// The positional named `name`, which the parser guarantees for required ones.
    func required(_ name: String) -> String { positionals[name] ?? "" }

    /// `--long` as an integer in `range`, or nil when absent; a usage error otherwise.
    func integer(_ long: String, in range: ClosedRange<Int>) throws(CLIError) -> Int? {
        guard let text = value(long) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw .usage(
                "The value '\(text)' is invalid for '--\(long)': expected an integer from \(range.lowerBound) to \(range.upperBound)",
                command)
        }
        return number
    }

    /// A usage error for this command.
    func usageError(_ message: String) -> CLIError { .usage(message, command) }
}
