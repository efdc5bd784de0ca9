import Foundation
import MyPassTestSupport
import Testing

/// Prompts as a person meets them, in a real terminal (tmux): the entry password asked twice on
/// both paths (the agent holding the vault, and the master password prompt), the password of an
/// import from standard input asked on the terminal.
@Suite("Prompts in a terminal")
struct TerminalPromptTests {
    /// A terminal running `mypass arguments`, then printing its exit status; nil (with the skip
    /// or the failure that MYPASS_REQUIRE_INTEROP asks for) when tmux is missing.
    static func terminal(_ arguments: [String], in scratch: Scratch, environment: [String: String] = [:],
                         before: String = "") throws -> Terminal? {
        guard Terminal.tmux != nil else {
            if let message = InteropTools.missing("tmux", test: "terminal prompts") { Issue.record(Comment(rawValue: message)) }
            return nil
        }
        var base = ["PATH": "/usr/bin:/bin", "HOME": scratch.path("home"), "TERM": "xterm", "MYPASS_NO_AGENT": "1"]
        base.merge(environment) { $1 }
        let command = before + ([CLI.binary.path] + arguments).map(Terminal.quoted).joined(separator: " ")
            + "; echo \"[exit $?]\"; sleep 600"
        return try Terminal(["/bin/sh", "-c", command], in: scratch.url, environment: base)
    }

    /// The entry's password as `show --field Password` prints it (no agent).
    static func password(_ vault: String, _ entry: String) throws -> String {
        let shown = try runProcess(CLI.binary, ["show", vault, entry, "--field", "Password", "--no-agent"], stdin: Array(Demo.stdin.utf8))
        return shown.stdoutText
    }

    @Test("With the agent holding the vault, add --password-prompt asks the entry password twice and refuses two that differ")
    func entryPasswordWithAgent() throws {
        let sandbox = try AgentSandbox()
        let vault = try sandbox.scratch.copy(Demo.vault)
        #expect(try sandbox.run(["unlock", vault], stdin: Demo.stdin).status == 0)
        let agent = ["XDG_RUNTIME_DIR": sandbox.runtime.path, "MYPASS_NO_AGENT": "0"]
        guard let typo = try Self.terminal(["add", vault, "Work/Typo", "--password-prompt"], in: sandbox.scratch, environment: agent) else { return }
        try typo.answer("Entry password:", with: "first-try")
        try typo.answer("Repeat entry password:", with: "first-tyr")
        let refused = try typo.expect("[exit 1]")
        #expect(refused.contains("Error: the two entries of the entry password differ; nothing was changed"))
        #expect(!refused.contains("Password for"), "the agent's keys opened the vault: no master password prompt")
        #expect(try sandbox.run(["show", vault, "Work/Typo"]).status == 1)

        guard let same = try Self.terminal(["add", vault, "Work/Same", "--password-prompt"], in: sandbox.scratch, environment: agent) else { return }
        try same.answer("Entry password:", with: "s3cret-Entry")
        try same.answer("Repeat entry password:", with: "s3cret-Entry")
        try same.expect("[exit 0]")
        #expect(try Self.password(vault, "Work/Same") == "s3cret-Entry\n")
    }

    @Test("Without the agent, edit --password-prompt asks the master password once, then the entry password twice")
    func entryPasswordWithPrompt() throws {
        let scratch = try Scratch()
        let vault = try scratch.copy(Demo.vault)
        guard let typo = try Self.terminal(["edit", vault, "Work/GitHub", "--password-prompt"], in: scratch) else { return }
        try typo.answer("Password for demo.kdbx:", with: Demo.password)
        try typo.answer("Entry password:", with: "new-one")
        try typo.answer("Repeat entry password:", with: "new-on")
        #expect(try typo.expect("[exit 1]").contains("the two entries of the entry password differ"))
        #expect(try Self.password(vault, "Work/GitHub") == "gh-Xq8!vR2#mT5pL\n")

        guard let same = try Self.terminal(["edit", vault, "GitHub", "--password-prompt"], in: scratch) else { return }
        try same.answer("Password for demo.kdbx:", with: Demo.password)
        try same.answer("Entry password:", with: "new-one")
        try same.answer("Repeat entry password:", with: "new-one")
        try same.expect("[exit 0]")
        #expect(try Self.password(vault, "Work/GitHub") == "new-one\n")
    }

    @Test("import VAULT - reads the export from a pipe and asks the master password on the terminal")
    func importFromStandardInput() throws {
        let scratch = try Scratch()
        let vault = try scratch.copy(Demo.vault)
        let export = TestVectors.url("import/bitwarden.json").path
        guard let terminal = try Self.terminal(["import", vault, "-"], in: scratch, before: "cat \(Terminal.quoted(export)) | ") else { return }
        try terminal.answer("Password for demo.kdbx:", with: Demo.password)
        let screen = try terminal.expect("[exit 0]")
        #expect(screen.contains("Note: reading standard input as Bitwarden JSON (bitwarden-json), from its content"))
        #expect(screen.contains("into group 'Import' of"))
        let listed = try runProcess(CLI.binary, ["ls", vault, "Import", "--paths", "--no-agent"], stdin: Array(Demo.stdin.utf8))
        #expect(listed.stdoutText.contains("Import/Work/GitHub\n"), "\(listed.stdoutText)")
    }
}
