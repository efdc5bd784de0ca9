import Foundation
import MyPassTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The agent SIGKILLed at every step of its protocol, as a client sees it: before the client
/// connects, connected with nothing sent, with the frame length sent, half the body, the whole
/// request (the agent frozen with SIGSTOP, so it never read it), and after the answer. Each time
/// the client's read ends (no hang, never a partial answer), the vault file is byte-identical,
/// and the next client gets a clear answer: `status` says no vault is unlocked, `show` asks for
/// the password again, a new `unlock` replaces the stale socket.
@Suite("Fault injection: the agent killed at every step of its protocol")
struct AgentKillTests {
    enum Step: String, CaseIterable, CustomStringConvertible {
        case beforeConnect, connected, lengthSent, halfBodySent, requestSent, answered
        var description: String { rawValue }
    }

    /// One request of each kind (path `/nope`; the content does not matter, the step does).
    static let requests: [(name: String, hex: String)] = {
        let path = hexString(Array("/nope".utf8))
        func field(_ hex: String) -> String { hexString(uint32LE(hex.count / 2)) + hex }
        func frame(_ code: String, _ fields: [String]) -> String {
            let body = code + fields.map(field).joined()
            return hexString(uint32LE(body.count / 2)) + body
        }
        let key = String(repeating: "11", count: 32)
        let kdf = "0001" + "00"  // an empty VariantDictionary
        return [
            ("status", frame("53", [])),
            ("get", frame("47", [path])),
            ("put", frame("50", [path, key, "01", key, kdf, "3c00000000000000"])),
            ("update-key", frame("4b", [path, key, kdf])),
            ("lock", frame("4c", [path])),
        ]
    }()

