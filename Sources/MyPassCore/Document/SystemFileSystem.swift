#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The POSIX file system (Linux and Darwin).
public struct SystemFileSystem: VaultFileSystem {
    /// The file system of this process.
    public init() {}

    public func resolve(_ path: String) throws(CoreError) -> String {
        guard let resolved = realpath(path, nil) else { throw Self.error("cannot resolve the path", path) }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    public func status(_ path: String) throws(CoreError) -> VaultFileStatus? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw Self.error("cannot read the file's status", path)
        }
        return Self.status(info)
    }

    public func isWritable(_ path: String) -> Bool { access(path, W_OK) == 0 }

    /// `open(path, O_RDONLY)` that cannot block: with `O_NONBLOCK`, so that a FIFO without a
    /// writer (given as a vault or a key file) opens at once and its `fstat` then refuses it,
    /// instead of hanging in `open`; the flag is cleared again (it means nothing for a regular file).
    /// - Returns: the descriptor, or -1 with `errno` set.
    private static func openForReadingNow(_ path: String) -> Int32 {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return fd }
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 else {
            let reason = errno
            _ = posixClose(fd)
            errno = reason
            return -1
        }
        return fd
    }

    public func readFile(_ path: String, maxBytes: Int) throws(CoreError) -> [UInt8] {
        let fd = Self.openForReadingNow(path)
        guard fd >= 0 else { throw Self.error("cannot open", path) }
        defer { _ = posixClose(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Self.error("cannot read the file's status", path) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw CoreError(.io, "not a regular file", location: path)
        }
        guard Int64(info.st_size) <= Int64(maxBytes) else {
            throw CoreError(.limitExceeded, "the file has \(info.st_size) bytes, more than the limit of \(maxBytes)", location: path)
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes { posixRead(fd, $0.baseAddress! + done, $0.count - done) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Self.error("cannot read", path)
            }
            if count == 0 { throw CoreError(.io, "the file became shorter while it was read", location: path) }
            done += count
        }
        // A file that grew while it was read is read again by the caller's identity check.
        return bytes
    }

    public func openForReading(_ path: String) throws(CoreError) -> VaultFileHandle {
        let fd = Self.openForReadingNow(path)
        guard fd >= 0 else { throw Self.error("cannot open", path) }
        return VaultFileHandle(rawValue: fd)
    }

    public func read(_ handle: VaultFileHandle, into buffer: UnsafeMutableRawBufferPointer) throws(CoreError) -> Int {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        while true {
            let count = posixRead(handle.rawValue, base, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { throw Self.error("cannot read", "") }
        }
    }

    public func lock(_ path: String, timeoutSeconds: Double) throws(CoreError) -> VaultFileHandle {
        let fd = Self.openForReadingNow(path)
        guard fd >= 0 else { throw Self.error("cannot open for locking", path) }
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, timeoutSeconds) * 1000))
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let reason = errno
            guard reason == EWOULDBLOCK || reason == EINTR else {
                _ = posixClose(fd)
                throw Self.error("cannot lock", path, code: reason)
            }
            if ContinuousClock.now >= deadline {
                _ = posixClose(fd)
                throw CoreError(.io, "another program is saving this vault (its lock is still held after \(Int(timeoutSeconds)) seconds)", location: path)
            }
            usleep(20_000)
        }
        return VaultFileHandle(rawValue: fd)
    }

    public func status(of handle: VaultFileHandle) throws(CoreError) -> VaultFileStatus {
        var info = stat()
        guard fstat(handle.rawValue, &info) == 0 else { throw Self.error("cannot read the file's status", "") }
        return Self.status(info)
    }

    public func createExclusive(_ path: String, permissions: UInt32, owner: (userID: UInt32, groupID: UInt32)?) throws(CoreError) -> VaultFileHandle {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Self.error("cannot create a temporary file", path) }
        if let owner, geteuid() == 0 {
            guard fchown(fd, owner.userID, owner.groupID) == 0 else {
                let failure = Self.error("cannot keep the vault's owner", path)
                _ = posixClose(fd)
                throw Self.removing(path, after: failure)
            }
        }
        guard fchmod(fd, mode_t(permissions & 0o7777)) == 0 else {
            let failure = Self.error("cannot set permissions", path)
            _ = posixClose(fd)
            throw Self.removing(path, after: failure)
        }
        return VaultFileHandle(rawValue: fd)
    }

    /// `failure`, with a note when the file it leaves at `path` cannot be removed either.
    private static func removing(_ path: String, after failure: CoreError) -> CoreError {
        guard unlink(path) != 0, errno != ENOENT else { return failure }
        let reason = String(cString: strerror(errno))
        return CoreError(failure.code, failure.reason + "; the empty temporary file could not be removed either (\(reason))",
                         location: failure.location, underlying: failure.underlying)
    }

    public func write(_ handle: VaultFileHandle, _ bytes: UnsafeRawBufferPointer) throws(CoreError) {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let count = posixWrite(handle.rawValue, base + done, bytes.count - done)
            if count < 0 {
                if errno == EINTR { continue }
                throw Self.error("cannot write", "")
            }
            if count == 0 { throw CoreError(.io, "cannot write: the system accepted no bytes") }
            done += count
        }
    }

    public func synchronize(_ handle: VaultFileHandle) throws(CoreError) {
        #if canImport(Darwin)
        if fcntl(handle.rawValue, F_FULLFSYNC) == 0 { return }
        #endif
        guard fsync(handle.rawValue) == 0 else { throw Self.error("cannot flush to disk", "") }
    }

    public func close(_ handle: VaultFileHandle) { _ = posixClose(handle.rawValue) }

    public func rename(_ source: String, to destination: String) throws(CoreError) {
        guard posixRename(source, destination) == 0 else { throw Self.error("cannot replace the vault file", destination) }
    }

    public func exchange(_ source: String, with destination: String) throws(CoreError) -> Bool {
        guard let exchange = atomicExchange else { return false }
        guard exchange(source, destination) == 0 else {
            // EINVAL: the file system (or an old kernel) cannot exchange; ENOSYS: no such call.
            if errno == EINVAL || errno == ENOSYS || errno == ENOTSUP { return false }
            throw Self.error("cannot replace the vault file", destination)
        }
        return true
    }

    public func link(_ source: String, to destination: String) throws(CoreError) {
        guard posixLink(source, destination) == 0 else {
            if errno == EEXIST { throw CoreError(.alreadyExists, "a file is already there; nothing was written", location: destination) }
            throw Self.error("cannot give the new vault its name", destination)
        }
    }

    public func synchronizeDirectory(_ path: String) throws(CoreError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Self.error("cannot open the directory", path) }
        defer { _ = posixClose(fd) }
        guard fsync(fd) == 0 else { throw Self.error("cannot flush the directory to disk", path) }
    }

    public func remove(_ path: String) throws(CoreError) {
        guard unlink(path) == 0 else { throw Self.error("cannot remove", path) }
    }

    public func contentsOfDirectory(_ path: String) throws(CoreError) -> [String] {
        // opendir/readdir rather than FileManager: the AutoFill index open lists the vault's
        // folder on every open, inside the extension's memory budget.
        guard let directory = opendir(path) else { throw Self.error("cannot list the directory", path) }
        defer { _ = closedir(directory) }  // fails only for a stream that is not open
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { throw Self.error("cannot list the directory", path) }
                return names
            }
            // The name is read where it lies, up to its NUL: an entry is only as long as its name
            // (d_reclen), so the declared size of d_name may run past the end of libc's buffer.
            // A name that is not UTF-8 reads with U+FFFD (no stale-file name and no vault matches it then).
            // (No key path for the offset: its first use costs 1.5 MB of peak memory, inside the
            // AutoFill budget.)
            let name = withUnsafeMutablePointer(to: &entry.pointee.d_name) { field in
                let start = UnsafeRawPointer(field)
                return String(decoding: UnsafeRawBufferPointer(start: start, count: strlen(start.assumingMemoryBound(to: CChar.self))),
                              as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }

    private static func status(_ info: stat) -> VaultFileStatus {
        #if canImport(Darwin)
        let modification = info.st_mtimespec
        #else
        let modification = info.st_mtim
        #endif
        return VaultFileStatus(
            device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino),
            size: Int64(info.st_size), modificationSeconds: Int64(modification.tv_sec),
            modificationNanoseconds: Int64(modification.tv_nsec), permissions: UInt32(info.st_mode & 0o7777),
            userID: UInt32(info.st_uid), groupID: UInt32(info.st_gid), isRegularFile: (info.st_mode & S_IFMT) == S_IFREG)
    }

    private static func error(_ what: String, _ path: String, code: Int32 = errno) -> CoreError {
        CoreError(.io, what + ": " + String(cString: strerror(code)), location: path.isEmpty ? nil : path)
    }
}

