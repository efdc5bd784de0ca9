/// What the completion scripts and the manual page are made of: every runnable command with
/// its options and positionals, taken from ``CommandSpecs/all`` (so a new command appears in
/// them without further work).
struct CompletionModel {
    /// How a positional argument is completed.
    enum Kind: String {
        /// File names (`<vault>`, `<other>`, `<file>`).
        case file
        /// Entry paths of the vault named before it (`<entry>`).
        case entry
        /// Group paths of the vault named before it, each with a trailing `/` (`mv`'s `<group>`,
        /// the `<path>` of `add`, `mkdir` and `rmdir`, `--group <group>`).
        case group
        /// One of the shells (`completion <shell>`).
        case shell
        /// The values an option's value name lists (`--format <json|xml|csv>`).
        case choices
        /// Nothing to offer (a title, a URL, a name).
        case none
    }

    /// A runnable command: `ls`, `attachment export`.
    struct Command {
        var spec: CommandSpec
        /// The command's words: `["attachment", "export"]`.
        var words: [String] { spec.name.split(separator: " ").map(String.init) }
        var positionals: [Kind] { spec.positionals.map { CompletionModel.kind(of: $0) } }
        /// Options shown with `--`, plus `--help`.
        var options: [OptionSpec] { spec.options + [.flag("help", short: "h", "Show help information.")] }
    }

    /// Every top-level spec (commands with subcommands included), as `mypass --help` lists them.
    let topLevel: [CommandSpec]
    /// Every runnable command, nested ones after their parent's place.
    let commands: [Command]

    init(specs: [CommandSpec] = CommandSpecs.all) {
        topLevel = specs
        var commands: [Command] = []
        func add(_ spec: CommandSpec) {
            if spec.subcommands.isEmpty { commands.append(Command(spec: spec)) } else { spec.subcommands.forEach(add) }
        }
        specs.forEach(add)
        self.commands = commands
    }

    /// The completion kind of a positional, by its name: `<vault>`, `<other>` and `<file>` are
    /// files, `<entry>` an entry, `<group>` and `<path>` (a group, or a new entry's or group's
    /// path, which starts with its group's) groups, `<shell>` a shell.
    static func kind(of positional: PositionalSpec) -> Kind {
        switch positional.name {
        case "vault", "other", "file": return .file
        case "entry": return .entry
        case "group", "path": return .group
        case "shell": return .shell
        default: return .none
        }
    }

    /// The completion kind of an option's value: a file for `<file>` and the key files
    /// (`--keyfile`, `--other-keyfile`, `--generate-keyfile`...), a group for `<group>`, the
    /// listed values for `<a|b|c>` (``OptionSpec/choices``), nothing for a flag or a free value.
    static func kind(of option: OptionSpec) -> Kind {
        if option.isFlag { return .none }
        if takesFile(option) { return .file }
        if option.valueName == "group" { return .group }
        return option.choices.isEmpty ? .none : .choices
    }

    /// Whether an option's value is a file name (`--keyfile`, `--other-keyfile`, `--attach`...).
    static func takesFile(_ option: OptionSpec) -> Bool {
        option.valueName == "file" || option.long.hasSuffix("keyfile")
    }

    /// The words a shell sees for an option: `-k` (when it has a short name) and `--keyfile`.
    static func words(_ option: OptionSpec) -> [String] {
        [option.short.map { "-\($0)" }, "--" + option.long].compactMap { $0 }
    }

    /// The shells `mypass completion` writes for.
    static let shells = ["bash", "zsh", "fish"]
}
