#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Writes to the standard streams with `write(2)`, buffering standard output.
///
/// Standard output carries the command's result only (so that scripts can capture it);
/// messages, prompts and progress go to standard error.
enum Console {
    /// True when file descriptor `fd` is a terminal.
    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    private static let quietState = Atomic<Bool>(false)

    /// True after `--quiet` / `-q`: prompts, progress and notes are not written.
    static var isQuiet: Bool { quietState.load(ordering: .relaxed) }

    /// Sets ``isQuiet`` (once, when the command line is parsed).
    static func setQuiet(_ quiet: Bool) { quietState.store(quiet, ordering: .relaxed) }

    /// Writes a secondary message (a prompt, a note) to standard error unless ``isQuiet``.
    static func note(_ text: String) { if !isQuiet { writeAll(2, text) } }

    /// Writes `text` to standard output.
    static func out(_ text: String) { writeAll(1, text) }

    /// Writes `text` and a newline to standard output.
    static func line(_ text: String = "") { writeAll(1, text + "\n") }

    /// Writes `text` to standard error, unbuffered.
    static func err(_ text: String) { writeAll(2, text) }

    /// Writes raw bytes to standard output.
    static func outBytes(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { writeAll(1, $0) }
    }

    private static func writeAll(_ fd: Int32, _ text: String) {
        var text = text
        text.withUTF8 { writeAll(fd, UnsafeRawBufferPointer($0)) }
    }

    private static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) {
        guard var base = buffer.baseAddress else { return }
        var remaining = buffer.count
        while remaining > 0 {
            let written = write(fd, base, remaining)
            if written < 0 && errno == EINTR { continue }
            // EPIPE and friends (the reader went away), or a write that accepted nothing (which
            // would repeat forever): nothing sensible to report on the stream that failed.
            if written <= 0 { return }
            remaining -= written
            base += written
        }
    }
}
