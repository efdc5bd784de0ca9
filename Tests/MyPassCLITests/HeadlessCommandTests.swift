import Foundation
import MyPassTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `mypass git-credential` with git as the oracle, `mypass run` and `mypass read`.
@Suite("mypass git-credential, run and read")
struct HeadlessCommandTests {
    /// `git credential ACTION` with our helper for `vault`, in a sandbox whose HOME holds no git
    /// configuration; `config` adds `-c` settings.
    static func git(_ git: URL, _ sandbox: AgentSandbox, _ vault: String, _ action: String, _ input: String,
                    helperOptions: String = "", config: [String] = []) throws -> ProcessResult {
        var environment = sandbox.environment
        environment["HOME"] = sandbox.scratch.url.path
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        environment["GIT_TERMINAL_PROMPT"] = "0"
        environment["GIT_ASKPASS"] = nil
        environment["SSH_ASKPASS"] = nil
        let helper = "!'\(CLI.binary.path)' git-credential \(helperOptions) '\(vault)'"
        var arguments = ["-c", "credential.helper=", "-c", "credential.helper=\(helper)"]
        for setting in config { arguments += ["-c", setting] }
        return try runProcess(git, arguments + ["credential", action], stdin: Array(input.utf8), environment: environment)
    }

    static func gitTool(_ test: String) -> URL? {
        guard let git = InteropTools.executable(named: "git") else {
            if let message = InteropTools.missing("git", test: test) { Issue.record(Comment(rawValue: message)) }
            return nil
        }
        return git
    }

    @Test("git credential fill: the matching entry's user name and password; nothing for an unknown host; paths with useHttpPath")
    func fill() throws {
        guard let git = Self.gitTool("git credential fill") else { return }
        let sandbox = try AgentSandbox()
        let vault = try sandbox.scratch.copy("ssh/keeagent.kdbx")
        #expect(try sandbox.run(["unlock", vault], stdin: "ssh-agent-test\n").status == 0)

        let github = try Self.git(git, sandbox, vault, "fill", "url=https://github.com/octocat/hello.git\n\n")
        #expect(github.status == 0, "\(github.stderrText)")
        #expect(github.stdoutText == "protocol=https\nhost=github.com\nusername=octocat\npassword=gh-token-123\n")

        // No entry for the host: the helper answers nothing, and git (no terminal prompts) fails as it would alone.
        let unknown = try Self.git(git, sandbox, vault, "fill", "url=https://unknown.example.org/x.git\n\n")
        #expect(unknown.status == 128)
        #expect(unknown.stdoutText.isEmpty)
        #expect(unknown.stderrText.contains("terminal prompts disabled"), "\(unknown.stderrText)")
        // http is another service than https (another port), as for AutoFill.
        #expect(try Self.git(git, sandbox, vault, "fill", "url=http://github.com\n\n").status == 128)

        // With credential.useHttpPath the path must fit the entry's URL path.
        let config = ["credential.useHttpPath=true"]
        let project = try Self.git(git, sandbox, vault, "fill", "url=https://gitlab.example.com/team/project.git\n\n", config: config)
        #expect(project.stdoutText.contains("username=worker\npassword=lab-secret\n"), "\(project.stderrText)")
        let other = try Self.git(git, sandbox, vault, "fill", "url=https://gitlab.example.com/other/project.git\n\n", config: config)
        #expect(other.status == 128 && other.stdoutText.isEmpty)
        // Without it the host decides.
        let anyPath = try Self.git(git, sandbox, vault, "fill", "url=https://gitlab.example.com/other/project.git\n\n")
        #expect(anyPath.stdoutText.contains("username=worker\n"))
        // A user name in the URL must be the entry's.
        #expect(try Self.git(git, sandbox, vault, "fill", "url=https://someone@github.com\n\n").status == 128)
    }

    @Test("git credential fill with the vault locked and no terminal: the helper says so and git goes on without it")
    func locked() throws {
        guard let git = Self.gitTool("git credential fill, locked") else { return }
        let sandbox = try AgentSandbox()
        let vault = try sandbox.scratch.copy("ssh/keeagent.kdbx")
        let result = try Self.git(git, sandbox, vault, "fill", "url=https://github.com\n\n")
        #expect(result.status == 128)
        #expect(result.stdoutText.isEmpty)
        #expect(result.stderrText.contains("is locked and there is no terminal"), "\(result.stderrText)")
    }

