import Foundation
import MyPassBytes
import MyPassCrypto

/// The system clipboard through whichever helper is present: `wl-copy`/`wl-paste` (Wayland),
/// `xclip` or `xsel` (X11). Values go to the helper on its standard input, never as an argument.
struct Clipboard {
    /// The helper family in use.
    enum Tool: String {
        case wayland = "wl-copy"
        case xclip
        case xsel
    }

    let tool: Tool
    /// The executable that writes the clipboard.
    let copier: String
    /// The executable that reads it.
    let reader: String

    /// The first helper present: wl-copy when `WAYLAND_DISPLAY` is set, then xclip, then xsel
    /// (these need `DISPLAY`); `nil` when none is.
    static func detect() -> Clipboard? {
        let environment = ProcessInfo.processInfo.environment
        if !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty, let copy = Subprocess.find("wl-copy"), let paste = Subprocess.find("wl-paste") {
            return Clipboard(tool: .wayland, copier: copy, reader: paste)
        }
        guard !(environment["DISPLAY"] ?? "").isEmpty else { return nil }
        if let xclip = Subprocess.find("xclip") { return Clipboard(tool: .xclip, copier: xclip, reader: xclip) }
        if let xsel = Subprocess.find("xsel") { return Clipboard(tool: .xsel, copier: xsel, reader: xsel) }
        return nil
    }

    /// Puts `value` on the clipboard.
    /// - Returns: whether the helper succeeded.
    func copy(_ value: SecureBytes) -> Bool {
        let arguments: [String]
        switch tool {
        case .wayland: arguments = []
        case .xclip: arguments = ["-selection", "clipboard", "-in"]
        case .xsel: arguments = ["--clipboard", "--input"]
        }
        return Subprocess.run(copier, arguments, input: value).status == 0
    }

    /// What the clipboard holds now (at most 1 MiB), or `nil` when it cannot be read.
    func contents() -> SecureBytes? {
        let arguments: [String]
        switch tool {
        case .wayland: arguments = ["--no-newline"]
        case .xclip: arguments = ["-selection", "clipboard", "-out"]
        case .xsel: arguments = ["--clipboard", "--output"]
        }
        let result = Subprocess.run(reader, arguments, captureOutput: true)
        return result.status == 0 ? result.output : nil
    }

    /// Empties the clipboard.
    func clear() {
        switch tool {
        case .xsel: Subprocess.run(copier, ["--clipboard", "--clear"])
        default: _ = copy(SecureBytes())
        }
    }

    /// SHA-256 of a value (32 bytes): what `unclip` compares, so that it never holds the value.
    static func digest(_ value: SecureBytes) -> SecureBytes {
        var hasher = SHA256()
        value.withUnsafeBytes { hasher.update($0) }
        var digest = hasher.finalize()
        defer { wipe(&digest) }
        return SecureBytes(digest)
    }

    /// The OSC 52 escape that sets the terminal's clipboard to `value` (`ESC ] 52 ; c ; base64 BEL`).
    static func osc52(_ value: SecureBytes) -> String {
        "\u{1B}]52;c;" + value.withUnsafeBytes { Base64.encode($0) } + "\u{07}"
    }
}
