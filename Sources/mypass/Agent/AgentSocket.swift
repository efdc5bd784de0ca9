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
final class AgentSocket {
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
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw .unavailable("cannot create a socket") }
        let connection = AgentSocket(fd: fd)
        let result = try withAddress(path) { address, length in Glibc.connect(fd, address, length) }
        guard result == 0 else { throw .unavailable("no agent is running (\(String(cString: strerror(errno))))") }
        guard let peer = connection.peerUID(), peer == geteuid() else {
            throw .unsafe("the agent socket \(path) is served by another user")
        }
        try connection.setTimeouts()
        return connection
    }

    /// Binds and listens on the socket path (mode 0600), replacing a stale socket.
    /// - Returns: the listening descriptor, or `nil` when another agent already answers there.
    /// - Throws: ``AgentError/unsafe(_:)`` for an unsafe directory, `.unavailable` when binding fails.
    static func listen() throws(AgentError) -> Int32? {
        try prepareDirectory()
        if (try? connect()) != nil { return nil }
        // A stale socket (no agent answered); ENOENT when there is none. Any other failure
        // shows as bind's EADDRINUSE below.
        _ = unlink(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw .unavailable("cannot create a socket") }
        let previous = umask(0o177)
        let bound = try withAddress(path) { address, length in bind(fd, address, length) }
        _ = umask(previous)  // umask cannot fail
        guard bound == 0, chmod(path, 0o600) == 0, Glibc.listen(fd, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw .unavailable("cannot listen on \(path): \(reason)")
        }
        return fd
    }

    /// Calls `body` with a `sockaddr_un` for `path`.
    private static func withAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) throws(AgentError) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { throw .unsafe("the socket path is longer than \(capacity - 1) bytes: \(path)") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    // MARK: - Peer and frames

    /// The uid of the process at the other end (`SO_PEERCRED`), or `nil` when unknown.
    func peerUID() -> uid_t? {
        var credentials = PeerCredentials()
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        return credentials.uid
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

    /// Receives one frame.
    /// - Throws: ``AgentError/unavailable(_:)`` when the peer closed or timed out;
    ///   `.protocolError` for a frame out of bounds.
    func receive() throws(AgentError) -> AgentMessage {
        var header = SecureBytes(zeroedCount: 4)
        try read(into: &header)
        let length = Int(header[0]) | Int(header[1]) << 8 | Int(header[2]) << 16 | Int(header[3]) << 24
        guard length >= 1 && length <= AgentMessage.maxBodyBytes else { throw .protocolError("frame of \(length) bytes") }
        var body = SecureBytes(zeroedCount: length)
        try read(into: &body)
        return try AgentMessage(body: body)
    }

    private func read(into buffer: inout SecureBytes) throws(AgentError) {
        let complete = buffer.withUnsafeMutableBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let count = recv(fd, raw.baseAddress! + offset, raw.count - offset, 0)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        guard complete else { throw .unavailable("the agent connection closed") }
    }
}
