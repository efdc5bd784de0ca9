import Foundation
import MyPassTestSupport
import Testing

/// The completion scripts loaded into real bash, zsh and fish in a terminal (tmux), completing
/// with Tab as a person does: an entry path with an escaped `/` and a space, which must reach the
/// command intact (the completed line is run), group paths for `--group`, `mkdir` and `mv`, and
/// the values an option lists.
@Suite("Completion in bash, zsh and fish")
struct CompletionShellTests {
    enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    /// A key-file-only vault (so that completion opens it without a prompt) with an entry whose
    /// group name holds a `/` and whose title holds a space, and a group Work with an entry.
    static func vault(in scratch: Scratch) throws -> (vault: String, keyArguments: String) {
        let vault = scratch.path("v.kdbx"), key = scratch.path("v.key")
        let keys = ["--keyfile", key, "--no-password", "--no-agent"]
        func mypass(_ arguments: [String]) throws {
            let result = try runProcess(CLI.binary, arguments, environment: ["MYPASS_NO_AGENT": "1"])
            #expect(result.status == 0, "\(arguments): \(result.stderrText)")
        }
        try mypass(["create", vault, "--generate-keyfile", key, "--no-password", "--kdf", "aes", "--rounds", "1000"])
        try mypass(["mkdir", vault, "CI\\/CD"] + keys)
        try mypass(["add", vault, "CI\\/CD/deploy key", "--username", "ci-bot"] + keys)
        try mypass(["mkdir", vault, "Work"] + keys)
        try mypass(["add", vault, "Work/GitHub", "--username", "sam"] + keys)
        return (vault, "-k v.key --no-password")
    }

    /// A terminal running `shell` with only `mypass` completion loaded (no user configuration),
    /// in `scratch`, where `mypass` is on PATH.
    static func terminal(_ shell: Shell, scratch: Scratch) throws -> Terminal? {
        guard Terminal.tmux != nil, let executable = InteropTools.executable(named: shell.rawValue) else {
            if let message = InteropTools.missing("tmux and \(shell.rawValue)", test: "\(shell.rawValue) completion") {
                Issue.record(Comment(rawValue: message))
            }
            return nil
        }
        let bin = scratch.url.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin.appendingPathComponent("mypass").path, withDestinationPath: CLI.binary.path)
        let script = try runProcess(CLI.binary, ["completion", shell.rawValue]).stdout
        var environment = ["PATH": bin.path + ":/usr/bin:/bin", "HOME": scratch.path("home"), "TERM": "xterm", "MYPASS_NO_AGENT": "1"]
        let arguments: [String]
        let setup: String
        switch shell {
        case .bash:
            _ = try scratch.write("mypass.bash", script)
            arguments = [executable.path, "--norc", "--noprofile"]
            setup = "PS1='$ '; source mypass.bash"
        case .zsh:
            try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("zfunc"), withIntermediateDirectories: true)
            _ = try scratch.write("zfunc/_mypass", script)
            arguments = [executable.path, "-f"]
            setup = "PS1='$ '; fpath=(\(scratch.path("zfunc")) $fpath); autoload -U compinit; compinit -u -D"
        case .fish:
            _ = try scratch.write("mypass.fish", script)
            environment["XDG_CONFIG_HOME"] = scratch.path("config")
            environment["XDG_DATA_HOME"] = scratch.path("data")
            arguments = [executable.path, "--no-config"]
            setup = "function fish_prompt; echo '$ '; end; source mypass.fish"
        }
        let terminal = try Terminal(arguments, in: scratch.url, environment: environment)
        try terminal.type(setup)
        try terminal.press("Enter")
        try terminal.type("clear; echo ready")
        try terminal.press("Enter")
        try terminal.expect("ready")
        return terminal
    }

    /// On a cleared screen, types `line`, presses Tab and waits until `completed` shows (the
    /// completion went in).
    static func complete(_ terminal: Terminal, _ line: String, expecting completed: String) throws {
        try terminal.press("C-u")
        try terminal.press("C-l")
        _ = try terminal.wait(for: 5) { $0.split(separator: "\n").count <= 1 }
        try terminal.type(line)
        try terminal.press("Tab")
        let (matched, screen) = try terminal.wait { $0.contains(completed) }
        #expect(matched, "'\(line)' + Tab did not give '\(completed)'; the screen:\n\(screen)")
    }

    @Test("Tab completes entry paths (with \\/ and a space), group paths and option values; the completed lines run",
          arguments: Shell.allCases)
    func completes(_ shell: Shell) throws {
        let scratch = try Scratch()
        let (_, keys) = try Self.vault(in: scratch)
        guard let terminal = try Self.terminal(shell, scratch: scratch) else { return }
        // An entry: the shell quotes what it inserts, so the command gets the path as ls --paths prints it.
        try Self.complete(terminal, "mypass show \(keys) v.kdbx CI", expecting: "deploy\\ key")
        try terminal.press("Enter")
        #expect(try terminal.expect("Title: deploy key").contains("UserName: ci-bot"))
        // --group takes a group path.
        try Self.complete(terminal, "mypass ls \(keys) v.kdbx --group W", expecting: "--group Work/")
        try terminal.press("Enter")
        try terminal.expect("GitHub  sam  Work")
        // mkdir's path starts with a group; nothing is put after the group's /.
        try Self.complete(terminal, "mypass mkdir \(keys) v.kdbx CI", expecting: "CI\\\\/CD/")
        try terminal.type("Nightly")
        try terminal.press("Enter")
        try terminal.expect("Added group 'CI\\/CD/Nightly'")
        // mv: the entry, then its destination group.
        try Self.complete(terminal, "mypass mv \(keys) v.kdbx Work/Git", expecting: "v.kdbx Work/GitHub")
        try Self.complete(terminal, "mypass mv \(keys) v.kdbx Work/GitHub CI\\\\/CD/Ni", expecting: "CI\\\\/CD/Nightly/")
        try terminal.press("Enter")
        try terminal.expect("Moved entry 'Work/GitHub' to 'CI\\/CD/Nightly'")
        // Option values listed in the option's value name.
        try Self.complete(terminal, "mypass export \(keys) v.kdbx --format x", expecting: "--format xml")
        try Self.complete(terminal, "mypass settings \(keys) v.kdbx --cipher tw", expecting: "--cipher twofish")
        try Self.complete(terminal, "mypass import \(keys) v.kdbx e.json --from bit", expecting: "--from bitwarden-json")
        try terminal.press("C-u")
    }
}
