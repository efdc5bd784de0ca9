/// A named option of a command: a flag (`--json`) or an option that takes a value (`--group <path>`).
struct OptionSpec: Sendable {
    /// The long name without dashes (`group` for `--group`).
    var long: String
    /// An optional one-letter alias (`-h`).
    var short: Character?
    /// For an option that takes a value, the value's name shown in usage (`path`); nil for a flag.
    var valueName: String?
    /// May be given more than once, each value kept in order (`--group A --group B`).
    var isRepeatable: Bool
    /// One line for `--help`.
    var help: String

    /// A flag: present or absent.
    static func flag(_ long: String, short: Character? = nil, _ help: String) -> OptionSpec {
        OptionSpec(long: long, short: short, valueName: nil, isRepeatable: false, help: help)
    }

    /// An option with a value; a later occurrence replaces an earlier one unless `repeatable`.
    static func option(_ long: String, _ valueName: String, repeatable: Bool = false, _ help: String) -> OptionSpec {
        OptionSpec(long: long, short: nil, valueName: valueName, isRepeatable: repeatable, help: help)
    }

    var isFlag: Bool { valueName == nil }

    /// `--group <path>` as usage shows it.
    var synopsis: String {
        guard let valueName else { return "--\(long)" }
        return "--\(long) <\(valueName)>"
    }
}

/// A positional argument of a command (`<vault>`, `<entry>`).
struct PositionalSpec: Sendable {
    var name: String
    var help: String
    var isOptional: Bool = false
}

/// What a command accepts and how `--help` describes it (swift-argument-parser's layout).
struct CommandSpec: Sendable {
    /// The command words after `mypass` (`ls`, or `attachment export`).
    var name: String
    /// One line for the command list and `OVERVIEW:`.
    var abstract: String
    /// Extra paragraphs for `--help`, or empty.
    var discussion: String = ""
    var positionals: [PositionalSpec] = []
    var options: [OptionSpec] = []
    /// Nested commands (`attachment export|import|rm`); a command with subcommands runs none itself.
    var subcommands: [CommandSpec] = []

    /// The option spec for `--long`, if the command has one.
    func option(named long: String) -> OptionSpec? { options.first { $0.long == long } }

    /// The option spec for `-c`, if the command has one.
    func option(short: Character) -> OptionSpec? { options.first { $0.short == short } }

    /// The one-line usage: `mypass ls <vault> [--group <path> ...] [--json]`.
    var usage: String {
        var parts = ["mypass", name]
        if !subcommands.isEmpty { parts.append("<subcommand>") }
        for positional in positionals {
            parts.append(positional.isOptional ? "[<\(positional.name)>]" : "<\(positional.name)>")
        }
        for option in options where option.long != "help" {
            parts.append("[\(option.synopsis)\(option.isRepeatable ? " ..." : "")]")
        }
        return parts.joined(separator: " ")
    }

    /// The full `--help` text.
    var helpText: String {
        var text = "OVERVIEW: \(abstract)\n\n"
        if !discussion.isEmpty { text += discussion + "\n\n" }
        text += "USAGE: \(usage)\n"
        if !positionals.isEmpty {
            text += "\nARGUMENTS:\n"
            for positional in positionals {
                text += HelpFormatter.row("<\(positional.name)>", positional.help)
            }
        }
        text += "\nOPTIONS:\n"
        for option in options {
            var label = option.short.map { "-\($0), " } ?? ""
            label += option.synopsis
            text += HelpFormatter.row(label, option.help + (option.isRepeatable ? " (repeatable)" : ""))
        }
        text += HelpFormatter.row("-h, --help", "Show help information.")
        if !subcommands.isEmpty {
            text += "\nSUBCOMMANDS:\n"
            for sub in subcommands {
                text += HelpFormatter.row(String(sub.name.split(separator: " ").last ?? ""), sub.abstract)
            }
            text += "\n  See 'mypass help \(name) <subcommand>' for detailed help.\n"
        }
        return text
    }
}

/// Two-column rows for help text.
enum HelpFormatter {
    static let labelWidth = 26

    static func row(_ label: String, _ help: String) -> String {
        let indented = "  " + label
        if indented.count + 2 > labelWidth {
            return indented + "\n" + String(repeating: " ", count: labelWidth) + help + "\n"
        }
        return indented + String(repeating: " ", count: labelWidth - indented.count) + help + "\n"
    }
}
