import Foundation
import MyPassTestSupport
import Testing

/// The command line itself: help, usage errors (exit 2), `--name=value`, repeatable options and
/// the `--` terminator, all through the built binary.
@Suite("mypass arguments")
struct ArgumentTests {
    static let commands = [
        "info", "ls", "groups", "show", "browse", "add", "edit", "rm", "mv", "mkdir", "rmdir", "totp", "match",
        "attachment", "attachment ls", "attachment export", "attachment import", "attachment rm", "export", "generate", "merge",
        "passkey", "passkey ls", "passkey show", "passkey add", "passkey assert", "completion",
        "create", "passwd", "settings", "import", "unlock", "lock", "status", "clip",
    ]

    @Test("mypass --help prints the expected overview")
    func topLevelHelp() throws {
        let expected = try TestVectors.text("cli/help.txt")
        for arguments in [["--help"], ["-h"], ["help"]] {
            let result = try CLI.run(arguments)
            #expect(result.status == 0)
            #expect(result.stdoutText == expected)
            #expect(result.stderr.isEmpty)
        }
    }

    @Test("--help on every command", arguments: commands)
    func commandHelp(_ command: String) throws {
        let words = command.split(separator: " ").map(String.init)
        let viaFlag = try CLI.run(words + ["--help"])
        #expect(viaFlag.status == 0)
        #expect(viaFlag.stdoutText.hasPrefix("OVERVIEW: "))
        #expect(viaFlag.stdoutText.contains("USAGE: mypass \(command)"))
        #expect(viaFlag.stdoutText.contains("-h, --help"))
        let viaHelp = try CLI.run(["help"] + words)
        #expect(viaHelp.status == 0)
        #expect(viaHelp.stdoutText == viaFlag.stdoutText)
        // Help wins over other mistakes on the same line, as in swift-argument-parser.
        let withJunk = try CLI.run(words + ["--no-such-option", "-h"])
        #expect(withJunk.status == 0)
        #expect(withJunk.stdoutText == viaFlag.stdoutText)
    }

    @Test("ls help text is exactly the expected one")
    func lsHelpText() throws {
        let result = try CLI.run(["ls", "--help"])
        #expect(result.stdoutText == (try TestVectors.text("cli/help-ls.txt")))
    }

    struct UsageCase: CustomStringConvertible, Sendable {
        var arguments: [String]
        var message: String
        var usagePrefix: String
        var description: String { arguments.joined(separator: " ") }
    }

    static let usageCases: [UsageCase] = [
        UsageCase(arguments: [], message: "Error: Missing subcommand", usagePrefix: "Usage: mypass <subcommand>"),
        UsageCase(arguments: ["frobnicate", "x"], message: "Error: Unknown subcommand 'frobnicate'", usagePrefix: "Usage: mypass <subcommand>"),
        UsageCase(arguments: ["--frob"], message: "Error: Unknown option '--frob'", usagePrefix: "Usage: mypass <subcommand>"),
        UsageCase(arguments: ["ls"], message: "Error: Missing expected argument '<vault>'", usagePrefix: "Usage: mypass ls <vault>"),
        UsageCase(arguments: ["ls", "v.kdbx", "--bogus"], message: "Error: Unknown option '--bogus'", usagePrefix: "Usage: mypass ls <vault>"),
        UsageCase(arguments: ["ls", "v.kdbx", "-x"], message: "Error: Unknown option '-x'", usagePrefix: "Usage: mypass ls <vault>"),
        UsageCase(arguments: ["ls", "v.kdbx", "--group"], message: "Error: Missing value for '--group <group>'", usagePrefix: "Usage: mypass ls <vault>"),
        UsageCase(arguments: ["ls", "v.kdbx", "--json=yes"], message: "Error: The flag '--json' does not take a value", usagePrefix: "Usage: mypass ls <vault>"),
        UsageCase(arguments: ["ls", "v.kdbx", "Work", "extra"], message: "Error: Unexpected argument 'extra'", usagePrefix: "Usage: mypass ls <vault>"),
        UsageCase(arguments: ["show", "v.kdbx"], message: "Error: Missing expected argument '<entry>'", usagePrefix: "Usage: mypass show <vault> <entry>"),
        UsageCase(arguments: ["mv", "v.kdbx", "A/B"], message: "Error: Missing expected argument '<group>'", usagePrefix: "Usage: mypass mv <vault> <entry> <group>"),
        UsageCase(arguments: ["attachment"], message: "Error: Missing subcommand of 'attachment'", usagePrefix: "Usage: mypass attachment <subcommand>"),
        UsageCase(arguments: ["attachment", "copy", "v.kdbx"], message: "Error: Unknown subcommand 'copy'", usagePrefix: "Usage: mypass attachment <subcommand>"),
        UsageCase(arguments: ["attachment", "import", "v.kdbx", "E", "n"], message: "Error: Missing expected argument '<file>'", usagePrefix: "Usage: mypass attachment import <vault>"),
        UsageCase(arguments: ["generate", "--length", "abc"], message: "Error: The value 'abc' is invalid for '--length': expected an integer from 1 to 4096", usagePrefix: "Usage: mypass generate"),
        UsageCase(arguments: ["generate", "--length=0"], message: "Error: The value '0' is invalid for '--length': expected an integer from 1 to 4096", usagePrefix: "Usage: mypass generate"),
        UsageCase(arguments: ["totp", "v.kdbx", "E", "--time", "soon"], message: "Error: The value 'soon' is invalid for '--time': expected Unix seconds (an integer >= 0)", usagePrefix: "Usage: mypass totp"),
        UsageCase(arguments: ["export", "v.kdbx", "--format", "yaml"], message: "Error: The value 'yaml' is invalid for '--format': expected json, xml or csv", usagePrefix: "Usage: mypass export"),
        UsageCase(arguments: ["add", "v.kdbx", "Work/X", "--password-prompt", "--generate"], message: "Error: --password-prompt and --generate cannot be used together", usagePrefix: "Usage: mypass add"),
        UsageCase(arguments: ["add", "v.kdbx", "Work/X", "--length", "12"], message: "Error: --length and the character-class flags need --generate", usagePrefix: "Usage: mypass add"),
        UsageCase(arguments: ["add", "v.kdbx", "Work/X", "--field", "novalue"], message: "Error: The value 'novalue' is invalid for '--field': expected NAME=VALUE", usagePrefix: "Usage: mypass add"),
        UsageCase(arguments: ["add", "v.kdbx", "Work/X", "--expires", "tomorrow"], message: "Error: The value 'tomorrow' is invalid for '--expires': expected YYYY-MM-DD, YYYY-MM-DDTHH:MM:SSZ or never", usagePrefix: "Usage: mypass add"),
        UsageCase(arguments: ["edit", "v.kdbx", "Work/X"], message: "Error: Nothing to change: give at least one option such as --username", usagePrefix: "Usage: mypass edit"),
        UsageCase(arguments: ["ls", "v.kdbx", "--no-password"], message: "Error: --no-password needs --keyfile or a hardware key (--yubikey and the like)", usagePrefix: "Usage: mypass ls"),
    ]

