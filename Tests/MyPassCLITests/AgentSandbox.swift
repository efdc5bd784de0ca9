import Foundation
import MyPassTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A private `XDG_RUNTIME_DIR` for one test, so that each test talks to its own `mypass agent`;
/// the agent is stopped when the sandbox goes.
final class AgentSandbox {
    let scratch: Scratch
    /// `XDG_RUNTIME_DIR` of the commands run here (mode 0700).
    let runtime: URL
    /// The agent's directory and socket below it.
    var agentDirectory: String { runtime.path + "/mypass" }
    var socketPath: String { agentDirectory + "/agent.sock" }
    /// The environment commands run with.
    let environment: [String: String]

    init() throws {
        scratch = try Scratch()
        runtime = scratch.url.appendingPathComponent("rt")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment["MYPASS_NO_AGENT"] = nil
        self.environment = environment
    }

    deinit {
        _ = try? run(["lock"])
        if let pid = agentPID { kill(pid, SIGKILL) }
    }

    /// Runs `mypass arguments...` with `stdin` in this sandbox; `extra` adds to the environment.
    func run(_ arguments: [String], stdin: String = "", extra: [String: String] = [:]) throws -> ProcessResult {
        try runProcess(CLI.binary, arguments, stdin: Array(stdin.utf8),
                       environment: environment.merging(extra) { $1 })
    }

    /// Runs `mypass arguments...` as the user `nobody` (uid 65534) through setpriv.
    func runAsNobody(_ arguments: [String], stdin: String = "") throws -> ProcessResult {
        try runProcess(URL(fileURLWithPath: "/usr/bin/setpriv"),
                       ["--reuid=65534", "--regid=65534", "--clear-groups", CLI.binary.path] + arguments,
                       stdin: Array(stdin.utf8), environment: environment)
    }

    /// The pid of this sandbox's agent (a `mypass agent` process whose XDG_RUNTIME_DIR is ours).
    var agentPID: pid_t? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = pid_t(entry),
                  let cmdline = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
            else { continue }
            let arguments = cmdline.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            guard arguments.count == 2, arguments[0].hasSuffix("mypass"), arguments[1] == "agent",
                  let environ = FileManager.default.contents(atPath: "/proc/\(entry)/environ")
            else { continue }
            let variables = environ.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            if variables.contains("XDG_RUNTIME_DIR=" + runtime.path) { return pid }
        }
        return nil
    }

    /// Polls `condition` every 50 ms for up to `seconds`; whether it became true.
    func eventually(within seconds: Double = 15, _ condition: () throws -> Bool) rethrows -> Bool {
        let end = Date().addingTimeInterval(seconds)
        repeat {
            if try condition() { return true }
            usleep(50_000)
        } while Date() < end
        return try condition()
    }

    /// `mypass status` as `[path: seconds left]`.
    func held() throws -> [String: Int] {
        let result = try run(["status"])
        var held: [String: Int] = [:]
        for line in result.stdoutText.split(separator: "\n") {
            let parts = line.split(separator: "\t")
            if parts.count == 2 { held[String(parts[0])] = Int(parts[1]) }
        }
        return held
    }

    /// `lstat` of a path: file type and permission bits, and the owner.
    static func mode(_ path: String) -> (type: mode_t, permissions: mode_t, owner: uid_t)? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return (status.st_mode & S_IFMT, status.st_mode & 0o7777, status.st_uid)
    }
}

/// Whether 32 bytes occur anywhere in the writable memory of process `pid` (read through
/// `/proc/PID/mem`, which needs root or the same user and ptrace rights).
enum ProcessMemory {
    /// For each needle, whether it was found; `nil` when the memory could not be read.
    static func contains(pid: pid_t, _ needles: [[UInt8]]) -> [Bool]? {
        guard let maps = try? String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8) else { return nil }
        let fd = open("/proc/\(pid)/mem", O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var found = [Bool](repeating: false, count: needles.count)
        let chunk = 1 << 20
        var buffer = [UInt8](repeating: 0, count: chunk + 64)
        var readAny = false
        for line in maps.split(separator: "\n") {
            let columns = line.split(separator: " ", omittingEmptySubsequences: true)
            guard columns.count >= 2, columns[1].hasPrefix("rw") else { continue }
            let range = columns[0].split(separator: "-")
            guard range.count == 2, let start = UInt64(range[0], radix: 16), let end = UInt64(range[1], radix: 16) else { continue }
            var offset = start
            while offset < end {
                // Overlap chunks by 64 bytes so that a needle across a boundary is seen.
                let length = Int(min(UInt64(chunk + 64), end - offset))
                let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, length, off_t(offset)) }
                guard count > 0 else { break }
                readAny = true
                let window = buffer[0..<count]
                for (index, needle) in needles.enumerated() where !found[index] {
                    found[index] = occurs(needle, in: window)
                }
                offset += UInt64(chunk)
            }
        }
        return readAny ? found : nil
    }

    /// Whether `needle` occurs in `haystack` (memchr for its first byte, then memcmp).
    static func occurs(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Bool {
        haystack.withUnsafeBytes { hay in
            needle.withUnsafeBytes { pattern in
                guard let base = hay.baseAddress, pattern.count > 0, hay.count >= pattern.count else { return false }
                var offset = 0
                let last = hay.count - pattern.count
                while offset <= last {
                    guard let hit = memchr(base + offset, Int32(pattern[0]), last - offset + 1) else { return false }
                    let position = base.distance(to: UnsafeRawPointer(hit))
                    if memcmp(base + position, pattern.baseAddress!, pattern.count) == 0 { return true }
                    offset = position + 1
                }
                return false
            }
        }
    }
}