    static func uint32LE(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    /// The bytes of `hex` a client has sent at `step`.
    static func prefix(_ hex: String, at step: Step) -> String {
        switch step {
        case .beforeConnect, .connected: return ""
        case .lengthSent: return String(hex.prefix(8))
        case .halfBodySent: return String(hex.prefix(8 + (hex.count - 8) / 4 * 2))
        case .requestSent, .answered: return hex
        }
    }

    /// A raw client: connects, sends the bytes, touches `marker`, then prints the answer in hex
    /// (empty at end of file), `refused` when nobody listens, `error` when the read failed.
    static let client = """
        use IO::Socket::UNIX;
        my ($path, $hex, $marker) = @ARGV;
        my $s = IO::Socket::UNIX->new(Peer => $path) or do { print "refused"; exit 0 };
        syswrite($s, pack('H*', $hex)) if length $hex;
        open(my $m, '>', $marker); close $m;
        my $b = ''; my $total = '';
        while (1) { my $n = sysread($s, $b, 65536); if (!defined $n) { print "error"; exit 0 } last if $n == 0; $total .= $b; }
        print unpack('H*', $total);
        """

    @Test(arguments: AgentKillTests.requests.map(\.name))
    func killedAtEveryStep(_ request: String) throws {
        guard let perl = InteropTools.executable(named: "perl") else {
            if let message = InteropTools.missing("perl", test: "agent killed at every step") { Issue.record(Comment(rawValue: message)) }
            return
        }
        let hex = try #require(Self.requests.first { $0.name == request }).hex
        let sandbox = try AgentSandbox()
        let vault = try sandbox.scratch.copy(Demo.vault)
        let before = try Data(contentsOf: URL(fileURLWithPath: vault))
        for step in Step.allCases {
            let unlock = try sandbox.run(["unlock", vault], stdin: Demo.stdin)
            #expect(unlock.status == 0, "\(step): \(unlock.stderrText)")
            let pid = try #require(sandbox.agentPID)
            let marker = sandbox.scratch.path("sent-\(request)-\(step)")
            let arguments = ["-e", Self.client, sandbox.socketPath, Self.prefix(hex, at: step), marker]
            let answer: String
            switch step {
            case .beforeConnect:
                kill(pid, SIGKILL)
                #expect(sandbox.eventually { sandbox.agentPID == nil })
                answer = try runProcess(perl, arguments).stdoutText
                #expect(answer == "refused", "\(step)")
            case .answered:
                answer = try runProcess(perl, arguments).stdoutText
                #expect(answer.count >= 10, "\(step): a whole frame, \(answer)")
                kill(pid, SIGKILL)
            default:
                kill(pid, SIGSTOP)
                let background = Background { try runProcess(perl, arguments) }
                #expect(sandbox.eventually { FileManager.default.fileExists(atPath: marker) }, "\(step): the client never got there")
                kill(pid, SIGKILL)
                let result = try #require(try background.wait(seconds: 30), "\(step): the client hangs after the agent died")
                answer = result.stdoutText
                #expect(answer == "" || answer == "error", "\(step): never a partial answer, \(answer)")
            }
            #expect(sandbox.eventually { sandbox.agentPID == nil }, "\(step)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: vault)) == before, "\(step): the vault changed")
            let status = try sandbox.run(["status"])
            #expect(status.status == 0 && status.stderrText == "No vault is unlocked.\n", "\(step): \(status.stderrText)")
            let asks = try sandbox.run(["show", vault, "Work/GitHub", "--field", "UserName"])
            #expect(asks.status == 1 && CLI.firstErrorLine(asks).contains("no password on standard input"), "\(step): \(asks.stderrText)")
        }
        // A new unlock replaces the stale socket and serves again.
        #expect(try sandbox.run(["unlock", vault], stdin: Demo.stdin).status == 0)
        #expect(try sandbox.run(["show", vault, "Work/GitHub", "--field", "UserName"]).stdoutText == "sam-dev\n")
    }

    @Test("show and add with the agent frozen mid-request, then killed: they fall back to the password and the vault is whole")
    func realClientsWhileTheAgentDies() throws {
        let sandbox = try AgentSandbox()
        let vault = try sandbox.scratch.copy(Demo.vault)
        for (n, command) in [["show", vault, "Work/GitHub", "--field", "UserName"], ["add", vault, "Killed agent", "--username", "kim"]].enumerated() {
            #expect(try sandbox.run(["unlock", vault], stdin: Demo.stdin).status == 0)
            let pid = try #require(sandbox.agentPID)
            kill(pid, SIGSTOP)
            let environment = sandbox.environment
            let background = Background { try runProcess(CLI.binary, command, stdin: Array(Demo.stdin.utf8), environment: environment) }
            usleep(300_000)  // wherever the client is by now (connecting, sending, waiting), the agent dies
            kill(pid, SIGKILL)
            let result = try #require(try background.wait(seconds: 60), "\(command[0]) hangs after the agent died")
            #expect(result.status == 0, "\(command[0]): \(result.stderrText)")
            if n == 0 { #expect(result.stdoutText == "sam-dev\n") }
            #expect(sandbox.eventually { sandbox.agentPID == nil })
        }
        let listed = try sandbox.run(["show", vault, "Killed agent", "--field", "UserName", "--no-agent"], stdin: Demo.stdin)
        #expect(listed.stdoutText == "kim\n", "\(listed.stderrText)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.scratch.url.path).filter { $0.hasSuffix(".tmp") } == [])
    }
}

/// Runs `body` on another thread; ``wait(seconds:)`` gives its result, or `nil` on a timeout.
final class Background: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var result: Result<ProcessResult, any Error>?

    init(_ body: @escaping @Sendable () throws -> ProcessResult) {
        Thread.detachNewThread { [self] in
            let outcome = Result { try body() }
            lock.withLock { result = outcome }
            done.signal()
        }
    }

    func wait(seconds: Double) throws -> ProcessResult? {
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return try lock.withLock { result }?.get()
    }
}

extension AgentKillTests {
    @Test("the agent starts with no signal blocked whatever its starter blocked, and SIGTERM ends it")
    func theAgentStartsWithNoSignalBlocked() throws {
        let sandbox = try AgentSandbox()
        let vault = try sandbox.scratch.copy(Demo.vault)
        // `mypass unlock` run with SIGTERM, SIGINT and SIGHUP blocked (as a test runner's threads
        // have them, and a blocked mask survives exec): its agent must not inherit that.
        let blocking = "use POSIX; sigprocmask(SIG_BLOCK, POSIX::SigSet->new(SIGTERM, SIGINT, SIGHUP)); exec @ARGV or die"
        let unlock = try runProcess(URL(fileURLWithPath: "/usr/bin/perl"), ["-e", blocking, CLI.binary.path, "unlock", vault],
                                    stdin: Array(Demo.stdin.utf8), environment: sandbox.environment)
        #expect(unlock.status == 0, "\(unlock.stderrText)")
        let pid = try #require(sandbox.agentPID)
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        #expect(status.split(separator: "\n").contains("SigBlk:\t0000000000000000"), "\(status)")
        kill(pid, SIGTERM)
        #expect(sandbox.eventually { sandbox.agentPID == nil }, "the agent outlived SIGTERM")
    }
}