    @Test("usage errors exit 2 with the message and the usage", arguments: usageCases)
    func usageErrors(_ testCase: UsageCase) throws {
        // No vault file exists: a usage error must be found before anything is opened or read.
        let scratch = try Scratch()
        let result = try CLI.run(testCase.arguments, stdin: "never-read\n", in: scratch.url)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        let lines = result.stderrText.split(separator: "\n").map(String.init)
        #expect(lines.first == testCase.message)
        #expect(lines.count >= 2 && lines[1].hasPrefix(testCase.usagePrefix))
        #expect(!result.stderrText.contains("never-read"))
    }

    @Test("--name=value equals --name value, and options may come before positionals")
    func optionForms() throws {
        let scratch = try Scratch()
        let vault = try scratch.copy(Demo.vault)
        let spaced = try CLI.run(["ls", vault, "--group", "Work"], stdin: Demo.stdin)
        let joined = try CLI.run(["ls", "--group=Work", vault], stdin: Demo.stdin)
        #expect(spaced.status == 0)
        #expect(spaced.stdoutText == joined.stdoutText)
        #expect(spaced.stdoutText.contains("GitHub"))
        #expect(!spaced.stdoutText.contains("Dropbox"))
    }

    @Test("a later value of a single option wins; repeatable options keep every value")
    func repetition() throws {
        let scratch = try Scratch()
        let vault = try scratch.copy(Demo.vault)
        let last = try CLI.run(["ls", vault, "--search", "nothing-matches", "--search", "bank"], stdin: Demo.stdin)
        #expect(last.stdoutText.split(separator: "\n").map { $0.hasPrefix("Example Bank") } == [true])
        let both = try CLI.run(["ls", vault, "--group", "Work/Email", "--group", "Personal"], stdin: Demo.stdin)
        let titles = both.stdoutText.split(separator: "\n").map { String($0.prefix(while: { $0 != " " })) }
        #expect(titles == ["Company", "Example", "Home", "Dropbox"])
    }

    @Test("-- ends the options: an entry whose title starts with a dash")
    func terminator() throws {
        let scratch = try Scratch()
        let vault = try scratch.copy(Demo.vault)
        let added = try CLI.run(["add", vault, "--username", "dash", "--", "-dash-"], stdin: Demo.stdin)
        #expect(added.status == 0, "\(added.stderrText)")
        let shown = try CLI.run(["show", vault, "--field", "UserName", "--", "-dash-"], stdin: Demo.stdin)
        #expect(shown.status == 0, "\(shown.stderrText)")
        #expect(shown.stdoutText == "dash\n")
        // Without the terminator, the title is taken for an option.
        let mistaken = try CLI.run(["show", vault, "-dash-"], stdin: Demo.stdin)
        #expect(mistaken.status == 2)
        #expect(CLI.firstErrorLine(mistaken) == "Error: Unknown option '-dash-'")
    }

    @Test("--version prints the version of CHANGELOG.md's newest section, a semantic version")
    func version() throws {
        let result = try CLI.run(["--version"])
        #expect(result.status == 0)
        let changelog = try String(
            contentsOf: TestVectors.repositoryRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        // The first "## [VERSION]" heading.
        let heading = changelog.split(separator: "\n").first { $0.hasPrefix("## [") }
        let newest = heading.flatMap { line in line.dropFirst(4).split(separator: "]").first.map(String.init) }
        #expect(newest != nil)
        #expect(result.stdoutText == "\(newest ?? "")\n")
        // MAJOR.MINOR.PATCH with an optional pre-release (semver.org 2.0.0, items 2 and 9).
        let core = (newest ?? "").split(separator: "-", maxSplits: 1).first ?? ""
        let numbers = core.split(separator: ".", omittingEmptySubsequences: false)
        #expect(numbers.count == 3 && numbers.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) })
    }
}
