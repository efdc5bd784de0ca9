#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MyPassBytes

/// Reads secrets (the master password, an entry password) from standard input.
///
/// On a terminal the line is read with echo turned off (termios) after a prompt on stderr;
/// otherwise each call takes the next line of standard input, so that scripts and tests pipe
/// `"master\nentry\n"`. Input is read one byte at a time so that nothing beyond the line is
/// consumed, and the bytes are wiped once they are inside a `ProtectedString`.
enum SecretReader {
    /// The longest secret line read, in bytes (64 KiB): a password is far shorter, and an input
    /// with no line break (`< /dev/zero`) must end in an error, not fill the memory.
    static let maxSecretBytes = 64 * 1024

    private static let inputTaken = LockedState<String?>(nil)

    /// Says that standard input was used up by something else (an import from `-`) with no
    /// terminal to ask on: a secret that is then missing fails with `reason` instead of the usual
    /// hint about one line per secret.
    static func setInputTaken(_ reason: String) { inputTaken.withLock { $0 = reason } }

    /// The reason given to ``setInputTaken(_:)``, or nil.
    static var inputTakenReason: String? { inputTaken.withLock { $0 } }

    /// Reads a new secret (an entry password, a protected field): on a terminal it is asked twice
    /// and the two must match; otherwise it is the next line of standard input.
    ///
    /// - Parameters:
    ///   - prompt: the first prompt (`Entry password: `); the second is `Repeat ` + it in lower case.
    ///   - what: what is read, for messages (`entry password`, `value of protected field 'PIN'`).
    /// - Throws: `CLIError` (exit 1) when input ends first or the two entries differ.
    static func readNewSecret(prompt: String, what: String) throws(CLIError) -> ProtectedString {
        let first = try readSecret(prompt: prompt, what: what)
        guard Console.isTerminal(0) else { return first }
        let second = try readSecret(prompt: "Repeat " + prompt.prefix(1).lowercased() + prompt.dropFirst(), what: what)
        guard first == second else { throw .failure("the two entries of the \(what) differ; nothing was changed") }
        return first
    }

    /// Reads one secret line (without its line ending).
    ///
    /// - Parameter prompt: shown on stderr when standard input is a terminal.
    /// - Throws: `CLIError` (exit 1) when standard input ends before any byte of the line, fails,
    ///   or gives more than ``maxSecretBytes`` bytes without a line break.
    /// - Parameter what: what is read, for the message when nothing comes (`password`, `entry password`).
    /// - Parameter missingHint: how to give it, for the message when standard input (not a
    ///   terminal) has no line for it; the default hints suit the master and entry passwords.
    static func readSecret(prompt: String, what: String = "password", missingHint: String? = nil) throws(CLIError) -> ProtectedString {
        let interactive = Console.isTerminal(0)
        var saved = termios()
        var echoOff = false
        var previousHandlers: [(@convention(c) (Int32) -> Void)?] = []
        if interactive {
            // Echo goes off (TCSAFLUSH drops what was typed before, echoed) and only then the
            // prompt shows, as readpassphrase(3) does: what is typed after the prompt is kept.
            if tcgetattr(0, &saved) == 0 {
                var silent = saved
                silent.c_lflag &= ~tcflag_t(ECHO)
                // A line as the terminal usually gives it, even when the caller left it in raw
                // mode (a shell key binding runs us under readline's or zle's settings): Enter
                // ends the line, Backspace edits it.
                silent.c_lflag |= tcflag_t(ICANON)
                silent.c_iflag |= tcflag_t(ICRNL)
                // Ctrl-C or a kill while echo is off must not leave the terminal silent.
                terminalBeforePrompt = saved
                previousHandlers = interruptingSignals.map { signal($0, restoreTerminalAndDie) }
                echoOff = tcsetattr(0, TCSAFLUSH, &silent) == 0
            }
            if !echoOff {
                // Even under --quiet: the user must know before typing.
                Console.err("Warning: could not turn off the terminal's echo: what you type will show.\n")
            }
            Console.note(Text.errorMessage(prompt))
        }
        defer {
            if echoOff && !restoreTerminal(&saved) {
                Console.err("\nWarning: could not turn the terminal's echo back on (\(String(cString: strerror(errno)))); run 'stty echo'.")
            }
            for (signalNumber, handler) in zip(interruptingSignals, previousHandlers) { signal(signalNumber, handler) }
            if interactive { Console.note("\n") }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        defer { wipe(&bytes) }
        var sawNewline = false
        var byte: UInt8 = 0
        while true {
            let count = read(0, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count < 0 {
                // A read error is not the end of the input: say so, never take a partial line.
                throw .failure("cannot read the \(what) from standard input: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            if byte == 0x0A { sawNewline = true; break }
            guard bytes.count < maxSecretBytes else {
                byte = 0
                throw .failure("the \(what) on standard input is longer than \(maxSecretBytes / 1024) KiB without a line break; nothing was read")
            }
            if bytes.count == bytes.capacity {
                // Grow by hand so that the old buffer is wiped, not merely freed.
                var larger: [UInt8] = []
                larger.reserveCapacity(bytes.capacity * 2)
                larger.append(contentsOf: bytes)
                wipe(&bytes)
                bytes = larger
            }
            bytes.append(byte)
        }
        byte = 0
        if !sawNewline && bytes.isEmpty {
            if !interactive, let taken = inputTakenReason { throw .failure("no \(what) can be read: \(taken)") }
            if let missingHint, !interactive { throw .failure("no \(what) on standard input (\(missingHint))") }
            if what != "password" {
                throw .failure(interactive ? "no \(what) entered" : "no \(what) on standard input (one line each, in this order: the master password, the entry password, each --protected-field-prompt value)")
            }
            throw .failure(
                interactive ? "no password entered" : "no password on standard input (use --no-password for a key-file-only vault)")
        }
        if bytes.last == 0x0D { bytes.removeLast() }
        return ProtectedString(utf8Bytes: bytes)
    }
}

/// Puts the terminal settings `saved` back, retrying when a signal interrupts; `false` (with
/// `errno` set) when the terminal refuses them.
private func restoreTerminal(_ saved: inout termios) -> Bool {
    while tcsetattr(0, TCSAFLUSH, &saved) != 0 {
        if errno != EINTR { return false }
    }
    return true
}

/// The signals that end `mypass` while it waits at a password prompt.
private let interruptingSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

/// The terminal's settings before the prompt turned echo off, for the signal handler (written
/// before the handler is installed, read only by it).
nonisolated(unsafe) private var terminalBeforePrompt = termios()

/// Puts echo back and dies of the signal as it would have (only async-signal-safe calls). The
/// result of `tcsetattr` is not looked at: nothing safe is left to do about a failure in a signal
/// handler (the process dies right after, and `stty echo` repairs the terminal).
private func restoreTerminalAndDie(_ signalNumber: Int32) {
    _ = tcsetattr(0, TCSAFLUSH, &terminalBeforePrompt)
    signal(signalNumber, SIG_DFL)
    raise(signalNumber)
}
