import Foundation
import MyPassBytes
#if canImport(Glibc)
import Glibc
#endif

/// The agent's Unix socket: where it lives, and one connected stream on it (client or server
/// side) that sends and receives ``AgentMessage`` frames.
///
/// The socket is `$XDG_RUNTIME_DIR/mypass/agent.sock`, or `<temp>/mypass-<uid>/agent.sock` when
/// `XDG_RUNTIME_DIR` is unset; the directory is mode 0700 and owned by the user, the socket 0600.
/// Both sides check the other end with `SO_PEERCRED`: only the same uid is served or trusted.
final class AgentSocket: @unchecked Sendable {
    /// Seconds a peer may take to send or receive one frame before the connection is dropped.
    static let ioTimeoutSeconds = 5

    /// The connected descriptor.
    let fd: Int32

    init(fd: Int32) { self.fd = fd }

    deinit { close(fd) }

    // MARK: - Location

    /// The directory that holds the socket (not created).
    static var directory: String {
        let environment = ProcessInfo.processInfo.environment
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return runtime + "/mypass"
        }
        var temporary = environment["TMPDIR"] ?? "/tmp"
        if !temporary.hasPrefix("/") { temporary = "/tmp" }
        while temporary.count > 1 && temporary.hasSuffix("/") { temporary.removeLast() }
        return temporary + "/mypass-\(geteuid())"
    }

    /// The socket's path.
    static var path: String { directory + "/agent.sock" }

    /// Creates the socket directory (mode 0700) when missing, and checks that it is a directory
    /// owned by this user that nobody else can enter.
    /// - Throws: ``AgentError/unsafe(_:)`` otherwise.
    static func prepareDirectory() throws(AgentError) {
        let directory = Self.directory
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw .unsafe("cannot create the agent directory \(directory): \(String(cString: strerror(errno)))")
        }
        try checkDirectory()
    }

    /// Checks the socket directory: a real directory, ours, mode 0700.
    static func checkDirectory() throws(AgentError) {
        var status = stat()
        guard lstat(directory, &status) == 0 else { throw .unavailable("no agent directory") }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw .unsafe("\(directory) is not a directory") }
        guard status.st_uid == geteuid() else { throw .unsafe("\(directory) belongs to another user") }
        guard status.st_mode & 0o077 == 0 else {
            throw .unsafe("\(directory) is open to other users (mode \(String(status.st_mode & 0o777, radix: 8)))")
        }
    }

    // MARK: - Connecting and listening

    /// Connects to the agent and checks that it runs as this user.
    /// - Throws: ``AgentError/unavailable(_:)`` when no agent answers; `.unsafe` when the socket's
    ///   process is another user's.
    static func connect() throws(AgentError) -> AgentSocket {
        try connect(to: path)
    }

    /// Connects to the Unix socket at `socketPath` and checks that its process runs as this user.
    /// - Throws: as ``connect()``.
    static func connect(to socketPath: String) throws(AgentError) -> AgentSocket {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .unavailable("cannot create a socket") }
        let connection = AgentSocket(fd: fd)
        let result = try UnixListener.withSocketAddress(socketPath) { address, length in Glibc.connect(fd, address, length) }
        guard result == 0 else { throw .unavailable("no agent is running (\(String(cString: strerror(errno))))") }
        guard let peer = connection.peerUID(), peer == geteuid() else {
            throw .unsafe("the agent socket \(socketPath) is served by another user")
        }
        try connection.setTimeouts()
        return connection
    }

    /// Binds and listens on the socket path (mode 0600), replacing a stale socket.
    /// - Returns: the listener, or `nil` when another agent already answers there.
    /// - Throws: ``AgentError/unsafe(_:)`` for an unsafe directory, `.unavailable` when binding fails.
    static func listen() throws(AgentError) -> UnixListener? {
        try prepareDirectory()
        return try UnixListener.bind(path, backlog: 64) { (try? connect()) != nil }
    }

    // MARK: - Peer and frames

    /// The uid of the process at the other end (`SO_PEERCRED`), or `nil` when unknown.
    func peerUID() -> uid_t? {
        var credentials = PeerCredentials()
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        return credentials.uid
    }

    /// The pid of the process at the other end when it connected (`SO_PEERCRED`), or `nil`.
    func peerPID() -> pid_t? {
        var credentials = PeerCredentials()
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        return credentials.pid
    }

    /// Linux's `struct ucred` (`pid_t`, `uid_t`, `gid_t`), which the Glibc module does not export.
    private struct PeerCredentials {
        var pid: Int32 = 0
        var uid: uid_t = 0
        var gid: gid_t = 0
    }

    /// Bounds every read and write so that a stalled peer cannot hang the other side.
    /// - Throws: ``AgentError/unavailable(_:)`` when the socket refuses a timeout (the
    ///   connection is then not used: without them a stalled peer could hang it).
    func setTimeouts() throws(AgentError) {
        var timeout = timeval(tv_sec: Self.ioTimeoutSeconds, tv_usec: 0)
        let size = socklen_t(MemoryLayout<timeval>.size)
        guard setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, size) == 0,
              setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, size) == 0 else {
            throw .unavailable("cannot set the agent socket's timeouts (\(String(cString: strerror(errno))))")
        }
    }

    /// Sends one frame.
    /// - Throws: ``AgentError/unavailable(_:)`` when the peer went away.
    func send(_ message: AgentMessage) throws(AgentError) {
        var frame = SecureBytes(AgentMessage.uint32LE(0))
        let body = message.encodedBody()
        body.withUnsafeBytes { frame.append(contentsOf: $0) }
        let length = AgentMessage.uint32LE(UInt32(body.count))
        for index in 0..<4 { frame[index] = length[index] }
        let sent = frame.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let count = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        guard sent else { throw .unavailable("the agent connection closed") }
    }

    /// Sends bytes as they are (an SSH agent frame).
    /// - Throws: ``AgentError/unavailable(_:)`` when the peer went away or stalled.
    func sendRaw(_ bytes: SecureBytes) throws(AgentError) {
        let sent = bytes.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let count = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        guard sent else { throw .unavailable("the connection closed") }
    }

    /// Receives one frame, all of it before `deadline` (default: ``ioTimeoutSeconds`` from now),
    /// however the peer spreads its bytes.
    /// - Throws: ``AgentError/unavailable(_:)`` when the peer closed; `.timedOut` when the frame
    ///   was not complete by the deadline; `.protocolError` for a frame out of bounds.
    func receive(before deadline: ContinuousClock.Instant? = nil) throws(AgentError) -> AgentMessage {
        let deadline = deadline ?? ContinuousClock.now + .seconds(Self.ioTimeoutSeconds)
        var header = SecureBytes(zeroedCount: 4)
        try read(into: &header, before: deadline)
        let length = Int(header[0]) | Int(header[1]) << 8 | Int(header[2]) << 16 | Int(header[3]) << 24
        guard length >= 1 && length <= AgentMessage.maxBodyBytes else { throw .protocolError("frame of \(length) bytes") }
        var body = SecureBytes(zeroedCount: length)
        try read(into: &body, before: deadline)
        return try AgentMessage(body: body)
    }

    /// Fills `buffer` from the socket, waiting for each piece no later than `deadline`.
    /// - Throws: ``AgentError/timedOut(_:)`` at the deadline, `.unavailable` when the peer closed.
    func read(into buffer: inout SecureBytes, before deadline: ContinuousClock.Instant) throws(AgentError) {
        let fd = self.fd
        let outcome = buffer.withUnsafeMutableBytes { raw -> Int in
            var offset = 0
            while offset < raw.count {
                guard Self.waitReadable(fd, before: deadline) else { return -1 }
                let count = recv(fd, raw.baseAddress! + offset, raw.count - offset, 0)
                if count < 0 && errno == EINTR { continue }
                if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return -1 }
                guard count > 0 else { return 0 }
                offset += count
            }
            return 1
        }
        switch outcome {
        case 1: return
        case -1: throw .timedOut("the agent did not answer within \(Self.ioTimeoutSeconds) s")
        default: throw .unavailable("the agent connection closed")
        }
    }

    /// Waits until `fd` is readable (or closed); false when `deadline` passed first.
    static func waitReadable(_ fd: Int32, before deadline: ContinuousClock.Instant) -> Bool {
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return false }
            let (seconds, attoseconds) = left.components
            let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, milliseconds)
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { return true }  // let recv report the error
        }
    }
}
