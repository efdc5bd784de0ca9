import Foundation
import MyPassBytes
import MyPassCrypto
#if canImport(Glibc)
import Glibc
#endif

/// `mypass agent`: the per-user process that keeps unlocked vaults' keys in memory and hands them
/// to `mypass` commands of the same user over ``AgentSocket``.
///
/// Per vault it keeps the composite key and the transformed key with the KDF parameters it was
/// derived for, in ``SecureBytes``; never the password, never anything on disk but its socket.
/// Each vault's timeout counts from its last use; an expired or locked vault's keys are wiped at
/// once, and the agent exits when it holds nothing: it removes its socket first, then answers the
/// requests it already took (the `lock` that ended it among them) and goes.
///
/// Connections are served concurrently, each on its own thread with a deadline for its whole
/// request (``AgentSocket/ioTimeoutSeconds``): an idle or trickling client delays nobody else. At
/// most ``maxConnections`` are open at once; more are closed unanswered. Every tick (at most a
/// second) the agent checks that its socket file is still the one it bound: when it was removed
/// or replaced, nobody can reach the keys any more, so it forgets them and exits, leaving the
/// path alone.
final class AgentServer: @unchecked Sendable {
    /// One unlocked vault.
    struct Held {
        var compositeKey: SecureBytes
        var flags: SecureBytes
        var transformedKey: SecureBytes
        var kdf: SecureBytes
        var timeout: Duration
        var deadline: ContinuousClock.Instant
    }

    /// What the connection threads share, behind ``state``'s lock.
    struct State {
        var vaults: [String: Held] = [:]
        /// Whether a vault was ever held (then holding none ends the agent).
        var hadVaults = false
        /// Connections being served.
        var connections = 0
        /// Of those, the ones on the agent's own socket (one request each): the agent waits for
        /// them before it exits, so that an answer already decided (a `lock`'s) still goes out.
        var requests = 0
        /// Set when the agent decided to exit: requests still arriving are closed unanswered
        /// (a client then starts a new agent) rather than taken by an agent about to go.
        var isClosing = false
        /// The SSH agent sockets served, by path (see `AgentServer+SSH.swift`).
        var sshSockets: [String: SSHSocket] = [:]
        /// The keys they offer, in the order they were added.
        var sshIdentities: [SSHIdentity] = []
        /// Per vault, the terminal `mypass ssh-agent` ran in (for confirmations), open.
        var terminals: [String: Int32] = [:]
        /// Listeners taken out of ``sshSockets``, for the main thread to close (only it closes
        /// listeners, so that it never polls a descriptor number that was closed and reused).
        var listenersToClose: [UnixListener] = []
    }

    /// The most vaults held at once.
    static let maxVaults = 64
    /// Seconds a freshly started agent waits for its first vault before it exits.
    static let startupGraceSeconds = 30
    /// The most connections served at once.
    static let maxConnections = 64

    let state = LockedState(State())
    let clock = ContinuousClock()
    private let listener: UnixListener
    private let startedAt: ContinuousClock.Instant
    /// A pipe a connection thread writes to after each request, so that the main loop looks at
    /// the state at once (a lock that leaves nothing held ends the agent without waiting a tick).
    private let wake: (read: Int32, write: Int32)

    private init(listener: UnixListener, wake: (read: Int32, write: Int32)) {
        self.listener = listener
        self.wake = wake
        startedAt = clock.now
    }

    /// Detaches from the terminal, listens and serves until nothing is held.
    /// - Returns: the exit code (0, or 1 when the socket cannot be used).
    static func run() -> Int32 {
        detach()
        let listener: UnixListener
        var pipeEnds: [Int32] = [0, 0]
        do throws(AgentError) {
            guard let bound = try AgentSocket.listen() else { return 0 }  // another agent already serves
            listener = bound
            guard pipe(&pipeEnds) == 0 else { throw .unavailable("cannot create a pipe") }
            for end in pipeEnds {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)  // fails only for a bad descriptor
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            }
        } catch {
            Console.errLine("Error: \(error.reason)")
            return 1
        }
        let server = AgentServer(listener: listener, wake: (pipeEnds[0], pipeEnds[1]))
        let lost = server.serve()
        // Whatever the threads still hold goes with the process; the state's keys go now.
        let sshListeners = server.state.withLock { state -> [UnixListener] in
            state.isClosing = true
            state.vaults.removeAll()
            server.pruneSSH(&state, now: server.clock.now)
            defer { state.listenersToClose.removeAll() }
            return state.listenersToClose
        }
        for sshListener in sshListeners { sshListener.close() }
        if !lost { listener.close() }  // removes the socket only if it is still ours
        // New clients now find no agent and start one; requests already taken are answered.
        server.waitForRequests()
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

