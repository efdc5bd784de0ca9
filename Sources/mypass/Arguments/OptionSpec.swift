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
    /// The command cannot run without it (usage shows it without brackets); the command checks it.
    var isRequired = false

    /// A flag: present or absent.
    static func flag(_ long: String, short: Character? = nil, _ help: String) -> OptionSpec {
        OptionSpec(long: long, short: short, valueName: nil, isRepeatable: false, help: help)
    }

    /// An option with a value; a later occurrence replaces an earlier one unless `repeatable`.
    static func option(_ long: String, short: Character? = nil, _ valueName: String, repeatable: Bool = false,
                       required: Bool = false, _ help: String) -> OptionSpec {
        OptionSpec(long: long, short: short, valueName: valueName, isRepeatable: repeatable, help: help, isRequired: required)
    }

    /// The values `valueName` lists (`json|xml|csv`: json, xml and csv), or empty when it names
    /// a free value (`path`, `n`); shells complete them.
    var choices: [String] {
        guard let valueName, valueName.contains("|") else { return [] }
        return valueName.split(separator: "|").map(String.init)
    }

    var isFlag: Bool { valueName == nil }

    /// `--group <path>` as usage shows it.
    var synopsis: String {
        guard let valueName else { return "--\(long)" }
        return "--\(long) <\(valueName)>"
    }
}
