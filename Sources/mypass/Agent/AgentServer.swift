import Foundation
import MyPassBytes
#if canImport(Glibc)
import Glibc
#endif

/// `mypass agent`: the per-user process that keeps unlocked vaults' keys in memory and hands them
/// to `mypass` commands of the same user over ``AgentSocket``.
///
/// Per vault it keeps the composite key and the transformed key with the KDF parameters it was
/// derived for, in ``SecureBytes``; never the password, never anything on disk but its socket.
/// Each vault's timeout counts from its last use; an expired or locked vault's keys are wiped at
/// once, and the agent exits (removing its socket) when it holds nothing.
final class AgentServer {
    /// One unlocked vault.
    struct Held {
        var compositeKey: SecureBytes
        var flags: SecureBytes
        var transformedKey: SecureBytes
        var kdf: SecureBytes
        var timeout: Duration
        var deadline: ContinuousClock.Instant
    }

    /// The most vaults held at once.
    static let maxVaults = 64
    /// Seconds a freshly started agent waits for its first vault before it exits.
    static let startupGraceSeconds = 30

    private var vaults: [String: Held] = [:]
    private let clock = ContinuousClock()
    private let listener: Int32
    private let startedAt: ContinuousClock.Instant

    private init(listener: Int32) {
        self.listener = listener
        startedAt = clock.now
    }

    /// Detaches from the terminal, listens and serves until nothing is held.
    /// - Returns: the exit code (0, or 1 when the socket cannot be used).
    static func run() -> Int32 {
        detach()
        let listener: Int32
        do {
            guard let fd = try AgentSocket.listen() else { return 0 }  // another agent already serves
            listener = fd
        } catch {
            Console.errLine("Error: \(error.reason)")
            return 1
        }
        let server = AgentServer(listener: listener)
        server.serve()
        // A socket left behind is stale: the next agent's listen() replaces it.
        _ = unlink(AgentSocket.path)
        _ = close(listener)
        return 0
    }

    /// A new session without a controlling terminal; stray descriptors closed. (Core dumps and
    /// `ptrace` were turned off when this `mypass` process started: ``ProcessHardening/apply()``.)
    private static func detach() {
        _ = setsid()  // EPERM only when already a group leader
        // signal() fails only for an invalid signal number.
        _ = signal(SIGPIPE, SIG_IGN)
        _ = signal(SIGHUP, SIG_IGN)
        // Descriptors inherited from whoever started us (a test harness's pipes, say); EBADF for
        // the ones not open is the point.
        for fd in 3..<256 { _ = close(Int32(fd)) }
        _ = chdir("/")  // only so as not to hold a mount busy: a failure changes nothing else
    }

    private func serve() {
        while true {
            expire()
            if vaults.isEmpty && clock.now - startedAt > .seconds(Self.startupGraceSeconds) { return }
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(waitMilliseconds()))
            guard ready > 0 else { continue }
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { continue }
            let connection = AgentSocket(fd: fd)
            guard (try? connection.setTimeouts()) != nil else { continue }  // closed as it goes
            handle(connection)
            if vaults.isEmpty && hadVaults { return }
        }
    }

    /// Whether a vault was ever held (then holding none ends the agent).
    private var hadVaults = false

    /// Milliseconds until the next deadline (at most one second, so that the startup grace ends too).
    private func waitMilliseconds() -> Int {
        let now = clock.now
        var wait = Duration.seconds(1)
        for held in vaults.values { wait = min(wait, held.deadline - now) }
        let (seconds, attoseconds) = wait.components
        return max(0, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)) + 1
    }

    /// Wipes and forgets the vaults whose timeout passed.
    private func expire() {
        let now = clock.now
        for (path, held) in vaults where held.deadline <= now { forget(path) }
    }

    /// Drops a vault's keys: the last reference to their storage goes, and ``SecureBytes`` wipes
    /// it on release (a `removeAll()` on a shared copy would only wipe a fresh copy).
    private func forget(_ path: String) {
        vaults[path] = nil
    }

    private func handle(_ connection: AgentSocket) {
        guard let peer = connection.peerUID(), peer == geteuid() else {
            try? connection.send(AgentMessage(.refused))
            return
        }
        guard let request = try? connection.receive() else { return }
        expire()
        let response = respond(to: request)
        try? connection.send(response)
    }

    private func respond(to request: AgentMessage) -> AgentMessage {
        guard let kind = AgentMessage.Request(rawValue: request.code) else { return AgentMessage(.badRequest) }
        let now = clock.now
        switch kind {
        case .status:
            var fields: [SecureBytes] = []
            for path in vaults.keys.sorted() {
                let left = vaults[path]!.deadline - now
                fields.append(AgentMessage.field(path))
                fields.append(AgentMessage.field(UInt64(max(0, left.components.seconds))))
            }
            return AgentMessage(.ok, fields: fields)
        case .get:
            guard request.fields.count == 1, let path = request.text(0) else { return AgentMessage(.badRequest) }
            guard var held = vaults[path] else { return AgentMessage(.notHeld) }
            held.deadline = now + held.timeout
            vaults[path] = held
            return AgentMessage(.ok, fields: [
                held.compositeKey, held.flags, held.transformedKey, held.kdf,
                AgentMessage.field(UInt64(held.timeout.components.seconds)),
            ])
        case .put:
            guard request.fields.count == 6, let path = request.text(0), AgentMessage.isCompositeKeyField(request.fields[1]),
                  request.fields[2].count == 1, AgentMessage.isTransformedKeyField(request.fields[3]),
                  let seconds = request.uint64(5), seconds >= 1, seconds <= AgentClient.maxTimeoutSeconds
            else { return AgentMessage(.badRequest) }
            guard vaults[path] != nil || vaults.count < Self.maxVaults else { return AgentMessage(.badRequest) }
            forget(path)
            let timeout = Duration.seconds(Int64(seconds))
            vaults[path] = Held(compositeKey: request.fields[1], flags: request.fields[2],
                                transformedKey: request.fields[3], kdf: request.fields[4],
                                timeout: timeout, deadline: now + timeout)
            hadVaults = true
            return AgentMessage(.ok)
        case .updateKey:
            guard request.fields.count == 3, let path = request.text(0), AgentMessage.isTransformedKeyField(request.fields[1]) else {
                return AgentMessage(.badRequest)
            }
            guard var held = vaults[path] else { return AgentMessage(.notHeld) }
            held.transformedKey = request.fields[1]
            held.kdf = request.fields[2]
            held.deadline = now + held.timeout
            vaults[path] = held
            return AgentMessage(.ok)
        case .lock:
            var count = 0
            if request.fields.isEmpty {
                count = vaults.count
                vaults.removeAll()
            } else if let path = request.text(0), vaults[path] != nil {
                forget(path)
                count = 1
            }
            return AgentMessage(.ok, fields: [AgentMessage.field(UInt64(count))])
        }
    }
}