/// The C library's atomic exchange of two paths, looked up at run time (Swift's Glibc module does not
/// declare `renameat2`, a GNU extension; Darwin's `renamex_np` likewise): `nil` where the C library
/// lacks it.
private typealias ExchangeFunction = @Sendable (String, String) -> Int32

private let atomicExchange: ExchangeFunction? = {
    #if os(Linux) && canImport(Glibc)
    typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "renameat2") else { return nil }
    let function = unsafeBitCast(symbol, to: RenameAt2.self)
    let exchangeFlag: UInt32 = 1 << 1  // RENAME_EXCHANGE
    return { source, destination in function(AT_FDCWD, source, AT_FDCWD, destination, exchangeFlag) }
    #elseif canImport(Darwin)
    typealias RenamexNP = @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, UInt32) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: -2), "renamex_np") else { return nil }  // RTLD_DEFAULT
    let function = unsafeBitCast(symbol, to: RenamexNP.self)
    let swapFlag: UInt32 = 0x0000_0002  // RENAME_SWAP
    return { source, destination in function(source, destination, swapFlag) }
    #else
    return nil
    #endif
}()

// The libc functions whose names the protocol's methods shadow inside the type.
private func posixClose(_ fd: Int32) -> Int32 { close(fd) }
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
private func posixRename(_ source: String, _ destination: String) -> Int32 { rename(source, destination) }
private func posixLink(_ source: String, _ destination: String) -> Int32 { link(source, destination) }