    @Test("git credential approve and reject change nothing without --store; with it they add, update and recycle entries")
    func storeAndErase() throws {
        guard let git = Self.gitTool("git credential approve") else { return }
        let sandbox = try AgentSandbox()
        let vault = try sandbox.scratch.copy("ssh/keeagent.kdbx")
        #expect(try sandbox.run(["unlock", vault], stdin: "ssh-agent-test\n").status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: vault))
        let newHost = "protocol=https\nhost=git.example.net\nusername=newbie\npassword=fresh-secret\n\n"
        #expect(try Self.git(git, sandbox, vault, "approve", newHost).status == 0)
        #expect(try Self.git(git, sandbox, vault, "reject", "protocol=https\nhost=github.com\nusername=octocat\npassword=gh-token-123\n\n").status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: vault)) == before, "no --store: the vault is not touched")

        // --store: a new host is added, then filled from the vault.
        #expect(try Self.git(git, sandbox, vault, "approve", newHost, helperOptions: "--store").status == 0)
        let filled = try Self.git(git, sandbox, vault, "fill", "url=https://git.example.net/repo.git\n\n")
        #expect(filled.stdoutText.contains("username=newbie\npassword=fresh-secret\n"), "\(filled.stderrText)")
        #expect(try sandbox.run(["read", vault, "git.example.net#URL"]).stdoutText == "https://git.example.net\n")
        // A new password for a known login updates its entry (the old one goes to its history).
        let rotated = "protocol=https\nhost=github.com\nusername=octocat\npassword=rotated-token\n\n"
        #expect(try Self.git(git, sandbox, vault, "approve", rotated, helperOptions: "--store").status == 0)
        #expect(try sandbox.run(["read", vault, "Git/github"]).stdoutText == "rotated-token\n")
        // reject with a password that is not the stored one changes nothing; the stored one recycles the entry.
        let wrong = "protocol=https\nhost=github.com\nusername=octocat\npassword=gh-token-123\n\n"
        #expect(try Self.git(git, sandbox, vault, "reject", wrong, helperOptions: "--store").status == 0)
        #expect(try sandbox.run(["read", vault, "Git/github"]).status == 0)
        #expect(try Self.git(git, sandbox, vault, "reject", rotated, helperOptions: "--store").status == 0)
        #expect(try sandbox.run(["read", vault, "Recycle Bin/github"]).stdoutText == "rotated-token\n")
        #expect(try Self.git(git, sandbox, vault, "fill", "url=https://github.com\n\n").status == 128)
    }

    @Test("run: the variables set from the vault, the command's exit status passed through, no value printed")
    func run() throws {
        let sandbox = try AgentSandbox()
        let vault = try sandbox.scratch.copy(Demo.vault)
        let out = sandbox.scratch.path("environment")
        let script = "printf '%s|%s' \"$TOKEN\" \"$LOGIN\" > '\(out)'; exit 7"
        let result = try sandbox.run(["run", vault, "--env", "TOKEN=Work/GitHub", "--env", "LOGIN=Work/GitHub#UserName",
                                      "--", "/bin/sh", "-c", script], stdin: Demo.stdin)
        #expect(result.status == 7, "\(result.stderrText)")
        let password = try sandbox.run(["read", vault, "Work/GitHub"], stdin: Demo.stdin).stdoutText.dropLast()
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "\(password)|sam-dev")
        #expect(!result.stdoutText.contains(String(password)) && !result.stderrText.contains(String(password)))
        // Through the agent, no prompt; arguments after -- are the command's own, options included.
        #expect(try sandbox.run(["unlock", vault], stdin: Demo.stdin).status == 0)
        let echo = try sandbox.run(["run", vault, "--", "/bin/echo", "--help", "-x"])
        #expect(echo.status == 0 && echo.stdoutText == "--help -x\n")
        // Failures before anything runs.
        let marker = sandbox.scratch.path("ran")
        let missing = try sandbox.run(["run", vault, "--env", "X=Work/Nope", "--", "/bin/sh", "-c", "touch '\(marker)'"])
        #expect(missing.status == 1)
        #expect(!FileManager.default.fileExists(atPath: marker))
        #expect(try sandbox.run(["run", vault, "--env", "1X=Work/GitHub", "--", "true"]).status == 2)
        #expect(try sandbox.run(["run", vault, "--env", "X=Work/GitHub", "true"]).status == 2, "the command must follow --")
        let notFound = try sandbox.run(["run", vault, "--", "no-such-command-for-mypass"])
        #expect(notFound.status == 127)
        #expect(CLI.firstErrorLine(notFound).contains("cannot run 'no-such-command-for-mypass'"))
    }

    @Test("read: one field exactly, ENTRY#FIELD, \\# for a # in a title, typed errors")
    func read() throws {
        let sandbox = try AgentSandbox()
        let vault = try sandbox.scratch.copy(Demo.vault)
        #expect(try sandbox.run(["unlock", vault], stdin: Demo.stdin).status == 0)
        let show = try sandbox.run(["show", vault, "Work/GitHub", "--field", "Password"])
        #expect(try sandbox.run(["read", vault, "Work/GitHub"]).stdoutText == show.stdoutText)
        #expect(try sandbox.run(["read", vault, "Work/GitHub#UserName"]).stdoutText == "sam-dev\n")
        #expect(try sandbox.run(["add", vault, "Work/C# build", "--username", "sharp", "--field", "Key=va#lue"]).status == 0)
        #expect(try sandbox.run(["read", vault, "Work/C\\# build#UserName"]).stdoutText == "sharp\n")
        #expect(try sandbox.run(["read", vault, "Work/C\\# build#Key"]).stdoutText == "va#lue\n")
        let noField = try sandbox.run(["read", vault, "Work/GitHub#Nope"])
        #expect(noField.status == 1)
        #expect(CLI.firstErrorLine(noField) == "Error: entry 'Work/GitHub' has no field 'Nope'")
        #expect(try sandbox.run(["read", vault, "Work/Nope"]).status == 1)
    }
}
