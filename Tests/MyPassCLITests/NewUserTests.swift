import Foundation
import MyPassKDBX
import MyPassTestSupport
import Testing

/// What a first trial of mypass by a new user stumbled on: typos, empty passwords, passwd with an
/// unlocked vault, quoted config values.
@Suite("A new user's first steps")
struct NewUserTests {
    let scratch: Scratch

    init() throws { scratch = try Scratch() }

    func mypass(_ arguments: [String], stdin: String = "", environment: [String: String] = [:]) throws -> ProcessResult {
        var base = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": scratch.path("home"),
                    "XDG_CONFIG_HOME": scratch.path("config"), "MYPASS_NO_AGENT": "1"]
        base.merge(environment) { $1 }
        return try runProcess(CLI.binary, arguments, stdin: Array(stdin.utf8), environment: base)
    }

    @Test("An unknown command or option suggests the likely one, or our name for another manager's command (exit 2)",
          arguments: [(["lst"], "did you mean 'ls'?"), (["list"], "did you mean 'ls'?"), (["db-info"], "did you mean 'info'?"),
                      (["get"], "did you mean 'show'?"), (["totpp"], "did you mean 'totp'?"),
                      (["add", "v.kdbx", "X", "--usrname", "sam"], "did you mean '--username'?")])
    func suggestions(_ arguments: [String], _ expected: String) throws {
        let result = try mypass(arguments)
        #expect(result.status == 2)
        #expect(CLI.firstErrorLine(result).hasSuffix(expected), "\(result.stderrText)")
    }

    @Test("An empty new master password is accepted, as KeePass and KeePassXC accept it, with a warning; it opens with an empty line")
    func emptyPassword() throws {
        let vault = scratch.path("empty.kdbx")
        let created = try mypass(["create", vault, "--kdf", "aes", "--rounds", "1000"], stdin: "\n")
        #expect(created.status == 0, "\(created.stderrText)")
        #expect(created.stderrText.contains("Warning: the new master password is empty"))
        #expect(try mypass(["ls", vault], stdin: "\n").status == 0)
        let changed = try mypass(["passwd", vault], stdin: "\nnew\nnew\n")
        #expect(changed.status == 0 && !changed.stderrText.contains("empty"), "\(changed.stderrText)")
    }

    @Test("passwd with no line for the new password says what is missing and how to give it")
    func passwdMissingNewPassword() throws {
        let vault = try scratch.copy(Demo.vault)
        let result = try mypass(["passwd", vault], stdin: Demo.stdin)
        #expect(result.status == 1)
        #expect(CLI.firstErrorLine(result).contains("no new password on standard input (the line after the current password; or --new-no-password with a key file)"),
                "\(result.stderrText)")
    }

    @Test("passwd asks the current password even while the agent holds the vault: same input either way, and proof of the old key")
    func passwdWithAgent() throws {
        let sandbox = try AgentSandbox()
        let vault = try sandbox.scratch.copy(Demo.vault)
        #expect(try sandbox.run(["unlock", vault], stdin: Demo.stdin).status == 0)
        let wrong = try sandbox.run(["passwd", vault], stdin: "not-the-password\nnew\nnew\n")
        #expect(wrong.status == 3, "\(wrong.stderrText)")
        let changed = try sandbox.run(["passwd", vault], stdin: Demo.stdin + "new\nnew\n")
        #expect(changed.status == 0, "\(changed.stderrText)")
        #expect(try sandbox.run(["ls", vault, "--no-agent"], stdin: "new\n").status == 0)
    }

    @Test("A config file's vault value may be quoted, with spaces in the path")
    func quotedConfigValue() throws {
        let folder = scratch.url.appendingPathComponent("with space")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let vault = folder.appendingPathComponent("demo.kdbx").path
        try FileManager.default.copyItem(atPath: TestVectors.url(Demo.vault).path, toPath: vault)
        let config = scratch.url.appendingPathComponent("config/mypass")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        for quoted in ["\"\(vault)\"", "'\(vault)'"] {
            try Data("vault = \(quoted)\n".utf8).write(to: config.appendingPathComponent("config"))
            let listed = try mypass(["show", "Work/GitHub"], stdin: Demo.stdin)
            #expect(listed.status == 0, "\(listed.stderrText)")
            #expect(listed.stdoutText.contains("GitHub"))
        }
    }
}
