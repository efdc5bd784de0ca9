import Foundation
import MyPassCore
import MyPassKDBX

/// `mypass totp VAULT ENTRY [--time UNIX_SECONDS]`: the code alone on stdout, seconds left on
/// stderr. For a counter-based (HOTP) entry the counter is advanced and the vault saved.
enum TOTPCommand {
    static func run(_ parsed: ParsedArguments) throws {
        let now = try time(parsed)
        var (context, _) = try VaultContext.open(parsed)
        let located = try context.vault.resolveEntry(path: parsed.required("entry"))
        let name = Vault.displayPath(located.path)
        let code: OTPCode?
        do {
            code = try context.vault.oneTimePassword(forEntry: located.entry.uuid, now: KDBXTime(unixSeconds: now))
        } catch {
            throw CLIError.failure("entry '\(name)': \(error.description)")
        }
        guard let code else { throw CLIError.failure("entry '\(name)' has no TOTP") }
        if let left = code.secondsRemaining {
            Console.line(code.value)
            Console.err("\(left) s left\n")
        } else {
            // HOTP: the counter moved on; save before handing out the code.
            try context.save()
            Console.line(code.value)
            Console.err("HOTP counter advanced and saved\n")
        }
    }

    /// `--time` when given (a usage error when not an integer), else now, in Unix seconds.
    static func time(_ parsed: ParsedArguments) throws(CLIError) -> Int64 {
        guard let text = parsed.value("time") else { return Int64(Date().timeIntervalSince1970) }
        guard let seconds = Int64(text), seconds >= 0 else {
            throw parsed.usageError("The value '\(text)' is invalid for '--time': expected Unix seconds (an integer >= 0)")
        }
        return seconds
    }
}
