#if canImport(Glibc)
import Glibc
#endif
import Foundation
import MyPassTestSupport
import Testing

/// `mypass browse` in a real terminal (issue 35): tmux runs it in a detached session of a given
/// size; keys go in with `send-keys`, the screen comes back with `capture-pane -p`. Every step
/// waits for the screen it expects with bounded polling (never a fixed sleep), so a loaded
/// machine only makes the test slower.
final class TmuxScreen {
    let tmux: URL
    /// A directory of this screen's own (mode 0700) for the server's socket (`tmux -S`), removed
    /// with it: tmux 3.3 leaves its socket file behind after `kill-server`, so a socket named
    /// with `-L` in the shared `/tmp/tmux-UID` would pile up there, one per test run.
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mypass-browse-\(UUID().uuidString.prefix(8))").path
    /// The server's socket.
    var socket: String { directory + "/tmux.sock" }
    let name = "browse"
    /// The server's process id (0 until known), to end it when `kill-server` did not.
    private(set) var serverPID: pid_t = 0
    private var isClosed = false

    /// Starts `command` (run by `sh -c`) in a `columns`x`rows` window; after it ends the shell
    /// prints `EXIT=<status>` and the terminal's echo and canonical flags, then waits.
    init?(command: String, columns: Int = 100, rows: Int = 30, test: String) throws {
        guard let tmux = InteropTools.executable(named: "tmux") else {
            if let message = InteropTools.missing("tmux", test: test) { Issue.record(Comment(rawValue: message)) }
            return nil
        }
        self.tmux = tmux
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        // The pane's shell waits at most 300 s after the command: a server whose test process
        // died before closing it still ends by itself then (tmux exits when no session is left).
        let script = command + "; echo \"EXIT=$?\"; stty -a | tr ' ;' '\\n\\n' | grep -x -e echo -e -echo -e icanon -e -icanon | tr '\\n' ' '; echo; sleep 300"
        let started = (status: try run(["-f", "/dev/null", "new-session", "-d", "-s", name, "-x", String(columns), "-y", String(rows),
                                        "sh", "-c", script]).status, stderrText: "")
        #expect(started.status == 0, "tmux: \(started.stderrText)")
        serverPID = pid_t(try run(["display-message", "-p", "#{pid}"]).output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        _ = try run(["set-option", "-g", "set-clipboard", "on"])
    }

    /// Ends the server however the test ended (a failed step throws, and the value goes then too).
    deinit { close() }

    /// Ends the server and removes its socket and directory: `kill-server`, then SIGKILL when the
    /// server still runs after 5 s (only a process whose command line names our socket).
    func close() {
        guard !isClosed else { return }
        isClosed = true
        _ = try? run(["kill-server"])
        if serverPID > 0 {
            let deadline = Date(timeIntervalSinceNow: 5)
            while Self.isServer(serverPID, socket: socket) && Date() < deadline { usleep(20_000) }
            if Self.isServer(serverPID, socket: socket) {
                kill(serverPID, SIGKILL)
                let killed = Date(timeIntervalSinceNow: 2)
                while Self.isServer(serverPID, socket: socket) && Date() < killed { usleep(20_000) }
            }
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Whether `pid` is a live (not a zombie) tmux process started with `socket`.
    static func isServer(_ pid: pid_t, socket: String) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let state = stat.split(separator: ")").last?.split(separator: " ").first, state != "Z",
              let cmdline = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline")
        else { return false }
        return cmdline.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == socket }
    }

    /// Runs `tmux -S SOCKET arguments` and returns its status and standard output. With
    /// posix_spawn and waitpid rather than Foundation's Process: the tmux server that the first
    /// command starts outlives its client and must inherit nothing of ours (stdin and stderr are
    /// /dev/null, stdout a file, every other descriptor closed: another test's pipe held open by
    /// the server would keep that test waiting for its end). No signal blocked or ignored either:
    /// the test runner's blocked mask, inherited, let the pane's shell ignore the SIGHUP of
    /// `kill-server`, and the server waited for it (up to the shell's `sleep`).
    func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try TmuxScreen.spawnAndWait(tmux, ["-S", socket] + arguments)
    }

