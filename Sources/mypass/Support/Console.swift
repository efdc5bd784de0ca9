#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes to the standard streams with `write(2)`, buffering standard output.
///
/// Standard output carries the command's result only (so that scripts can capture it);
/// messages, prompts and progress go to standard error.
enum Console {
    /// True when file descriptor `fd` is a terminal.
    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    private static let quietState = LockedState(false)

    /// True after `--quiet` / `-q`: prompts, progress and notes are not written.
    static var isQuiet: Bool { quietState.withLock { $0 } }

    /// Sets ``isQuiet`` (once, when the command line is parsed).
    static func setQuiet(_ quiet: Bool) { quietState.withLock { $0 = quiet } }

    private static let outputErrno = LockedState<Int32>(0)

    /// The `errno` of the first failed write to standard output other than a reader that went
    /// away (`EPIPE`), such as `ENOSPC` on a full disk; 0 when every write went through. The
    /// command then fails with a message instead of exiting 0 on a truncated result.
    static var outputFailure: Int32 { outputErrno.withLock { $0 } }

    /// Writes a secondary message (a prompt, a note) to standard error unless ``isQuiet``.
    static func note(_ text: String) { if !isQuiet { writeAll(2, text) } }

    /// Writes `text` to standard output.
    static func out(_ text: String) { writeAll(1, text) }

    /// Writes `text` and a newline to standard output.
    static func line(_ text: String = "") { writeAll(1, text + "\n") }

    /// Writes a result line (`Added entry '…'.`) and a newline to standard output. The line may
    /// quote a title, a group's name, a path or a field of the vault, none of them trusted: every
    /// control character becomes a space first (``Text/oneLine(_:)``), as in the listings.
    static func resultLine(_ text: String) { line(Text.oneLine(text)) }

    /// Writes `text` to standard error, unbuffered.
    static func err(_ text: String) { writeAll(2, text) }

    /// Writes one message line (a warning, a note, an error) and a newline to standard error,
    /// unbuffered. The line may quote a path, an entry's title or a codec's reason, none of them
    /// trusted: it is made safe for a terminal first (``Text/errorMessage(_:)``: no control
    /// character, at most ``Text/maxErrorMessageBytes`` bytes).
    static func errLine(_ line: String) { writeAll(2, Text.errorMessage(line) + "\n") }

    /// ``errLine(_:)`` unless ``isQuiet``.
    static func noteLine(_ line: String) { if !isQuiet { errLine(line) } }

    /// Writes raw bytes to standard output.
    static func outBytes(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { writeAll(1, $0) }
    }

    /// Writes raw bytes to standard output straight from the caller's memory (a revealed secret,
    /// which then needs no copy), followed by a newline when `newline`.
    static func outBytes(_ bytes: UnsafeRawBufferPointer, newline: Bool) {
        writeAll(1, bytes)
        if newline { writeAll(1, "\n") }
    }

    private static func writeAll(_ fd: Int32, _ text: String) {
        var text = text
        text.withUTF8 { writeAll(fd, UnsafeRawBufferPointer($0)) }
    }

    /// Keeps the first failure of standard output (``outputFailure``).
    private static func recordOutputFailure(_ reason: Int32) {
        outputErrno.withLock { if $0 == 0 { $0 = reason } }
    }

    private static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) {
        guard var base = buffer.baseAddress else { return }
        var remaining = buffer.count
        while remaining > 0 {
            let written = write(fd, base, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                // EPIPE: the reader went away; nothing sensible to report. Anything else on
                // standard output (ENOSPC, EIO) fails the command.
                let reason = errno
                if fd == 1 && reason != EPIPE { recordOutputFailure(reason) }
                return
            }
            if written == 0 {
                if fd == 1 { recordOutputFailure(EIO) }
                return
            }
            remaining -= written
            base += written
        }
    }
}
