import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A listening Unix socket that knows the file it created: the agent's own socket and each SSH
/// agent socket it serves.
///
/// A socket file can be removed (a temporary-file cleaner under `/tmp`) or replaced by another
/// process's socket while we listen. The listener records the device and inode of the file it
/// bound; ``isStillOurs`` compares them with what the path holds now, and ``close()`` removes
/// the file only while it is still the one we created. Binding (which replaces a stale socket)
/// and removing both run under an exclusive `flock` on the socket's directory, so that one
/// process's removal never races another's bind.
final class UnixListener {
    /// Which file a path held: device and inode.
    struct Identity: Equatable {
        var device: UInt64
        var inode: UInt64
    }

    /// The listening descriptor (non-blocking accept is not needed: the caller polls first).
    let fd: Int32
    /// The socket's path.
    let path: String
    /// The file we bound.
    let identity: Identity
    private var isClosed = false

    private init(fd: Int32, path: String, identity: Identity) {
        self.fd = fd
        self.path = path
        self.identity = identity
    }

    deinit { close() }

    /// The socket file at `path` now (`lstat`), or `nil` when there is none or it is not a socket.
    static func identity(of path: String) -> Identity? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else { return nil }
        return Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// Whether the path still holds the socket file this listener created.
    var isStillOurs: Bool { Self.identity(of: path) == identity }

    /// Binds and listens on `path` with mode 0600.
    ///
    /// Under the directory's lock: when `isAnswered()` says a live process serves the path,
    /// nothing is touched and `nil` comes back; a stale socket (nobody answers) is replaced; any
    /// other kind of file is refused.
    /// - Throws: ``AgentError/unavailable(_:)`` when the path cannot be bound, `.unsafe` when it
    ///   holds a file that is not a socket.
    static func bind(_ path: String, backlog: Int32 = 64, isAnswered: () -> Bool) throws(AgentError) -> UnixListener? {
        let directory = (path as NSString).deletingLastPathComponent
        return try withDirectoryLock(directory.isEmpty ? "." : directory) { () throws(AgentError) -> UnixListener? in
            if isAnswered() { return nil }
            var status = stat()
            if lstat(path, &status) == 0 {
                guard status.st_mode & S_IFMT == S_IFSOCK else {
                    throw .unsafe("\(path) exists and is not a socket")
                }
                // A stale socket: nobody answered. A failure shows as bind's EADDRINUSE below.
                _ = unlink(path)
            }
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw .unavailable("cannot create a socket") }
            let previous = umask(0o177)
            let bound = try withSocketAddress(path) { address, length in Glibc.bind(fd, address, length) }
            _ = umask(previous)  // umask cannot fail
            guard bound == 0, chmod(path, 0o600) == 0, Glibc.listen(fd, backlog) == 0,
                  let identity = identity(of: path)
            else {
                let reason = String(cString: strerror(errno))
                Glibc.close(fd)
                throw .unavailable("cannot listen on \(path): \(reason)")
            }
            return UnixListener(fd: fd, path: path, identity: identity)
        }
    }

    /// Stops listening and removes the socket file if it is still the one we created (checked
    /// under the directory's lock; a socket another process bound meanwhile stays).
    func close() {
        guard !isClosed else { return }
        isClosed = true
        _ = Glibc.close(fd)  // first, so that nobody connects to a socket about to go
        let directory = (path as NSString).deletingLastPathComponent
        _ = try? Self.withDirectoryLock(directory.isEmpty ? "." : directory) { () throws(AgentError) in
            if isStillOurs { _ = unlink(path) }  // ENOENT: removed meanwhile, the point
        }
    }

    /// Runs `body` holding an exclusive `flock` on `directory` (waiting up to 3 s for it).
    /// - Throws: ``AgentError/unavailable(_:)`` when the directory cannot be opened or stays
    ///   locked; what `body` throws.
    static func withDirectoryLock<T>(_ directory: String, _ body: () throws(AgentError) -> T) throws(AgentError) -> T {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .unavailable("cannot open \(directory): \(String(cString: strerror(errno)))") }
        defer { Glibc.close(fd) }
        var waited = 0
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, waited < 300 else {
                throw .unavailable("cannot lock \(directory): \(String(cString: strerror(errno)))")
            }
            usleep(10_000)
            waited += 1
        }
        return try body()  // closing the descriptor releases the lock
    }

    /// Calls `body` with a `sockaddr_un` for `path`.
    /// - Throws: ``AgentError/unsafe(_:)`` when the path does not fit in `sun_path`.
    static func withSocketAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) throws(AgentError) -> Int32 {
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
}
