import Foundation
import MyPassCore
import MyPassKDBX

/// `mypass totp VAULT ENTRY [--time UNIX_SECONDS]`: the code alone on stdout, seconds left on stderr.
enum TOTPCommand {
    static func run(_ parsed: ParsedArguments) throws {
        let (context, _) = try VaultContext.open(parsed)
        let located = try context.vault.locateEntry(parsed.required("entry"))
        let now = try time(parsed)
        let code: OTPCode?
        do {
            code = try located.entry.otpCode(at: now)
        } catch {
            throw CLIError.failure("entry '\(Vault.display(located.groupPath + [located.entry.title]))': \(error)")
        }
        guard let code else {
            throw CLIError.failure("entry '\(Vault.display(located.groupPath + [located.entry.title]))' has no TOTP")
        }
        Console.line(code.value)
        if let left = code.secondsRemaining {
            Console.err("\(left) s left\n")
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