    /// Runs `executable arguments...` to its end as described above (`environment`: nil, ours),
    /// and returns its exit status and standard output.
    static func spawnAndWait(_ executable: URL, _ arguments: [String],
                             environment: [String: String]? = nil) throws -> (status: Int32, output: String) {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("mypass-tmux-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        if let closeFrom = Terminal.addCloseFrom { _ = closeFrom(&actions, 3) }
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw CocoaError(.executableLoad) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        return ((status >> 8) & 0xFF, output)
    }

    /// Sends keys (tmux key names: `Enter`, `Escape`, `Tab`, `Space`, `C-c`; or literal text with `literal`).
    func send(_ keys: String..., literal: Bool = false) throws {
        _ = try run(["send-keys", "-t", name] + (literal ? ["-l"] : []) + keys)
    }

    /// The screen now.
    func capture() throws -> String {
        try run(["capture-pane", "-p", "-t", name]).output
    }

    /// Waits (polling, at most 60 s) until the screen satisfies `condition`; returns it.
    @discardableResult
    func waitFor(_ what: String, _ condition: (String) -> Bool, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let deadline = Date(timeIntervalSinceNow: 60)
        var screen = ""
        while Date() < deadline {
            screen = try capture()
            if condition(screen) { return screen }
            usleep(30_000)
        }
        Issue.record("the screen never showed \(what):\n\(screen)", sourceLocation: sourceLocation)
        throw CancellationError()
    }

    /// Waits until the screen contains `text`.
    @discardableResult
    func waitFor(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try waitFor("'\(text)'", { $0.contains(text) }, sourceLocation: sourceLocation)
    }

    /// Waits until the screen contains every text of `all` and none of `none`. A frame reaches the
    /// terminal in pieces (a loaded machine shows half-drawn screens), so a step waits for all it
    /// asserts instead of asserting on the first screen that shows one part of it.
    @discardableResult
    func waitFor(all: [String], none: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try waitFor("all of \(all) and none of \(none)", { screen in
            all.allSatisfy { screen.contains($0) } && !none.contains { screen.contains($0) }
        }, sourceLocation: sourceLocation)
    }

    /// Waits until the command exited with `status` and the shell printed the terminal's flags.
    @discardableResult
    func waitForExit(_ status: Int, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try waitFor("EXIT=\(status) and the terminal's flags", { screen in
            guard let range = screen.range(of: "EXIT=\(status)\n") else { return false }
            return screen[range.upperBound...].contains("icanon")
        }, sourceLocation: sourceLocation)
    }

    /// Waits for the master password prompt and for the terminal's echo to be off (the prompt is
    /// written before the echo goes off, and turning it off discards what was typed before).
    func waitForPasswordPrompt(sourceLocation: SourceLocation = #_sourceLocation) throws {
        try waitFor("Password for demo.kdbx", sourceLocation: sourceLocation)
        let tty = try run(["display-message", "-p", "-t", name, "#{pane_tty}"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        let deadline = Date(timeIntervalSinceNow: 60)
        while Date() < deadline {
            let flags = try runProcess(URL(fileURLWithPath: "/bin/stty"), ["-F", tty, "-a"]).stdoutText
            if flags.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).contains("-echo") { return }
            usleep(20_000)
        }
        Issue.record("the terminal's echo never went off at the password prompt", sourceLocation: sourceLocation)
    }

    func resize(_ columns: Int, _ rows: Int) throws {
        let result = try run(["resize-window", "-t", name, "-x", String(columns), "-y", String(rows)])
        #expect(result.status == 0)
    }

    func bufferContents() throws -> String {
        try run(["show-buffer"]).output
    }

    /// The process id of the command (the shell's child).
    func commandPID() throws -> Int32? {
        let shell = try run(["list-panes", "-t", name, "-F", "#{pane_pid}"]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let children = try String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        return children.split(separator: " ").first.flatMap { Int32($0) }
    }
}

@Suite("mypass browse in a terminal (tmux)", .serialized)
struct BrowseTerminalTests {
    /// The environment of the command: no agent, no clipboard tool (copies go out as OSC 52).
    static func command(_ arguments: String) -> String {
        "env -u DISPLAY -u WAYLAND_DISPLAY MYPASS_NO_AGENT=1 TERM=xterm-256color '\(CLI.binary.path)' \(arguments)"
    }

    @Test func theServerAndItsSocketGoWithTheScreenEvenWhenAStepFails() throws {
        var server: (pid: pid_t, socket: String, directory: String)?
        do {
            guard let screen = try TmuxScreen(command: "echo ready", test: "tmux clean-up") else { return }
            try screen.waitFor("ready")
            server = (screen.serverPID, screen.socket, screen.directory)
            throw CancellationError()  // a failed step: the screen goes as the error leaves the scope
        } catch is CancellationError {}
        let (pid, socket, directory) = try #require(server)
        #expect(pid > 0)
        #expect(!TmuxScreen.isServer(pid, socket: socket), "the tmux server \(pid) still runs")
        #expect(!FileManager.default.fileExists(atPath: socket) && !FileManager.default.fileExists(atPath: directory))
    }

    @Test func refusesWithoutATerminal() throws {
        let scratch = try Scratch()
        let vault = try scratch.copy("demo/demo.kdbx")
        let piped = try CLI.run(["browse", vault], stdin: "demo\n")
        #expect(piped.status == 2)
        #expect(CLI.firstErrorLine(piped).contains("browse runs in a terminal only") && piped.stderrText.contains("'mypass ls' or 'mypass show'"))
        guard let screen = try TmuxScreen(command: "TERM=dumb " + Self.command("browse \(vault)").replacingOccurrences(of: "TERM=xterm-256color ", with: ""),
                                          test: "browse TERM=dumb") else { return }
        let shown = try screen.waitFor("EXIT=2")
        #expect(shown.contains("TERM=dumb"))
    }

    @Test func aSessionFromUnlockToQuit() throws {
        let scratch = try Scratch()
        let vault = try scratch.copy("demo/demo.kdbx")
        guard let screen = try TmuxScreen(command: Self.command("browse \(vault)"), test: "browse session") else { return }
        try screen.waitForPasswordPrompt()
        try screen.send("demo", literal: true)
        try screen.send("Enter")
        try screen.waitFor(all: ["(7 of 7)", "Groups", "Company Mail", "Work > Email", "? keys", "q quit"])

        // Filter: the Work group (with Email) ticked in the sidebar.
        try screen.send("Tab", "j", "Space")
        try screen.waitFor(all: ["(3 of 7)", "[x] Work", "[-] Demo", "Jira"], none: ["Example Bank"])

        // Search inside the filter; Esc leaves the search line, Esc again clears it.
        try screen.send("Tab", "/")
        try screen.send("mail", literal: true)
        try screen.waitFor(all: ["(1 of 7)", "Company Mail"], none: ["Jira"])
        try screen.send("Escape")
        try screen.send("Escape")
        try screen.waitFor("(3 of 7)")

        // Open GitHub: the detail with the live TOTP code; reveal; copy (OSC 52 into tmux's buffer).
        try screen.send("/")
        try screen.send("github", literal: true)
        try screen.send("Enter")
        try screen.waitFor(all: ["User name: sam-dev", "Password: ••••••••", "TOTP: ", "Tags: dev, 2fa"])
        try screen.send("r")
        try screen.waitFor("Password: gh-Xq8!vR2#mT5pL")
        try screen.send("c")
        try screen.waitFor("Copied the password of 'GitHub'; cleared in 30 s.")
        #expect(try screen.bufferContents() == "gh-Xq8!vR2#mT5pL")

        // Add: the form's group is the filter's sole group (Work).
        try screen.send("Escape")
        try screen.waitFor("(3 of 7)")
        try screen.send("a")
        try screen.waitFor(all: ["Add an entry", "◀ Demo / Work ▶"])
        try screen.send("Added 東京 ✓", literal: true)
        try screen.send("Tab")
        try screen.send("bob", literal: true)
        try screen.send("Tab", "C-g", "Enter")
        try screen.waitFor(all: ["Saved 'Added 東京 ✓' in Demo / Work.", "(4 of 8)"])

        // Edit the new entry's user name.
        try screen.send("e")
        try screen.waitFor("Edit the entry")
        try screen.send("Tab", "BSpace", "BSpace", "BSpace")
        try screen.send("carol", literal: true)
        try screen.send("Enter")
        try screen.waitFor("carol · Work")

        // Delete it to the recycle bin, after a confirmation.
        try screen.send("d")
        try screen.waitFor("to the recycle bin? (y/n)")
        try screen.send("y")
        try screen.waitFor(all: ["Moved to the recycle bin and saved."], none: ["carol"])

        // Lock: nothing of the vault on screen; unlock by password.
        try screen.send("L")
        try screen.waitFor(all: ["locked", "Password:"], none: ["GitHub", "sam-dev"])
        try screen.send("demo", literal: true)
        try screen.send("Enter")
        try screen.waitFor("Unlocked.")

        // Resize: 80x24 lays out, smaller shows the notice, 200x60 lays out again.
        try screen.resize(80, 24)
        try screen.waitFor("the 80x24 layout", { screen in
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            return lines.first?.contains("Search:") == true && screen.contains("Entries") && lines.count <= 25
                && lines.dropFirst(23).first?.contains("? keys") == true
        })
        try screen.resize(79, 24)
        try screen.waitFor("Enlarge the window to at least 80x24 (it is 79x24).")
        try screen.resize(200, 60)
        try screen.waitFor(all: ["Search:", "Groups", "Company Mail", "? keys"])

        // Help, then quit: the normal screen is back with nothing of the vault, the terminal cooked again.
        try screen.send("?")
        try screen.waitFor("mypass browse: keys")
        try screen.send("Escape", "q")
        let shown = try screen.waitForExit(0)
        #expect(!shown.contains("GitHub") && !shown.contains("sam-dev") && !shown.contains("Search:"))
        #expect(shown.contains("echo") && shown.contains("icanon") && !shown.contains("-echo") && !shown.contains("-icanon"))

        // What was saved: the new entry in the recycle bin, GitHub's access recorded with the save.
        let binned = try CLI.run(["show", vault, "Recycle Bin/Added 東京 ✓", "--no-agent"], stdin: "demo\n")
        #expect(binned.status == 0 && binned.stdoutText.contains("carol"), "\(binned.stdoutText) \(binned.stderrText)")
    }

    @Test func theFormSetsEveryField() throws {
        let scratch = try Scratch()
        let vault = try scratch.copy("demo/demo.kdbx")
        let receipt = try scratch.write("receipt.txt", Array("paid\n".utf8))
        guard let screen = try TmuxScreen(command: Self.command("browse \(vault)"), test: "browse form") else { return }
        try screen.waitForPasswordPrompt()
        try screen.send("demo", literal: true)
        try screen.send("Enter")
        try screen.waitFor(all: ["(7 of 7)", "? keys"])

        // Add: title, expiry, TOTP from a Base32 secret, a protected and a plain custom field, an attachment.
        try screen.send("a")
        try screen.waitFor(all: ["Add an entry", "Attach file"])
        try screen.send("Fields", literal: true)
        try screen.send("Tab", "Tab", "Tab", "Tab", "Tab", "Tab")
        try screen.waitFor("YYYY-MM-DD, YYYY-MM-DDTHH:MM:SSZ (UTC) or never")
        try screen.send("BSpace", "BSpace", "BSpace", "BSpace", "BSpace")
        try screen.send("2030-01-02", literal: true)
        try screen.send("Tab")
        try screen.send("JBSWY3DPEHPK3PXP", literal: true)
        try screen.send("C-n")
        try screen.waitFor("Ctrl-P protects")
        try screen.send("PIN", literal: true)
        try screen.send("Tab")
        try screen.send("1234", literal: true)
        try screen.send("C-p")
        try screen.waitFor(all: ["Field (prot.)", "****"], none: ["1234"])
        try screen.send("C-n")
        try screen.send("Note", literal: true)
        try screen.send("Tab")
        try screen.send("plain", literal: true)
        try screen.send("Tab")
        try screen.waitFor("Type a file's path; Enter attaches it")
        try screen.send(receipt, literal: true)
        try screen.send("Enter")
        try screen.waitFor(all: ["Attached 'receipt.txt' (5 bytes)", "receipt.txt (5 bytes)"])
        try screen.send("Tab", "Enter")
        try screen.waitFor(all: ["Saved 'Fields' in Demo.", "(8 of 8)"])
        try screen.send("Enter")
        try screen.waitFor(all: ["PIN: ••••••••", "Note: plain", "Expires: 2030-01-02T00:00:00Z", "TOTP: ", "Attachment: receipt.txt (5 bytes)"])

        // Edit: remove the plain field (Up from the title wraps to the attach row).
        try screen.send("e")
        try screen.waitFor(all: ["Edit the entry", "Attach file"])
        try screen.send("Up", "Up", "Up", "Up")
        try screen.waitFor(all: ["Ctrl-P protects", "Note▏"])
        try screen.send("C-d")
        try screen.waitFor(all: ["Edit the entry", "Ctrl-D removes the attachment"], none: ["Note▏"])
        try screen.send("Enter")
        try screen.waitFor(all: ["Saved 'Fields' in Demo.", "PIN: ••••••••"], none: ["Note: plain"])
        try screen.send("q")
        try screen.waitForExit(0)

        // What was saved, as `show` reads it: the fields, their protection, the otpauth URI.
        let shown = try CLI.run(["show", vault, "Fields", "--no-agent"], stdin: "demo\n")
        #expect(shown.status == 0)
        #expect(shown.stdoutText.contains("PIN: PROTECTED") && !shown.stdoutText.contains("Note:"), "\(shown.stdoutText)")
        #expect(shown.stdoutText.contains("Expires: 2030-01-02T00:00:00Z") && shown.stdoutText.contains("receipt.txt (5 bytes)"))
        let pin = try CLI.run(["show", vault, "Fields", "--field", "PIN", "--no-agent"], stdin: "demo\n")
        #expect(pin.stdoutText == "1234\n")
        let otp = try CLI.run(["show", vault, "Fields", "--field", "otp", "--no-agent"], stdin: "demo\n")
        #expect(otp.stdoutText == "otpauth://totp/Fields:sam?secret=JBSWY3DPEHPK3PXP&period=30&digits=6&issuer=Fields\n")  // sam: the vault's default user name
        let code = try CLI.run(["totp", vault, "Fields", "--time", "59", "--no-agent"], stdin: "demo\n")
        #expect(code.stdoutText == "996554\n", "the RFC 6238 code of JBSWY3DPEHPK3PXP at 59 s (SHA-1, 6 digits, 30 s)")
    }

    @Test func sigtermAndCtrlCRestoreTheTerminal() throws {
        let scratch = try Scratch()
        let vault = try scratch.copy("demo/demo.kdbx")
        for ending in ["SIGTERM", "Ctrl-C"] {
            guard let screen = try TmuxScreen(command: Self.command("browse \(vault)"), test: "browse \(ending)") else { return }
            try screen.waitForPasswordPrompt()
            try screen.send("demo", literal: true)
            try screen.send("Enter")
            try screen.waitFor("(7 of 7)")
            if ending == "SIGTERM" {
                let pid = try #require(try screen.commandPID())
                #expect(kill(pid, SIGTERM) == 0)
            } else {
                try screen.send("C-c")
            }
            let shown = try screen.waitForExit(ending == "SIGTERM" ? 143 : 0)
            #expect(!shown.contains("GitHub") && !shown.contains("Search:"), "\(ending)")
            #expect(shown.contains("echo") && shown.contains("icanon") && !shown.contains("-echo") && !shown.contains("-icanon"), "\(ending): \(shown)")
        }
    }

    @Test func matchPrintsThePathAndCopiesThePassword() throws {
        let scratch = try Scratch()
        let vault = try scratch.copy("demo/demo.kdbx")
        for json in [false, true] {
            // Without --json as a shell key binding runs it: standard output is a pipe, the view is on /dev/tty.
            let browse = Self.command("browse \(vault) --match https://github.com/login" + (json ? " --json" : ""))
            guard let screen = try TmuxScreen(command: json ? browse : "chosen=$(\(browse)); echo \"CHOSEN=[$chosen]\"",
                                              test: "browse --match") else { return }
            try screen.waitForPasswordPrompt()
            try screen.send("demo", literal: true)
            try screen.send("Enter")
            try screen.waitFor(all: ["★ GitHub", "Fill for https://github.com/login", "Home Wi-Fi", "Enter chooses"])
            try screen.send("Enter")
            let shown = try screen.waitForExit(0)
            if json {
                #expect(shown.contains("\"path\" : \"Work/GitHub\"") || shown.contains("\"path\": \"Work/GitHub\""), "\(shown)")
            } else {
                #expect(shown.contains("CHOSEN=[Work/GitHub]\n"), "\(shown)")
            }
            #expect(shown.contains("Copied the password of 'Work/GitHub'"))
            #expect(try screen.bufferContents() == "gh-Xq8!vR2#mT5pL")
            #expect(!shown.contains("Home Wi-Fi"))
        }
    }
}
