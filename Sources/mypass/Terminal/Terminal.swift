#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The restore sequence and the saved terminal settings, where a signal handler can reach them
/// (async-signal-safe: only `write(2)` and `tcsetattr(3)` run there).
nonisolated(unsafe) private var savedTermios = termios()
nonisolated(unsafe) private var terminalIsRaw: sig_atomic_t = 0
nonisolated(unsafe) private var resizePending: sig_atomic_t = 0
/// The terminal's descriptor for input and output: 0 and 1, or one opened on `/dev/tty`.
nonisolated(unsafe) private var terminalInput: Int32 = 0
nonisolated(unsafe) private var terminalOutput: Int32 = 1
/// Show the cursor, clear the alternate screen, leave it, reset attributes.
private let restoreSequence: [UInt8] = Array("\u{1B}[0m\u{1B}[2J\u{1B}[?25h\u{1B}[?1049l".utf8)

/// Restores the terminal from a signal handler, then dies of the signal as it would have.
private func restoreAndDie(_ number: Int32) {
    if terminalIsRaw != 0 {
        restoreSequence.withUnsafeBytes { _ = write(terminalOutput, $0.baseAddress, $0.count) }
        _ = tcsetattr(terminalInput, TCSAFLUSH, &savedTermios)
        terminalIsRaw = 0
    }
    signal(number, SIG_DFL)
    raise(number)
}

/// `write(2)` under another name (the terminal's method shadows it).
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, buffer, count) }

/// A key press, decoded from the terminal's bytes.
enum Key: Equatable {
    case character(Character)
    case up, down, left, right, pageUp, pageDown, home, end
    case enter, tab, backTab, backspace, delete, escape
    /// A control key (Ctrl-A is 1 ... Ctrl-Z is 26), other than Tab, Enter and Backspace.
    case control(UInt8)
}

/// The full-screen terminal of `mypass browse`: raw mode through termios, the alternate screen
/// buffer, ANSI output, key decoding, the window size. Always restored: on ``restore()``, and
/// on SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGABRT and SIGTRAP (a trap or
/// crash path) by a handler that leaves the alternate screen and resets the settings. Nothing
/// written on the alternate screen stays on the normal screen after it.
final class Terminal {
    private var pending: [UInt8] = []
    /// The descriptor of `/dev/tty` when the terminal is that device rather than standard input and output.
    private let device: Int32?

    /// Whether standard input and output (with `controllingTerminal`, the process's `/dev/tty`)
    /// are a terminal that can run a full-screen UI (not `TERM=dumb`).
    static func check(controllingTerminal: Bool = false) -> String? {
        if controllingTerminal {
            let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
            defer { if fd >= 0 { close(fd) } }
            guard fd >= 0, isatty(fd) == 1 else { return "there is no controlling terminal (/dev/tty)" }
        } else {
            guard isatty(0) == 1, isatty(1) == 1 else { return "standard input and output must be a terminal" }
        }
        let term = getenv("TERM").map { String(cString: $0) } ?? ""
        guard !term.isEmpty, term != "dumb" else { return "the terminal (TERM=\(term.isEmpty ? "unset" : term)) cannot show a full-screen view" }
        return nil
    }

    /// Enters raw mode and the alternate screen, installing the restoring signal handlers. With
    /// `controllingTerminal`, the UI runs on `/dev/tty` (as fzf's does), so that standard output
    /// can be a pipe that takes the result (`$(mypass browse VAULT --match URL)`).
    init(controllingTerminal: Bool = false) throws(CLIError) {
        if controllingTerminal {
            let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
            guard fd >= 0 else { throw CLIError.failure("cannot open the terminal (/dev/tty)") }
            device = fd
            terminalInput = fd
            terminalOutput = fd
        } else {
            device = nil
            terminalInput = 0
            terminalOutput = 1
        }
        guard tcgetattr(terminalInput, &savedTermios) == 0 else { throw CLIError.failure("cannot read the terminal's settings") }
        var raw = savedTermios
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_oflag &= ~tcflag_t(OPOST)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        for sig in [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGTRAP] { signal(sig, restoreAndDie) }
        signal(SIGWINCH) { _ in resizePending = 1 }
        signal(SIGTSTP, SIG_IGN)
        guard tcsetattr(terminalInput, TCSAFLUSH, &raw) == 0 else { throw CLIError.failure("cannot put the terminal in raw mode") }
        terminalIsRaw = 1
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
    }

