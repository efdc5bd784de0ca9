import Foundation
import MyPassBytes
import MyPassTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A virtual X server (Xvfb) for one test: its display number, stopped when the value goes.
final class VirtualDisplay {
    let process = Process()
    let display: String

    /// Starts `Xvfb -displayfd 1` and reads the display number it picked.
    init(xvfb: URL) throws {
        process.executableURL = xvfb
        process.arguments = ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "640x480x24"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var text = ""
        while !text.contains("\n") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        display = ":" + text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    deinit {
        // SIGKILL: Xvfb inherits the test runner's blocked signal mask, so SIGTERM stays pending.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let number = display.dropFirst()
        try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(number)")
        try? FileManager.default.removeItem(atPath: "/tmp/.X\(number)-lock")
    }
}

/// `mypass clip` and its clearing half `unclip`, under Xvfb with xclip.
@Suite("mypass clip: the clipboard with expiry")
struct ClipTests {
    /// The X tools, or `nil` after a visible skip.
    static func tools(_ test: String) -> (xvfb: URL, xclip: URL)? {
        guard let xvfb = InteropTools.executable(named: "Xvfb"), let xclip = InteropTools.executable(named: "xclip") else {
            if let message = InteropTools.missing("Xvfb and xclip", test: test) { Issue.record(Comment(rawValue: message)) }
            return nil
        }
        return (xvfb, xclip)
    }

    /// A sandbox whose commands see `display` and no Wayland.
    static func environment(_ sandbox: AgentSandbox, _ display: VirtualDisplay) -> [String: String] {
        ["DISPLAY": display.display, "WAYLAND_DISPLAY": ""]
    }

    /// What the X clipboard holds (xclip -o), or `nil` when it holds nothing.
    static func clipboard(_ xclip: URL, _ display: VirtualDisplay) throws -> String? {
        let result = try runProcess(xclip, ["-selection", "clipboard", "-out"], environment: ["DISPLAY": display.display])
        return result.status == 0 ? result.stdoutText : nil
    }

    /// The pids of `mypass unclip` processes that talk to `display`.
    static func unclipProcesses(_ display: VirtualDisplay) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), let cmdline = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
                  cmdline.split(separator: 0).dropFirst().first.map({ String(decoding: $0, as: UTF8.self) }) == "unclip",
                  let environ = FileManager.default.contents(atPath: "/proc/\(entry)/environ")
            else { return nil }
            let variables = environ.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return variables.contains("DISPLAY=" + display.display) ? pid : nil
        }
    }

    @Test("clip with an unlocked vault sets the clipboard (xclip under Xvfb) and clears it after the timeout")
    func setAndCleared() throws {
        guard let (xvfb, xclip) = Self.tools("clip set and cleared") else { return }
        let display = try VirtualDisplay(xvfb: xvfb)
        let sandbox = try AgentSandbox()
        let extra = Self.environment(sandbox, display)
        let vault = try sandbox.scratch.copy(Demo.vault)
        #expect(try sandbox.run(["unlock", vault], stdin: Demo.stdin).status == 0)
        let password = try sandbox.run(["show", vault, "Work/GitHub", "--field", "Password"]).stdoutText.dropLast()

        let clip = try sandbox.run(["clip", vault, "Work/GitHub", "--timeout", "1"], extra: extra)
        #expect(clip.status == 0, "\(clip.stderrText)")
        #expect(clip.stdout.isEmpty)
        #expect(clip.stderrText == "Copied the Password of 'Work/GitHub' to the clipboard; cleared in 1 s unless something else is copied meanwhile.\n")
        #expect(try Self.clipboard(xclip, display) == String(password))
        // The value is on no command line: only the digest went to unclip, on its stdin.
        for pid in Self.unclipProcesses(display) {
            let cmdline = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
            #expect(!String(decoding: cmdline, as: UTF8.self).contains(password))
        }
        #expect(sandbox.eventually { Self.unclipProcesses(display).isEmpty })
        #expect((try Self.clipboard(xclip, display) ?? "").isEmpty, "cleared")
    }

    @Test("a value copied meanwhile is left alone; --totp and --field copy those values")
    func leftAloneWhenReplaced() throws {
        guard let (xvfb, xclip) = Self.tools("clip left alone") else { return }
        let display = try VirtualDisplay(xvfb: xvfb)
        let sandbox = try AgentSandbox()
        let extra = Self.environment(sandbox, display)
        let vault = try sandbox.scratch.copy(Demo.vault)
        #expect(try sandbox.run(["unlock", vault], stdin: Demo.stdin).status == 0)

        let totp = try sandbox.run(["totp", vault, "Work/GitHub", "--time", "1770000000"]).stdoutText.dropLast()
        let first = try sandbox.run(["clip", vault, "Work/GitHub", "--totp", "--time", "1770000000", "--timeout", "1"], extra: extra)
        #expect(first.status == 0, "\(first.stderrText)")
        #expect(try Self.clipboard(xclip, display) == String(totp))
        // Something else is copied before the timeout (not cleared by itself: --timeout 0).
        let second = try sandbox.run(["clip", vault, "Work/Jira", "--field", "UserName", "--timeout", "0"], extra: extra)
        #expect(second.status == 0, "\(second.stderrText)")
        #expect(try Self.clipboard(xclip, display) == "sam@example.com")
        #expect(sandbox.eventually { Self.unclipProcesses(display).isEmpty })
        #expect(try Self.clipboard(xclip, display) == "sam@example.com", "the first clip's clearing left the new value alone")

        let both = try sandbox.run(["clip", vault, "Work/GitHub", "--totp", "--field", "UserName"], extra: extra)
        #expect(both.status == 2)
        let missing = try sandbox.run(["clip", vault, "Work/GitHub", "--field", "Nope"], extra: extra)
        #expect(missing.status == 1)
        #expect(CLI.firstErrorLine(missing) == "Error: entry 'Work/GitHub' has no field 'Nope'; its fields: 'Title', 'UserName', 'Password', 'URL', 'Notes', 'otp', 'Tokens'")
    }

    @Test("--osc52 writes the terminal escape with the value in base64; no display and no tool is an error")
    func osc52AndNoTool() throws {
        let sandbox = try AgentSandbox()
        let vault = try sandbox.scratch.copy(Demo.vault)
        let osc = try sandbox.run(["clip", vault, "Work/Jira", "--field", "UserName", "--osc52", "--no-agent"], stdin: Demo.stdin)
        #expect(osc.status == 0)
        #expect(osc.stdoutText == "\u{1B}]52;c;" + Base64.encode(Array("sam@example.com".utf8)) + "\u{07}")
        let none = try sandbox.run(["clip", vault, "Work/Jira", "--no-agent"], stdin: Demo.stdin,
                                   extra: ["DISPLAY": "", "WAYLAND_DISPLAY": ""])
        #expect(none.status == 1)
        #expect(CLI.firstErrorLine(none).hasPrefix("Error: no clipboard tool found"))
    }
}
