import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX
#if canImport(Glibc)
import Glibc
#endif

/// `mypass clip VAULT ENTRY [--field NAME | --totp] [--timeout SECONDS] [--osc52]` and the
/// clearing half it starts, `mypass unclip`: the clipboard is cleared after the timeout only
/// when it still holds what was put there (the SHA-256 of the value is compared, as gopass does).
enum ClipCommand {
    /// The default seconds before the clipboard is cleared (the security model's 30).
    static let defaultTimeoutSeconds = 30

    static func clip(_ parsed: ParsedArguments) throws {
        let timeout = try parsed.integer("timeout", in: 0...86_400) ?? defaultTimeoutSeconds
        if parsed.flag("totp") && parsed.value("field") != nil {
            throw parsed.usageError("--field and --totp cannot be used together")
        }
        let osc52 = parsed.flag("osc52")
        let clipboard = osc52 ? nil : Clipboard.detect()
        if !osc52 && clipboard == nil {
            throw CLIError.failure("no clipboard tool found: install wl-copy (Wayland), xclip or xsel (X11, with DISPLAY set), or use --osc52")
        }
        let (context, _) = try VaultContext.open(parsed)
        let located = try context.vault.resolveEntry(path: parsed.required("entry"))
        let name = Vault.displayPath(located.groupPath + [located.entry.title])
        let what: String
        let text: String
        if parsed.flag("totp") {
            let code: OTPCode?
            do {
                code = try located.entry.timeBasedCode(at: try TOTPCommand.time(parsed))
            } catch let error as CoreError {
                throw CLIError.failure("entry '\(name)': \(error.description)")
            }
            guard let code else { throw CLIError.failure("entry '\(name)' has no TOTP") }
            what = "the TOTP code"
            text = code.value
        } else {
            let field = try ShowCommand.field(parsed.value("field") ?? Entry.StandardField.password, of: located)
            what = "the \(field.key)"
            text = field.value
        }
        var utf8 = Array(text.utf8)
        let value = SecureBytes(utf8)
        wipe(&utf8)
        if osc52 {
            Console.out(Clipboard.osc52(value))
            if timeout > 0, Console.isTerminal(1), let tty = ttyname(1) {
                startClearing(after: timeout, value: value, extra: ["--tty", String(cString: tty)])
            }
            Console.errLine("Copied \(what) of '\(name)' to the terminal's clipboard (OSC 52).")
            return
        }
        guard let clipboard, clipboard.copy(value) else {
            throw CLIError.failure("\(clipboard?.tool.rawValue ?? "the clipboard tool") could not set the clipboard")
        }
        if timeout > 0 {
            guard startClearing(after: timeout, value: value) else {
                throw CLIError.failure("copied, but could not start the clearing process: clear the clipboard yourself")
            }
            Console.errLine("Copied \(what) of '\(name)' to the clipboard; cleared in \(timeout) s unless something else is copied meanwhile.")
        } else {
            Console.errLine("Copied \(what) of '\(name)' to the clipboard (not cleared: --timeout 0).")
        }
    }

    /// Starts `mypass unclip` in the background with the value's digest on its standard input.
    @discardableResult
    static func startClearing(after seconds: Int, value: SecureBytes, extra: [String] = []) -> Bool {
        Subprocess.startDetached(Subprocess.ownExecutable, ["unclip", "--timeout", String(seconds)] + extra,
                                 input: Clipboard.digest(value))
    }

    /// Reads the 32-byte digest from standard input, waits, then clears the clipboard if it still
    /// holds the value with that digest (or, with `--tty`, writes the terminal's empty OSC 52).
    static func unclip(_ parsed: ParsedArguments) throws {
        let timeout = try parsed.integer("timeout", in: 0...86_400) ?? defaultTimeoutSeconds
        var expected = SecureBytes(zeroedCount: 32)
        let count = expected.withUnsafeMutableBytes { raw -> Int in
            var offset = 0
            while offset < raw.count {
                let got = read(0, raw.baseAddress! + offset, raw.count - offset)
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else { break }
                offset += got
            }
            return offset
        }
        guard count == 32 else { throw CLIError.failure("unclip reads the 32-byte SHA-256 of the copied value on standard input") }
        _ = setsid()  // EPERM only when already a group leader: then it is detached enough
        var left = timeout
        while left > 0 { left = Int(sleep(UInt32(left))) }
        if let tty = parsed.value("tty") {
            let fd = open(tty, O_WRONLY | O_NOCTTY)
            guard fd >= 0 else { return }
            let clear = Array("\u{1B}]52;c;\u{07}".utf8)
            _ = clear.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
            return
        }
        guard let clipboard = Clipboard.detect(), let current = clipboard.contents() else { return }
        if Clipboard.digest(current) == expected { clipboard.clear() }  // SecureBytes == is constant-time
    }
}
