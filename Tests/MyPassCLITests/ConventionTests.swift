import Foundation
import MyPassTestSupport
import Testing

/// Issue 19's conventions through the binary: match's output and exit codes, the prompts, the
/// generator, the default vault (MYPASS_VAULT, config file), short options, completion scripts
/// and the manual page.
@Suite("mypass conventions")
struct ConventionTests {
    let scratch: Scratch
    let vault: String

    init() throws {
        scratch = try Scratch()
        vault = try scratch.copy(Demo.vault)
    }

    /// `mypass arguments` with exactly `environment` added to a minimal one (no inherited MYPASS_VAULT).
    func mypass(_ arguments: [String], stdin: String = Demo.stdin, environment: [String: String] = [:]) throws -> ProcessResult {
        var base = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": scratch.path("home"),
                    "XDG_CONFIG_HOME": scratch.path("config")]
        base.merge(environment) { $1 }
        return try runProcess(CLI.binary, arguments, stdin: Array(stdin.utf8), environment: base)
    }

    // MARK: match

    @Test("match prints the suggestions only (others with --all) and exits 0")
    func matchSuggestions() throws {
        let result = try mypass(["match", vault, "github.com"])
        #expect(result.status == 0)
        #expect(result.stdoutText == "Suggestions for github.com:\n  GitHub  sam-dev  Work\n")
        let all = try mypass(["match", vault, "github.com", "--all"])
        #expect(all.status == 0)
        #expect(all.stdoutText.hasPrefix("Suggestions for github.com:\n  GitHub  sam-dev  Work\nOther entries:\n  Welcome"))
        #expect(all.stdoutText.split(separator: "\n").count == 9)
        let json = try #require(try parseJSON(try mypass(["match", vault, "github.com", "--json"]).stdoutText) as? [String: Any])
        #expect(Set(json.keys) == ["suggestions"])
        #expect((json["suggestions"] as? [[String: Any]])?.first?["title"] as? String == "GitHub")
    }

    @Test("match without a suggestion exits 5, with no error line, so scripts can branch")
    func matchNone() throws {
        let result = try mypass(["match", vault, "nothing.example"])
        #expect(result.status == 5)
        #expect(result.stdoutText == "Suggestions for nothing.example:\n  (none)\n")
        #expect(result.stderrText.isEmpty)
        #expect(try mypass(["match", vault, "nothing.example", "--json"]).status == 5)
        #expect(try mypass(["help", "match"]).stdoutText.contains("5 when there is none"))
    }

    @Test("match on the 5,028-entry vault prints its suggestions, not every entry")
    func matchLargeVault() throws {
        let fixture = Fixture.named("kdbx31-large-5000")
        let path = TestVectors.url(fixture.vaultPath).path
        let result = try mypass(["match", path, "host98.example.net"], stdin: fixture.stdin)
        #expect(result.status == 0)
        let lines = result.stdoutText.split(separator: "\n")
        #expect(lines.first == "Suggestions for host98.example.net:")
        #expect(lines.count > 1 && lines.count < 20)
        let all = try mypass(["match", path, "host98.example.net", "--all"], stdin: fixture.stdin)
        #expect(all.stdoutText.split(separator: "\n").count == 5029)
    }

    // MARK: prompts

    @Test("a missing entry-password line says so")
    func missingEntryPassword() throws {
        let result = try mypass(["add", vault, "Work/New", "--password-prompt"])
        #expect(result.status == 1)
        #expect(CLI.firstErrorLine(result).hasPrefix("Error: no entry password on standard input (one line each, in this order:"))
    }

    @Test("--protected-field-prompt reads the value after the passwords, stored protected")
    func protectedFieldPrompt() throws {
        let result = try mypass(["add", vault, "Work/Safe", "--password-prompt", "--protected-field-prompt", "PIN",
                                 "--protected-field-prompt", "PUK"], stdin: "demo\nentry-pw\n1234\n5678\n")
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(try mypass(["show", vault, "Work/Safe", "--field", "PIN"]).stdoutText == "1234\n")
        #expect(try mypass(["show", vault, "Work/Safe", "--field", "PUK"]).stdoutText == "5678\n")
        #expect(try mypass(["show", vault, "Work/Safe", "--field", "Password"]).stdoutText == "entry-pw\n")
        let missing = try mypass(["edit", vault, "Work/Safe", "--protected-field-prompt", "PIN"])
        #expect(missing.status == 1)
        #expect(CLI.firstErrorLine(missing).hasPrefix("Error: no value of protected field 'PIN' on standard input"))
        guard let after = try Interop.kporacleDump(vault, password: Demo.password, test: "protectedFieldPrompt") else { return }
        let entry = try #require(Interop.entry(after, titled: "Safe"))
        #expect(Interop.fieldValue(entry, "PIN") == "1234")
        #expect(Interop.fieldProtected(entry, "PIN") == true)
    }

    /// Runs `mypass` on a pseudo-terminal (Python's pty module), answering each prompt in turn.
    func onTerminal(_ arguments: [String], answers: [(prompt: String, reply: String)]) throws -> (status: Int32, output: String)? {
        guard let python = InteropTools.executable(named: "python3") else {
            if let message = InteropTools.missing("python3", test: "terminal prompts") { Issue.record(Comment(rawValue: message)) }
            return nil
        }
        let script = """
            import os, pty, sys, json, select, time
            args, answers = json.loads(sys.argv[1]), json.loads(sys.argv[2])
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(args[0], args)
            out = b""
            deadline = time.time() + 60
            def read_until(text):
                global out
                while text.encode() not in out and time.time() < deadline:
                    r, _, _ = select.select([fd], [], [], 0.2)
                    if r:
                        try: out += os.read(fd, 4096)
                        except OSError: return
            for prompt, reply in answers:
                read_until(prompt)
                time.sleep(0.05)
                os.write(fd, reply.encode() + b"\\n")
                out = out.replace(prompt.encode(), b"[" + prompt.encode() + b"]", 1)
            while time.time() < deadline:
                r, _, _ = select.select([fd], [], [], 0.2)
                if r:
                    try:
                        chunk = os.read(fd, 4096)
                    except OSError:
                        break
                    if not chunk: break
                    out += chunk
            _, status = os.waitpid(pid, 0)
            sys.stdout.write(out.decode("utf-8", "replace"))
            sys.exit(os.WEXITSTATUS(status))
            """
        let argumentsJSON = try JSONSerialization.data(withJSONObject: [CLI.binary.path] + arguments)
        let answersJSON = try JSONSerialization.data(withJSONObject: answers.map { [$0.prompt, $0.reply] })
        let result = try runProcess(python, ["-c", script, String(decoding: argumentsJSON, as: UTF8.self),
                                             String(decoding: answersJSON, as: UTF8.self)])
        return (result.status, result.stdoutText)
    }

    @Test("on a terminal the entry password is asked twice and compared")
    func entryPasswordTwiceOnTerminal() throws {
        guard let differ = try onTerminal(["add", vault, "Work/Tty", "--password-prompt"], answers: [
            ("Password for demo.kdbx: ", "demo"), ("Entry password: ", "one"), ("Repeat entry password: ", "two"),
        ]) else { return }
        #expect(differ.status == 1)
        #expect(differ.output.contains("Error: the two entries of the entry password differ; nothing was changed"))
        guard let same = try onTerminal(["add", vault, "Work/Tty", "--password-prompt"], answers: [
            ("Password for demo.kdbx: ", "demo"), ("Entry password: ", "tty-pw"), ("Repeat entry password: ", "tty-pw"),
        ]) else { return }
        #expect(same.status == 0, "\(same.output)")
        #expect(same.output.contains("Added entry 'Work/Tty'"))
        #expect(!same.output.contains("tty-pw"))
        #expect(try mypass(["show", vault, "Work/Tty", "--field", "Password"]).stdoutText == "tty-pw\n")
    }

    // MARK: generator

    @Test("generate --symbols: - and _ are not in every password")
    func symbolsNotForced() throws {
        var withMinus = 0
        for _ in 0..<40 {
            let password = String(try mypass(["generate", "--symbols"]).stdoutText.dropLast())
            #expect(password.count == 20)
            if password.contains("-") { withMinus += 1 }
        }
        // Each password holds a '-' with probability about 0.56 (20 draws from 32 symbols, one forced);
        // forced in, it would be 40 of 40 (the chance of that here is 0.56^40, about 1e-10).
        #expect(withMinus < 40, "\(withMinus) of 40 passwords contain '-'")
    }

    @Test("the too-short error counts the classes asked for")
    func tooShort() throws {
        let result = try mypass(["generate", "--symbols", "--lower", "--length", "1"])
        #expect(result.status == 1)
        #expect(CLI.firstErrorLine(result) == "Error: cannot generate a password: length 1 is less than the 2 character classes asked for")
        #expect(try mypass(["generate", "--symbols", "--length", "1"]).status == 0)
    }

    @Test("generate --words N [--separator S]: EFF words")
    func diceware() throws {
        let list = Set(try TestVectors.text("wordlist/eff_large_wordlist.txt").split(separator: "\n").map { String($0.split(separator: "\t")[1]) })
        let spaced = try mypass(["generate", "--words", "6"]).stdoutText
        #expect(spaced.last == "\n")
        let words = spaced.dropLast().split(separator: " ", omittingEmptySubsequences: false)
        #expect(words.count == 6 && words.allSatisfy { list.contains(String($0)) })
        let dotted = try mypass(["generate", "--words", "4", "--separator", "."]).stdoutText.dropLast()
        #expect(dotted.split(separator: ".").count == 4)
        let mixed = try mypass(["generate", "--words", "4", "--length", "10"])
        #expect(mixed.status == 2)
        #expect(try mypass(["generate", "--separator", "-"]).status == 2)
        #expect(try mypass(["generate", "--words", "0"]).status == 2)
        let added = try mypass(["add", vault, "Personal/Phrase", "--generate", "--words", "5", "--separator", "-"])
        #expect(added.status == 0)
        let phrase = try mypass(["show", vault, "Personal/Phrase", "--field", "Password"]).stdoutText.dropLast()
        #expect(phrase.split(separator: "-").allSatisfy { list.contains(String($0)) || ["drop", "down", "felt", "tip", "t", "shirt", "yo"].contains(String($0)) })
    }

    // MARK: default vault and short options

    @Test("MYPASS_VAULT and the config file name the vault when it is left out; the environment wins")
    func defaultVault() throws {
        let byEnvironment = try mypass(["show", "Work/GitHub", "--field", "UserName"], environment: ["MYPASS_VAULT": vault])
        #expect(byEnvironment.status == 0, "\(byEnvironment.stderrText)")
        #expect(byEnvironment.stdoutText == "sam-dev\n")
        try FileManager.default.createDirectory(atPath: scratch.path("config/mypass"), withIntermediateDirectories: true)
        let other = try scratch.copy("cli/paths.kdbx")
        _ = try scratch.write("config/mypass/config", Array("# mypass\n\nvault = \(other)\n".utf8))
        #expect(try mypass(["ls", "--paths"]).stdoutText.hasSuffix("CI\\/CD/deploy\\\\key\n"))
        #expect(try mypass(["ls", "--paths"], environment: ["MYPASS_VAULT": vault]).stdoutText.hasSuffix("Personal/Dropbox\n"))
        // A named vault wins over both.
        #expect(try mypass(["ls", vault, "--paths"]).stdoutText.hasSuffix("Personal/Dropbox\n"))
        // ~/ is the home directory.
        try FileManager.default.createDirectory(atPath: scratch.path("home"), withIntermediateDirectories: true)
        _ = try scratch.copy(Demo.vault, as: "home/mine.kdbx")
        _ = try scratch.write("config/mypass/config", Array("vault = ~/mine.kdbx\n".utf8))
        #expect(try mypass(["show", "Work/Jira", "--field", "UserName"]).stdoutText == "sam@example.com\n")
    }

    @Test("a config file with an unknown key is an error naming the line; no default is a usage error")
    func badConfig() throws {
        try FileManager.default.createDirectory(atPath: scratch.path("config/mypass"), withIntermediateDirectories: true)
        _ = try scratch.write("config/mypass/config", Array("# comment\nvalt = x.kdbx\n".utf8))
        let bad = try mypass(["ls"])
        #expect(bad.status == 1)
        #expect(CLI.firstErrorLine(bad) == "Error: config file '\(scratch.path("config/mypass/config"))' line 2: unknown key 'valt' (the one key is 'vault')")
        try FileManager.default.removeItem(atPath: scratch.path("config/mypass/config"))
        let none = try mypass(["ls"])
        #expect(none.status == 2)
        #expect(CLI.firstErrorLine(none) == "Error: Missing expected argument '<vault>'")
    }

    @Test("-k is --keyfile and -q is --quiet")
    func shortOptions() throws {
        let fixture = Fixture.named("kdbx4-keyfile-only")
        let path = TestVectors.url(fixture.vaultPath).path
        let keyFile = TestVectors.url("kdbx/" + fixture.keyFile!).path
        let result = try mypass(["ls", path, "-k", keyFile, "--no-password", "-q", "--paths"], stdin: "")
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText.hasPrefix("Sample Entry\n"))
        #expect(result.stderrText.isEmpty)
        let help = try mypass(["help", "show"]).stdoutText
        #expect(help.contains("-k, --keyfile <path>") && help.contains("-q, --quiet"))
    }

    // MARK: completion and manual

    /// The top-level command names as `mypass --help` lists them.
    func commandNames() throws -> [String] {
        let help = try mypass(["--help"]).stdoutText
        let section = help.components(separatedBy: "SUBCOMMANDS:\n")[1].components(separatedBy: "\n\n")[0]
        return section.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    @Test("the bash script completes a subcommand, an option and an entry path")
    func bashCompletion() throws {
        guard let bash = InteropTools.executable(named: "bash") else {
            if let message = InteropTools.missing("bash", test: "bashCompletion") { Issue.record(Comment(rawValue: message)) }
            return
        }
        let script = try scratch.write("mypass.bash", try mypass(["completion", "bash"]).stdout)
        let fixture = Fixture.named("kdbx4-keyfile-only")
        let path = TestVectors.url(fixture.vaultPath).path
        let keyFile = TestVectors.url("kdbx/" + fixture.keyFile!).path
        let driver = """
            PATH="\(CLI.binary.deletingLastPathComponent().path):$PATH"
            source "\(script)"
            comp() { COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=(); _mypass; printf '%s\\n' "${COMPREPLY[@]}"; echo ---; }
            comp mypass sh
            comp mypass attachment ex
            comp mypass ls --pa
            comp mypass show "\(path)" -k "\(keyFile)" --no-password 'Work/Email/S'
            comp mypass completion ''
            comp mypass show "\(vault)" 'Work/'
            """
        let result = try runProcess(bash, ["-c", driver], environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"])
        #expect(result.status == 0, "\(result.stderrText)")
        let answers = result.stdoutText.components(separatedBy: "---\n")
        #expect(answers.count == 7)
        guard answers.count == 7 else { return }
        #expect(answers[0] == "show\n")
        #expect(answers[1] == "export\n")
        #expect(answers[2] == "--paths\n")
        #expect(answers[3] == (0..<7).map { "Work/Email/Site \(String(format: "%02d", 1 + 3 * $0))\n" }.joined())
        #expect(answers[4] == "bash\nzsh\nfish\n")
        // A vault that needs a password is never asked for one: nothing is offered.
        #expect(answers[5] == "\n")
    }

    @Test("every command of --help is in the bash, zsh and fish scripts and in the manual page")
    func everyCommandEverywhere() throws {
        let names = try commandNames()
        #expect(names.contains("completion") && names.contains("ls") && names.count >= 18)
        let bash = try mypass(["completion", "bash"]).stdoutText
        let zsh = try mypass(["completion", "zsh"]).stdoutText
        let fish = try mypass(["completion", "fish"]).stdoutText
        let man = try mypass(["help", "--man"]).stdoutText
        #expect(zsh.hasPrefix("#compdef mypass\n"))
        #expect(man.hasPrefix(".TH MYPASS 1 "))
        for name in names where name != "help" {
            #expect(bash.contains(" \(name) ") || bash.contains("\"\(name) "), "bash: \(name)")
            #expect(zsh.contains("'\(name):"), "zsh: \(name)")
            #expect(fish.contains("-a \(name) -d"), "fish: \(name)")
            // roff writes a hyphen as \- (ssh-agent: .SS ssh\-agent).
            #expect(man.contains(".SS \(name.replacingOccurrences(of: "-", with: "\\-"))"), "man: \(name)")
        }
        #expect(try mypass(["completion", "tcsh"]).status == 2)
    }

    @Test("help --man renders with man(1), with the help text's own words")
    func manualPage() throws {
        let man = try mypass(["help", "--man"]).stdoutText
        #expect(man.contains(".SS match\nShow what AutoFill suggests for a URL or domain, best first.\n"))
        #expect(man.contains("\\fB\\-k\\fR, \\fB\\-\\-keyfile\\fR \\fI<path>\\fR"))
        guard let manTool = InteropTools.executable(named: "man") else {
            if let message = InteropTools.missing("man", test: "manualPage") { Issue.record(Comment(rawValue: message)) }
            return
        }
        let page = try scratch.write("mypass.1", Array(man.utf8))
        let rendered = try runProcess(manTool, ["-l", page], environment: ["MANWIDTH": "100", "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"])
        #expect(rendered.status == 0, "\(rendered.stderrText)")
        #expect(rendered.stdoutText.contains("mypass - a KeePass (KDBX) password manager"))
        #expect(rendered.stdoutText.contains("5 no match"))
    }
}
