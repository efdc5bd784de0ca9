#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MyPassCore
import MyPassKDBX

/// The `mypass` entry point: picks the command, parses its arguments, runs it and maps every
/// failure to one stderr line and an exit code.
package enum CommandLineTool {
    static let version = "0.3.0-dev"

    typealias Handler = @Sendable (ParsedArguments) throws -> Void

    /// The handler for each runnable command, by its full name (`attachment export`): exactly the
    /// runnable commands of ``CommandSpecs/all``, checked when the table is first used, which is at
    /// the start of every run (``run(_:)``), so a command without a handler or a handler without a
    /// command stops every invocation of `mypass` (and so every CLI test), not only its own.
    static let handlers: [String: Handler] = checked([
        "info": InfoCommand.run,
        "ls": ListCommand.run,
        "groups": GroupsCommand.run,
        "show": ShowCommand.run,
        "browse": BrowseCommand.run,
        "add": AddCommand.run,
        "edit": EditCommand.run,
        "rm": RemoveCommand.run,
        "mv": MoveCommand.run,
        "mkdir": MakeGroupCommand.run,
        "rmdir": RemoveGroupCommand.run,
        "totp": TOTPCommand.run,
        "match": MatchCommand.run,
        "attachment ls": AttachmentCommand.list,
        "attachment export": AttachmentCommand.export,
        "attachment import": AttachmentCommand.importFile,
        "attachment rm": AttachmentCommand.remove,
        "export": ExportCommand.run,
        "generate": GenerateCommand.run,
        "merge": MergeCommand.run,
        "passkey ls": PasskeyCommand.list,
        "passkey show": PasskeyCommand.show,
        "passkey add": PasskeyCommand.add,
        "passkey assert": PasskeyCommand.assert,
        "analyze": AnalyzeCommand.run,
        "estimate": EstimateCommand.run,
        "completion": CompletionCommand.run,
        "unlock": AgentCommands.unlock,
        "lock": AgentCommands.lock,
        "status": AgentCommands.status,
        "agent": AgentCommands.agent,
        "ssh-agent": SSHAgentCommand.run,
        "git-credential": GitCredentialCommand.run,
        "run": HeadlessCommands.run,
        "read": HeadlessCommands.read,
        "clip": ClipCommand.clip,
        "unclip": ClipCommand.unclip,
        "create": CreateCommand.run,
        "passwd": PasswdCommand.run,
        "settings": SettingsCommand.run,
        "import": ImportCommand.run,
    ])

    /// `table`, after checking that its names are exactly the runnable commands' names.
    static func checked(_ table: [String: Handler]) -> [String: Handler] {
        let runnable = Set(CompletionModel().commands.map(\.spec.name))
        let handled = Set(table.keys)
        precondition(
            runnable == handled,
            "mypass's command table: no handler for \(runnable.subtracting(handled).sorted()), "
                + "no command for \(handled.subtracting(runnable).sorted())")
        return table
    }

    /// Runs the command line `arguments` (without the program name) and returns the exit code.
    package static func run(_ arguments: [String]) -> Int32 {
        _ = handlers  // checks the command table (see `handlers`)
        do {
            try dispatch(arguments)
            if Console.outputFailure != 0 {
                report(.failure("cannot write standard output: \(String(cString: strerror(Console.outputFailure)))"))
                return ExitCode.failure.rawValue
            }
            return ExitCode.success.rawValue
        } catch _ where Interrupt.isRequested {
            report(CLIError(.interrupted, "interrupted during the key derivation; nothing was written"))
            return ExitCode.interrupted.rawValue
        } catch let error as CLIError {
            // An empty message is an outcome told by the exit code alone (match without a suggestion).
            if !error.message.isEmpty { report(error) }
            return error.exitCode.rawValue
        } catch let error as KDBXError {
            let mapped = map(error)
            report(mapped)
            return mapped.exitCode.rawValue
        } catch let error as CoreError {
            let mapped = map(error)
            report(mapped)
            return mapped.exitCode.rawValue
        } catch {
            report(.failure(String(describing: error)))
            return ExitCode.failure.rawValue
        }
    }

    private static func dispatch(_ arguments: [String]) throws {
        guard let first = arguments.first else {
            throw CLIError.usage("Missing subcommand", nil)
        }
        switch first {
        case "--help", "-h":
            Console.out(CommandSpecs.topLevelHelp)
            return
        case "--version":
            Console.line(version)
            return
        case MemoryCheck.commandName where MemoryCheck.isEnabled:
            try MemoryCheck.run(Array(arguments.dropFirst()))
            return
        case BrowseBenchmark.commandName where BrowseBenchmark.isEnabled:
            try BrowseBenchmark.run(Array(arguments.dropFirst()))
            return
        case "help":
            let path = Array(arguments.dropFirst())
            if path.isEmpty {
                Console.out(CommandSpecs.topLevelHelp)
                return
            }
            if path == ["--man"] {
                Console.out(ManualPage.render())
                return
            }
            if path == ["help"] || path == ["--help"] || path == ["-h"] {
                Console.out(CommandSpecs.help.helpText)
                return
            }
            if path == ["--markdown"] {
                Console.out(CommandReference.render())
                return
            }
            let (spec, rest) = try resolve(path)
            guard rest.isEmpty else { throw CLIError.usage("Unknown subcommand '\(rest[0])' of '\(spec.name)'", spec) }
            Console.out(spec.helpText)
            return
        default:
            break
        }
        let (spec, rest) = try resolve(arguments)
        if !spec.subcommands.isEmpty {
            if rest.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) {
                Console.out(spec.helpText)
                return
            }
            if let word = rest.first {
                throw CLIError.usage("Unknown subcommand '\(word)'", spec)
            }
            throw CLIError.usage("Missing subcommand of '\(spec.name)'", spec)
        }
        switch try ArgumentParser.parse(rest, for: spec, defaultVault: DefaultVault.path) {
        case .help(let spec):
            Console.out(spec.helpText)
        case .run(let parsed):
            Console.setQuiet(parsed.flag("quiet"))
            guard let handler = handlers[spec.name] else { throw CLIError.failure("'\(spec.name)' is not implemented") }
            try handler(parsed)
        }
    }

    /// What other password managers call our commands (keepassxc-cli, rbw, pass), for the
    /// suggestion after an unknown command.
    private static let otherNames: [String: String] = [
        "list": "ls", "search": "ls --search", "find": "match", "get": "show", "db-info": "info", "db-create": "create",
        "init": "create", "remove": "rm", "delete": "rm", "new": "add", "insert": "add", "code": "totp", "copy": "clip",
        "db-edit": "settings", "passwd": "passwd", "mkdir": "mkdir", "sync": "merge", "config": "settings",
        "health": "analyze", "audit": "analyze", "strength": "estimate",
    ]

    /// `; did you mean 'X'?` when `typed` is another manager's name for a command or within a few
    /// typing errors of one of `known`; `""` otherwise.
    static func didYouMean(_ typed: String, among known: [String]) -> String {
        if let ours = otherNames[typed.lowercased()], ours != typed { return "; did you mean '\(ours)'?" }
        var suggestions = Vault.suggestions(for: typed, among: known, limit: 2)
        if suggestions.isEmpty, typed.count >= 3 {
            suggestions = known.filter { $0.hasPrefix(typed) || (typed.hasPrefix("--") && $0.hasPrefix(typed)) }.prefix(2).map { $0 }
        }
        guard !suggestions.isEmpty else { return "" }
        return "; did you mean " + suggestions.map { "'\($0)'" }.joined(separator: " or ") + "?"
    }

    /// Finds the (possibly nested) command named by the leading words of `arguments`.
    private static func resolve(_ arguments: [String]) throws(CLIError) -> (CommandSpec, [String]) {
        guard let spec = CommandSpecs.all.first(where: { $0.name == arguments[0] }) else {
            if arguments[0].hasPrefix("-") { throw .usage("Unknown option '\(arguments[0])'", nil) }
            throw .usage("Unknown subcommand '\(arguments[0])'" + didYouMean(arguments[0], among: CommandSpecs.all.map(\.name)), nil)
        }
        var current = spec
        var rest = Array(arguments.dropFirst())
        while !current.subcommands.isEmpty, let word = rest.first,
              let sub = current.subcommands.first(where: { $0.name.split(separator: " ").last.map(String.init) == word })
        {
            current = sub
            rest.removeFirst()
        }
        return (current, rest)
    }

    /// The exit code and wording for a codec error; the reason never holds a secret.
    static func map(_ error: KDBXError, file: String? = nil) -> CLIError {
        let prefix = file.map { "cannot open '\($0)': " } ?? ""
        switch error.code {
        case .wrongKey, .invalidKeyFile, .missingKeyComponent:
            let text = error.code == .wrongKey ? "wrong password or key file" : error.description
            return CLIError(.wrongKey, prefix + text)
        case .corruptedFile, .unsupported, .limitExceeded:
            // The rounds limit is the one a real vault may need raised: say how.
            let hint = error.location == "KDF parameter R" ? "; --max-kdf-rounds N raises the limit" : ""
            return CLIError(.corruptedOrUnsupported, prefix + error.description + hint)
        case .io, .invalidModel, .cancelled:
            return CLIError(.failure, prefix + error.description)
        }
    }

    /// The exit code and wording for a core error: codec errors as above, a missing or ambiguous
    /// name as its reason alone, anything else as its description (exit 1).
    static func map(_ error: CoreError, file: String? = nil) -> CLIError {
        if let codec = error.underlying as? KDBXError, error.code == .codec || error.code == .wrongKey {
            return map(codec, file: file)
        }
        switch error.code {
        case .wrongKey:
            return CLIError(.wrongKey, (file.map { "cannot open '\($0)': " } ?? "") + "wrong password or key file")
        case .notFound, .ambiguous:
            return .failure(error.reason.isEmpty ? error.description : error.reason)
        case .invalidOperation where file == nil && !error.reason.isEmpty:
            return .failure(error.reason)
        default:
            return .failure((file.map { "cannot open '\($0)': " } ?? "") + error.description)
        }
    }

    private static func report(_ error: CLIError) {
        var text = "Error: \(Text.errorMessage(error.message))\n"
        if error.exitCode == .usage {
            if let spec = error.usageOf {
                text += "Usage: \(spec.usage)\n  See 'mypass help \(spec.name)' for more information.\n"
            } else {
                text += "Usage: \(CommandSpecs.topLevelUsage)\n  See 'mypass --help' for more information.\n"
            }
        }
        Console.err(text)
    }
}