    /// Leaves the alternate screen (cleared first) and restores the settings.
    func restore() {
        guard terminalIsRaw != 0 else { return }
        restoreSequence.withUnsafeBytes { _ = posixWrite(terminalOutput, $0.baseAddress, $0.count) }
        _ = tcsetattr(terminalInput, TCSAFLUSH, &savedTermios)
        terminalIsRaw = 0
        for sig in [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGTRAP, SIGWINCH, SIGTSTP] { signal(sig, SIG_DFL) }
    }

    deinit {
        restore()
        if let device { close(device) }
    }

    /// The window's size in columns and rows (80x24 when it cannot be read).
    var size: (columns: Int, rows: Int) {
        var window = winsize()
        guard ioctl(terminalOutput, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else { return (80, 24) }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// Whether the window was resized since the last call.
    func takeResize() -> Bool {
        guard resizePending != 0 else { return false }
        resizePending = 0
        return true
    }

    /// Writes `text` as it is (escape sequences included).
    func write(_ text: String) {
        var bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { posixWrite(terminalOutput, $0.baseAddress! + done, $0.count - done) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            done += count
        }
        bytes.removeAll()
    }

    /// The next key, waiting at most `timeoutMilliseconds` (`nil`: none came, or a resize interrupted the wait).
    func readKey(timeoutMilliseconds: Int32) -> Key? {
        if pending.isEmpty {
            guard fill(timeoutMilliseconds: timeoutMilliseconds) else { return nil }
        }
        return decode()
    }

    /// Reads what is available, waiting up to `timeoutMilliseconds` for the first byte.
    private func fill(timeoutMilliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: terminalInput, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, timeoutMilliseconds) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { read(terminalInput, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        pending.append(contentsOf: buffer[0..<count])
        return true
    }

    private func decode() -> Key? {
        guard let first = pending.first else { return nil }
        if first == 0x1B {
            // An escape sequence arrives with its ESC in one read; a lone ESC waits 30 ms for more.
            if pending.count == 1 && !fill(timeoutMilliseconds: 30) {
                pending.removeFirst()
                return .escape
            }
            if pending.count >= 2, pending[1] == UInt8(ascii: "[") || pending[1] == UInt8(ascii: "O") {
                var end = 2
                while true {
                    while end < pending.count, !(0x40...0x7E).contains(pending[end]) { end += 1 }
                    // A sequence cut between two reads (a loaded machine): wait 30 ms for its end.
                    if end < pending.count || end > 16 || !fill(timeoutMilliseconds: 30) { break }
                }
                guard end < pending.count else { pending.removeAll(); return .escape }
                let body = String(decoding: pending[2...end], as: UTF8.self)
                pending.removeFirst(end + 1)
                switch body {
                case "A": return .up
                case "B": return .down
                case "C": return .right
                case "D": return .left
                case "H", "1~", "7~": return .home
                case "F", "4~", "8~": return .end
                case "5~": return .pageUp
                case "6~": return .pageDown
                case "3~": return .delete
                case "Z": return .backTab
                default: return nil
                }
            }
            pending.removeFirst()
            return .escape
        }
        switch first {
        case 0x0D, 0x0A: pending.removeFirst(); return .enter
        case 0x09: pending.removeFirst(); return .tab
        case 0x7F, 0x08: pending.removeFirst(); return .backspace
        case 0x00..<0x20: pending.removeFirst(); return .control(first)
        default: break
        }
        // One UTF-8 character (its length from the lead byte).
        let length = first < 0xE0 ? 2 : first < 0xF0 ? 3 : 4
        let count = first < 0x80 ? 1 : length
        if pending.count < count { _ = fill(timeoutMilliseconds: 30) }
        let taken = min(count, pending.count)
        let text = String(decoding: pending[0..<taken], as: UTF8.self)
        pending.removeFirst(taken)
        return text.first.map { .character($0) }
    }
}
