/// The exit codes `mypass` promises to scripts (issue 7): they never change meaning.
enum ExitCode: Int32, Sendable {
    /// The command did what was asked.
    case success = 0
    /// Any failure not listed below (I/O, a missing entry, a failed save...).
    case failure = 1
    /// The command line could not be understood; usage is printed.
    case usage = 2
    /// The password or key file does not open the vault.
    case wrongKey = 3
    /// The file is damaged, truncated, or uses a format feature we do not support.
    case corruptedOrUnsupported = 4
    /// `match` found no suggestion (its output still lists what was asked for).
    case noMatch = 5
    /// `analyze` found a problem (a breached, empty, weak, reused, expired, expiring or old
    /// password); its report was printed in full.
    case problemsFound = 6
    /// `run` could not start its command (as shells report a command that cannot be run); once
    /// started, the command's own exit status is `run`'s.
    case commandNotRun = 127
    /// Ctrl-C stopped the key derivation (128 + SIGINT, as shells report it); nothing was written.
    case interrupted = 130
}

/// A failure that ends the command: one line for stderr and the exit code that goes with it.
///
/// The message never contains a secret (no password, no protected field value).
struct CLIError: Error, Sendable {
    /// What the process exits with.
    var exitCode: ExitCode
    /// One line, without the `Error: ` prefix and without a trailing newline.
    var message: String
    /// For usage errors: the command whose usage is printed after the message (nil: the top level).
    var usageOf: CommandSpec?

    init(_ exitCode: ExitCode, _ message: String, usageOf: CommandSpec? = nil) {
        self.exitCode = exitCode
        self.message = message
        self.usageOf = usageOf
    }

    /// A usage error for `command` (exit code 2).
    static func usage(_ message: String, _ command: CommandSpec?) -> CLIError {
        CLIError(.usage, message, usageOf: command)
    }

    /// Any other failure (exit code 1).
    static func failure(_ message: String) -> CLIError {
        CLIError(.failure, message)
    }
}
