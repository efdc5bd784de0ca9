import Foundation
import MyPassTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The agent's socket and connections under the failures the reliability audit found: its
/// socket removed (a temporary-file cleaner) or replaced by another agent's, an idle or
/// trickling client, an agent that stopped answering.
@Suite("mypass agent: a removed socket, slow clients, a silent agent")
struct AgentRobustnessTests {
    /// Whether process `pid` still exists (a zombie counts as gone: the agent is our grandchild,
    /// reaped by init, so it never lingers as one).
    static func isAlive(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        let status = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return !status.contains(") Z ")
    }

    @Test("a removed socket: the agent forgets its keys and exits at once, not at its timeout")
    func removedSocket() throws {
        let sandbox = try AgentSandbox()
        let vault = try sandbox.scratch.copy(Demo.vault)
        #expect(try sandbox.run(["unlock", vault, "--timeout", "600"], stdin: Demo.stdin).status == 0)
        let pid = try #require(sandbox.agentPID)
        #expect(unlink(sandbox.socketPath) == 0)
        #expect(sandbox.eventually(within: 10) { !Self.isAlive(pid) }, "the agent outlived its socket")
        // Nothing left behind, and the next command asks for the password.
        #expect(!FileManager.default.fileExists(atPath: sandbox.socketPath))
        let asks = try sandbox.run(["show", vault, "Work/GitHub"])
        #expect(asks.status == 1 && CLI.firstErrorLine(asks).contains("no password on standard input"))
    }

    @Test("an agent whose socket was replaced never removes the new agent's socket")
    func replacedSocket() throws {
        let sandbox = try AgentSandbox()
        let vault = try sandbox.scratch.copy(Demo.vault)
        // The first agent would end by itself after 2 s (its timeout) and remove "its" socket.
        #expect(try sandbox.run(["unlock", vault, "--timeout", "2"], stdin: Demo.stdin).status == 0)
        let first = try #require(sandbox.agentPID)
        #expect(unlink(sandbox.socketPath) == 0)
        // A second unlock finds no socket and starts a second agent, which binds a new one.
        let unlock = try sandbox.run(["unlock", vault, "--timeout", "600"], stdin: Demo.stdin)
        #expect(unlock.status == 0, "\(unlock.stderrText)")
        #expect(sandbox.eventually(within: 10) { !Self.isAlive(first) }, "the first agent never ended")
        usleep(300_000)
        let second = try #require(sandbox.agentPID)
        #expect(second != first)
        #expect(FileManager.default.fileExists(atPath: sandbox.socketPath), "the first agent removed the second's socket")
        let held = try sandbox.held()
        #expect(held[vault].map { $0 > 500 } == true, "status: \(held)")
        #expect(try sandbox.run(["show", vault, "Work/GitHub", "--field", "UserName"]).stdoutText == "sam-dev\n")
    }

    @Test("an idle connection does not hold status back; a client trickling bytes is dropped at its deadline")
    func slowClients() throws {
        let sandbox = try AgentSandbox()
        let vault = try sandbox.scratch.copy(Demo.vault)
        #expect(try sandbox.run(["unlock", vault], stdin: Demo.stdin).status == 0)
        let idle = try #require(RawConnection(path: sandbox.socketPath))
        let trickle = try #require(RawConnection(path: sandbox.socketPath))
        // A frame announcing 100 bytes, then one byte a second.
        #expect(trickle.send([100, 0, 0, 0]))
        let dropped = BackgroundValue<Double> {
            let start = Date()
            for _ in 0..<30 {
                guard trickle.send([0x53]) else { break }
                usleep(1_000_000)
            }
            return Date().timeIntervalSince(start)
        }
        for _ in 0..<3 {
            let start = Date()
            let status = try sandbox.run(["status"])
            let seconds = Date().timeIntervalSince(start)
            #expect(status.status == 0, "\(status.stderrText)")
            #expect(status.stdoutText.hasPrefix(vault + "\t"), "status with an idle client: \(status.stderrText)")
            #expect(seconds < 4, "status waited \(seconds) s behind the idle client")
            usleep(500_000)
        }
        // The agent closes the trickling connection at its deadline (5 s after it connected).
        let served = try #require(dropped.wait(seconds: 40), "the trickling client was never dropped")
        #expect(served <= 15, "the trickling client was served for \(served) s")
        _ = idle
    }

    @Test("a silent agent (stopped): status says the agent did not answer; show asks for the password")
    func silentAgent() throws {
        let sandbox = try AgentSandbox()
        let vault = try sandbox.scratch.copy(Demo.vault)
        #expect(try sandbox.run(["unlock", vault], stdin: Demo.stdin).status == 0)
        let pid = try #require(sandbox.agentPID)
        kill(pid, SIGSTOP)
        defer { kill(pid, SIGCONT) }
        let status = try sandbox.run(["status"])
        #expect(status.status == 1)
        #expect(CLI.firstErrorLine(status).contains("the agent did not answer"), "\(status.stderrText)")
        #expect(!status.stderrText.contains("No vault is unlocked"))
        let lock = try sandbox.run(["lock"])
        #expect(lock.status == 1)
        #expect(CLI.firstErrorLine(lock).contains("the agent did not answer"), "\(lock.stderrText)")
        let show = try sandbox.run(["show", vault, "Work/GitHub", "--field", "UserName"], stdin: Demo.stdin)
        #expect(show.stdoutText == "sam-dev\n", "\(show.stderrText)")
        kill(pid, SIGCONT)
        #expect(try sandbox.held()[vault] != nil)
    }
}

/// A raw client connection to a Unix socket, for clients that misbehave.
final class RawConnection: @unchecked Sendable {
    let fd: Int32

    init?(path: String) {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
    }

    deinit { close(fd) }

    /// Sends all of `bytes`; false when the peer closed the connection.
    func send(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            Glibc.send(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL)) == raw.count
        }
    }

    /// Reads what arrives within `seconds` (until the peer closes, or `count` bytes); `nil` on a
    /// timeout with nothing read.
    func receive(count: Int = 1 << 20, seconds: Double = 10) -> [UInt8]? {
        var result: [UInt8] = []
        let end = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while result.count < count {
            let left = end.timeIntervalSinceNow
            if left <= 0 { return result.isEmpty ? nil : result }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(left * 1000) + 1) > 0 else { continue }
            let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, min($0.count, count - result.count), 0) }
            if got <= 0 { break }
            result += buffer[0..<got]
        }
        return result
    }
}

/// Runs `body` on another thread; ``wait(seconds:)`` gives its value, or `nil` on a timeout.
final class BackgroundValue<Value: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var value: Value?

    init(_ body: @escaping @Sendable () -> Value) {
        Thread.detachNewThread { [self] in
            let outcome = body()
            lock.withLock { value = outcome }
            done.signal()
        }
    }

    func wait(seconds: Double) -> Value? {
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return lock.withLock { value }
    }
}
