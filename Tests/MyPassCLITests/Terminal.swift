import Foundation
import MyPassTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A real terminal for a test: a tmux server of its own (its socket in a scratch directory, no
/// config file) with one window of `width` x `height` running a command; keys are sent with
/// `send-keys`, the screen read with `capture-pane`, and the server is killed when the value goes.
final class Terminal {
    /// `tmux`, when installed.
    static var tmux: URL? { InteropTools.executable(named: "tmux") }

    private let tmux: URL
    /// A directory of its own for the socket (a test's scratch directory may go first).
    private let home: String
    private var socket: String { home + "/tmux.sock" }
    /// The server's process id, to end it even when its socket no longer answers.
    private var serverPID: pid_t = 0

    /// Starts `arguments` (the first an absolute path) in a new window, in `directory`, with
    /// exactly `environment` (`env -i`).
    init(_ arguments: [String], in directory: URL, environment: [String: String], width: Int = 160, height: Int = 40) throws {
        guard let tmux = Terminal.tmux else { throw CocoaError(.executableNotLoadable) }
        self.tmux = tmux
        home = FileManager.default.temporaryDirectory.appendingPathComponent("mypass-tmux-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let command = (["/usr/bin/env", "-i"] + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + arguments)
            .map(Terminal.quoted).joined(separator: " ")
        let started = try run(["new-session", "-d", "-x", String(width), "-y", String(height), "-c", directory.path, command])
        if started.status != 0 { throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: started.text]) }
        serverPID = pid_t(try run(["display-message", "-p", "#{pid}"]).text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    deinit {
        _ = try? run(["kill-server"])
        // A server that did not go (it ignores SIGTERM while it waits on its panes) is killed;
        // its panes' processes get SIGHUP when their terminal goes with it.
        if serverPID > 0 && kill(serverPID, 0) == 0 { kill(serverPID, SIGKILL) }
        try? FileManager.default.removeItem(atPath: home)
    }

    /// Runs `tmux -S SOCKET -f /dev/null arguments...` and waits for it. Not through `Process`:
    /// the first call starts the tmux server, a daemon that would keep the descriptor
    /// swift-corelibs-foundation watches for the child's exit open, so that the wait never ended.
    /// posix_spawn closes every descriptor above 2 in the child (so the server inherits nothing
    /// of this process either), and `waitpid` waits for tmux alone.
    @discardableResult
    private func run(_ arguments: [String]) throws -> (status: Int32, text: String) {
        let output = socket + ".out-\(UUID().uuidString.prefix(8))"
        defer { unlink(output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        if let closeFrom = Terminal.addCloseFrom { _ = closeFrom(&actions, 3) }
        let words = [tmux.path, "-S", socket, "-f", "/dev/null"] + arguments
        var argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, tmux.path, &actions, nil, &argv, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        }
        let text = (try? Data(contentsOf: URL(fileURLWithPath: output))) ?? Data()
        let exited = status & 0x7F == 0
        return (exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F), String(decoding: text, as: UTF8.self))
    }

    /// Types `text` as it is (no key names).
    func type(_ text: String) throws { try run(["send-keys", "-l", text]) }

    /// Presses keys by tmux's names (`Enter`, `Tab`, `C-u`).
    func press(_ keys: String...) throws { try run(["send-keys"] + keys) }

    /// The visible screen, lines joined where the terminal wrapped them, trailing blank lines dropped.
    func screen() throws -> String {
        var text = try run(["capture-pane", "-p", "-J"]).text
        while text.hasSuffix("\n\n") { text.removeLast() }
        return text
    }

    /// Polls the screen every 50 ms for up to `seconds` until `condition` holds; the last screen.
    @discardableResult
    func wait(for seconds: Double = 15, until condition: (String) -> Bool) throws -> (matched: Bool, screen: String) {
        let end = Date().addingTimeInterval(seconds)
        var last = ""
        repeat {
            last = try screen()
            if condition(last) { return (true, last) }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < end
        return (false, last)
    }

    /// Waits until the screen contains `text`; records an issue with the screen when it never does.
    @discardableResult
    func expect(_ text: String, within seconds: Double = 15, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let (matched, screen) = try wait(for: seconds) { $0.contains(text) }
        #expect(matched, "never showed \(text.debugDescription); the screen:\n\(screen)", sourceLocation: sourceLocation)
        return screen
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which the Glibc
    /// module does not import (it is a GNU extension).
    static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// Waits for `prompt`, then types `text` and Enter.
    func answer(_ prompt: String, with text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try expect(prompt, sourceLocation: sourceLocation)
        try type(text)
        try press("Enter")
    }

    /// `text` in single quotes for `sh -c`.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
