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
        /// One of the shells (`completion <shell>`).
        case shell
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

    /// The completion kind of a positional, by its name.
    static func kind(of positional: PositionalSpec) -> Kind {
        switch positional.name {
        case "vault", "other", "file": return .file
        case "entry": return .entry
        case "shell": return .shell
        default: return .none
        }
    }

    /// Whether an option's value is a file name (`--keyfile`, `--other-keyfile`, `--attach`...);
    /// `--group <path>` names a group of the vault, not a file.
    static func takesFile(_ option: OptionSpec) -> Bool {
        option.valueName == "file" || option.long.hasSuffix("keyfile")
    }

    /// The shells `mypass completion` writes for.
    static let shells = ["bash", "zsh", "fish"]
}
