#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MyPassBytes
import MyPassCore
import MyPassViewModels

/// The clipboard of `mypass browse`: the system clipboard through `Clipboard` (wl-copy, xclip,
/// xsel) or, without one, the terminal's (OSC 52); cleared after the expiry by `mypass unclip`,
/// as `mypass clip` does.
struct TerminalClipboard: ClipboardWriter {
    /// Writes escape sequences to the terminal (for OSC 52).
    let writeToTerminal: @Sendable (String) -> Void

    func copy(_ value: ProtectedString, expirySeconds: Int) throws(ModelError) {
        let bytes = value.revealedBytes
        if let clipboard = Clipboard.detect() {
            guard clipboard.copy(bytes) else { throw ModelError("\(clipboard.tool.rawValue) could not set the clipboard") }
            guard ClipCommand.startClearing(after: expirySeconds, value: bytes) else {
                throw ModelError("copied, but could not start the clearing process: clear the clipboard yourself")
            }
            return
        }
        writeToTerminal(Clipboard.osc52(bytes))
        if let tty = ttyname(1) {
            ClipCommand.startClearing(after: expirySeconds, value: bytes, extra: ["--tty", String(cString: tty)])
        }
    }
}