    /// Accepts and dispatches connections until nothing is held (or nothing was held within the
    /// startup grace).
    /// - Returns: whether the socket was lost (removed or replaced), so that it is left alone.
    private func serve() -> Bool {
        while true {
            let (done, wait) = tick()
            closePendingListeners()
            if done { return false }
            guard listener.isStillOurs else { return true }
            let sshListeners = state.withLock { $0.sshSockets.values.map(\.listener) }
            var pollers = [pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
            pollers += sshListeners.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&pollers, nfds_t(pollers.count), Int32(wait))
            guard ready > 0 else { continue }
            if pollers[1].revents != 0 { drainWake() }
            if pollers[0].revents & Int16(POLLIN) != 0 { accept(on: listener, ssh: false) }
            for (index, sshListener) in sshListeners.enumerated() where pollers[index + 2].revents & Int16(POLLIN) != 0 {
                accept(on: sshListener, ssh: true)
            }
        }
    }

    /// Waits until the requests being served are answered, at most
    /// ``AgentSocket/ioTimeoutSeconds`` (each is bounded by its deadline anyway).
    ///
    /// The request that ends the agent (a `lock` that leaves nothing held) wakes the main loop
    /// before its thread has sent the answer; exiting then would close the connection unanswered,
    /// and the client would report that no agent runs. Requests that arrive while the agent is
    /// closing are closed unanswered (their clients start a new agent), so this wait ends.
    private func waitForRequests() {
        let deadline = clock.now + .seconds(AgentSocket.ioTimeoutSeconds)
        while state.withLock({ $0.requests }) > 0 {
            let left = deadline - clock.now
            guard left > .zero else { return }
            let (seconds, attoseconds) = left.components
            var poller = pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)
            _ = poll(&poller, 1, Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1))
            drainWake()
        }
    }

    /// Closes the SSH listeners taken out of the state (each removes its socket if still ours).
    private func closePendingListeners() {
        let pending = state.withLock { state -> [UnixListener] in
            defer { state.listenersToClose.removeAll() }
            return state.listenersToClose
        }
        for listener in pending { listener.close() }
    }

    /// Expires vaults whose timeout passed.
    /// - Returns: whether the agent is done, and how long to wait for the next event, in ms (at
    ///   most one second, so that the socket check and the startup grace run).
    private func tick() -> (done: Bool, waitMilliseconds: Int) {
        let now = clock.now
        return state.withLock { state in
            for (path, held) in state.vaults where held.deadline <= now { state.vaults[path] = nil }
            pruneSSH(&state, now: now)
            if state.vaults.isEmpty && (state.hadVaults || now - startedAt > .seconds(Self.startupGraceSeconds)) {
                state.isClosing = true
                return (true, 0)
            }
            var wait = Duration.seconds(1)
            for held in state.vaults.values { wait = min(wait, held.deadline - now) }
            for identity in state.sshIdentities { if let expires = identity.expires { wait = min(wait, expires - now) } }
            let (seconds, attoseconds) = wait.components
            return (false, max(0, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)) + 1)
        }
    }

    private func drainWake() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while buffer.withUnsafeMutableBytes({ read(wake.read, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Accepts one connection and serves it on a thread of its own: the agent's protocol, or the
    /// SSH agent protocol on an SSH socket.
    private func accept(on listener: UnixListener, ssh: Bool) {
        let fd = Glibc.accept(listener.fd, nil, nil)
        guard fd >= 0 else { return }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)  // fails only for a bad descriptor
        let connection = AgentSocket(fd: fd)
        let admitted = state.withLock { state -> Bool in
            guard state.connections < Self.maxConnections, !state.isClosing else { return false }
            state.connections += 1
            if !ssh { state.requests += 1 }
            return true
        }
        guard admitted else { return }  // closed as it goes
        guard (try? connection.setTimeouts()) != nil else { return finished(ssh: ssh) }
        let socketPath = listener.path
        Thread.detachNewThread { [self] in
            if ssh { serveSSH(connection, socket: socketPath) } else { handle(connection) }
            finished(ssh: ssh)
        }
    }

    /// Counts a connection out and makes the main loop look at the state.
    private func finished(ssh: Bool) {
        state.withLock { state in
            state.connections -= 1
            if !ssh { state.requests -= 1 }
        }
        wakeUp()
    }

    /// Makes the main loop look at the state now.
    func wakeUp() {
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)  // EAGAIN when the pipe is full: the loop is awake anyway
    }

    private func handle(_ connection: AgentSocket) {
        guard let peer = connection.peerUID(), peer == geteuid() else {
            try? connection.send(AgentMessage(.refused))
            return
        }
        guard let request = try? connection.receive() else { return }
        // A client that gave up waiting (a stopped agent: it told its user the agent did not
        // answer) and exited must not have its change carried out later.
        if let kind = AgentMessage.Request(rawValue: request.code), kind.changesState,
           let pid = connection.peerPID(), kill(pid, 0) != 0 && errno == ESRCH {
            return
        }
        guard let response = state.withLock({ $0.isClosing ? nil : respond(to: request, in: &$0) }) else { return }
        try? connection.send(response)
    }

    private func respond(to request: AgentMessage, in state: inout State) -> AgentMessage {
        guard let kind = AgentMessage.Request(rawValue: request.code) else { return AgentMessage(.badRequest) }
        let now = clock.now
        switch kind {
        case .sshServe, .sshAdd, .sshList:
            return respondSSH(kind, request, in: &state)
        case .status:
            var fields: [SecureBytes] = []
            for path in state.vaults.keys.sorted() {
                let left = state.vaults[path]!.deadline - now
                fields.append(AgentMessage.field(path))
                fields.append(AgentMessage.field(UInt64(max(0, left.components.seconds))))
            }
            return AgentMessage(.ok, fields: fields)
        case .get:
            guard request.fields.count == 1, let path = request.text(0) else { return AgentMessage(.badRequest) }
            guard var held = state.vaults[path] else { return AgentMessage(.notHeld) }
            held.deadline = now + held.timeout
            state.vaults[path] = held
            return AgentMessage(.ok, fields: [
                held.compositeKey, held.flags, held.transformedKey, held.kdf,
                AgentMessage.field(UInt64(held.timeout.components.seconds)),
            ])
        case .put:
            guard request.fields.count == 6, let path = request.text(0), AgentMessage.isCompositeKeyField(request.fields[1]),
                  request.fields[2].count == 1, AgentMessage.isTransformedKeyField(request.fields[3]),
                  let seconds = request.uint64(5), seconds >= 1, seconds <= AgentClient.maxTimeoutSeconds
            else { return AgentMessage(.badRequest) }
            guard state.vaults[path] != nil || state.vaults.count < Self.maxVaults else { return AgentMessage(.badRequest) }
            state.vaults[path] = nil
            let timeout = Duration.seconds(Int64(seconds))
            state.vaults[path] = Held(compositeKey: request.fields[1], flags: request.fields[2],
                                transformedKey: request.fields[3], kdf: request.fields[4],
                                timeout: timeout, deadline: now + timeout)
            state.hadVaults = true
            return AgentMessage(.ok)
        case .updateKey:
            guard request.fields.count == 3, let path = request.text(0), AgentMessage.isTransformedKeyField(request.fields[1]) else {
                return AgentMessage(.badRequest)
            }
            guard var held = state.vaults[path] else { return AgentMessage(.notHeld) }
            held.transformedKey = request.fields[1]
            held.kdf = request.fields[2]
            held.deadline = now + held.timeout
            state.vaults[path] = held
            return AgentMessage(.ok)
        case .lock:
            var count = 0
            if request.fields.isEmpty {
                count = state.vaults.count
                state.vaults.removeAll()
            } else if let path = request.text(0), state.vaults[path] != nil {
                state.vaults[path] = nil
                count = 1
            }
            pruneSSH(&state, now: now)  // the vault's SSH keys go with it
            wakeUp()
            return AgentMessage(.ok, fields: [AgentMessage.field(UInt64(count))])
        }
    }
}
