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
        for positional in positionals where !positional.isTrailing {
            parts.append(positional.isOptional ? "[<\(positional.name)>]" : "<\(positional.name)>")
        }
        // Required options first and without brackets, as swift-argument-parser shows them.
        for option in options where option.isRequired {
            parts.append("\(option.synopsis)\(option.isRepeatable ? " ..." : "")")
        }
        for option in options where option.long != "help" && !option.isRequired {
            parts.append("[\(option.synopsis)\(option.isRepeatable ? " ..." : "")]")
        }
        for positional in positionals where positional.isTrailing {
            parts.append("-- <\(positional.name)> ...")
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
