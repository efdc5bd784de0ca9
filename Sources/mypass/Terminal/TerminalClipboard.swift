#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import MyPassBytes
import MyPassCore
import MyPassViewModels

/// The clipboard of `mypass browse`: the system clipboard through `Clipboard` (wl-copy, xclip,
/// xsel) or, without one, the terminal's (OSC 52); cleared after the expiry by `mypass unclip`,
/// as `mypass clip` does.
struct TerminalClipboard: ClipboardWriter {
    /// Writes escape sequences to the terminal (for OSC 52).
    let writeToTerminal: @Sendable (String) -> Void
    /// The terminal's device, which `mypass unclip --tty` clears after the expiry.
    var ttyPath: String? = ttyname(1).map { String(cString: $0) }

    /// A clipboard whose OSC 52 sequence goes to the controlling terminal (`/dev/tty`), whatever
    /// standard output is.
    static func onControllingTerminal() -> TerminalClipboard {
        let fd = open("/dev/tty", O_WRONLY | O_CLOEXEC)
        let path = fd >= 0 ? ttyname(fd).map { String(cString: $0) } : nil
        if fd >= 0 { close(fd) }
        var clipboard = TerminalClipboard { text in
            guard let tty = FileHandle(forWritingAtPath: "/dev/tty") else { return }
            var data = Data(text.utf8)
            try? tty.write(contentsOf: data)
            data.resetBytes(in: 0..<data.count)
            try? tty.close()
        }
        clipboard.ttyPath = path
        return clipboard
    }

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
        if let ttyPath {
            ClipCommand.startClearing(after: expirySeconds, value: bytes, extra: ["--tty", ttyPath])
        }
    }
}
