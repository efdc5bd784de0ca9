import Foundation

/// What a ``VaultDocument`` needs to know of a file: `stat(2)`'s answer.
public struct VaultFileStatus: Sendable, Equatable {
    /// The device holding the file.
    public var device: UInt64
    /// The file's inode number (a rename over the path gives a new one).
    public var inode: UInt64
    /// The size in bytes.
    public var size: Int64
    /// The modification time: seconds since 1970 and the nanoseconds within that second.
    public var modificationSeconds: Int64
    public var modificationNanoseconds: Int64
    /// The permission bits (`st_mode & 0o7777`).
    public var permissions: UInt32
    /// The owner's user and group ids.
    public var userID: UInt32
    public var groupID: UInt32
    /// Whether it is a regular file.
    public var isRegularFile: Bool

    /// A status from its parts (tests build their own).
    public init(device: UInt64, inode: UInt64, size: Int64, modificationSeconds: Int64, modificationNanoseconds: Int64,
                permissions: UInt32, userID: UInt32, groupID: UInt32, isRegularFile: Bool) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modificationSeconds = modificationSeconds
        self.modificationNanoseconds = modificationNanoseconds
        self.permissions = permissions
        self.userID = userID
        self.groupID = groupID
        self.isRegularFile = isRegularFile
    }
}

/// An open file of the file-system seam (a descriptor, or what an implementation uses instead).
public struct VaultFileHandle: Sendable, Hashable {
    /// The implementation's number for it (a POSIX file descriptor for ``SystemFileSystem``).
    public var rawValue: Int32
    /// A handle from its number.
    public init(rawValue: Int32) { self.rawValue = rawValue }
}

/// Every file operation that opening and saving a vault makes, in one seam: ``SystemFileSystem``
/// is POSIX; an iOS app wraps these in file coordination and security-scoped access; tests inject
/// failures at any call. All paths are absolute. Every method reports failure as
/// ``CoreError/Code/io`` with the path and the system's reason.
///
/// ``VaultDocument`` reads the vault (``readFile(_:maxBytes:)``), the key file and the saved
/// temporary file back through this seam too, so an implementation sees every access. An iOS or
/// macOS app whose vault lives in the Files app or another app's container implements it by
/// calling `startAccessingSecurityScopedResource()` on the document's URL for the duration of an
/// open or save, and running the reads in `NSFileCoordinator.coordinate(readingItemAt:)` and the
/// save (temporary file, rename) in `coordinate(writingItemAt:options: .forReplacing)`, forwarding
/// to ``SystemFileSystem`` inside the coordinated blocks. The AutoFill index
/// (``CredentialIndex/open(_:key:cachedKey:options:)``) streams the vault through the same seam
/// (``openForReading(_:)``, ``read(_:into:)``, ``close(_:)``), so an AutoFill extension wraps the
/// open in one coordinated read of the shared container's file.
///
/// Coordination: ``coordinatingRead(_:_:)`` and ``coordinatingWrite(_:_:)`` are the scopes the
/// whole of one open or one save runs inside, so that an implementation over
/// `NSFileCoordinator` (iCloud Drive, a File Provider such as Dropbox's) puts one coordinated
/// block around each: ``VaultDocument`` reads the file inside a coordinated read (the KDF and the
/// decryption run after it, outside), saves and creates inside a coordinated write (the lock, the
/// merge's read, the temporary file, the check and the rename), and removes stale temporary files
/// inside a coordinated write; ``CredentialIndex/open(_:key:cachedKey:options:)`` streams the file
/// inside one coordinated read; `Attachment.export(toPath:fileSystem:)` writes inside a coordinated
/// write of its destination. ``SystemFileSystem`` runs the body and nothing else.
public protocol VaultFileSystem: Sendable {
    /// Runs `body`, in which the file at `path` is read (and nothing of it written), as one
    /// coordinated read: `NSFileCoordinator.coordinate(readingItemAt:)` in an app. The default
    /// runs `body` alone.
    /// - Throws: what `body` throws; ``CoreError/Code/io`` when the coordination fails.
    func coordinatingRead<Result>(_ path: String, _ body: () throws(CoreError) -> Result) throws(CoreError) -> Result
    /// Runs `body`, in which the file at `path` is written or replaced (a temporary file beside it
    /// renamed over it, or removed), as one coordinated write:
    /// `NSFileCoordinator.coordinate(writingItemAt:options: .forReplacing)` in an app. The default
    /// runs `body` alone.
    /// - Throws: what `body` throws; ``CoreError/Code/io`` when the coordination fails.
    func coordinatingWrite<Result>(_ path: String, _ body: () throws(CoreError) -> Result) throws(CoreError) -> Result
    /// The path with every symbolic link and `.`/`..` resolved (`realpath(3)`).
    func resolve(_ path: String) throws(CoreError) -> String
    /// `stat(2)` of `path`, or `nil` when nothing is there.
    func status(_ path: String) throws(CoreError) -> VaultFileStatus?
    /// Whether the calling user may write `path` (`access(2)` with `W_OK`).
    func isWritable(_ path: String) -> Bool
    /// The whole content of a regular file, at most `maxBytes` bytes (larger files are refused
    /// before reading, with ``CoreError/Code/limitExceeded``).
    func readFile(_ path: String, maxBytes: Int) throws(CoreError) -> [UInt8]
    /// Opens the file at `path` for reading from its first byte (`open(2)` with `O_RDONLY`), for
    /// a reader that streams it with ``read(_:into:)`` instead of holding it whole; ``close(_:)``
    /// ends it.
    func openForReading(_ path: String) throws(CoreError) -> VaultFileHandle
    /// Reads up to `buffer.count` bytes at the handle's position into `buffer` and moves the
    /// position past them (`read(2)`, retrying `EINTR`).
    /// - Returns: the number of bytes read, from 0 (the end of the file) to `buffer.count`.
    func read(_ handle: VaultFileHandle, into buffer: UnsafeMutableRawBufferPointer) throws(CoreError) -> Int
    /// Waits up to `timeoutSeconds` for an exclusive advisory lock (`flock(2)`) on the file at
    /// `path`, which must exist. The lock is the handle's: ``close(_:)`` releases it, and so does
    /// the end of the process, so a crashed writer never leaves a stale lock.
    /// - Throws: ``CoreError/Code/io`` when the file cannot be opened, or the lock is still held by
    ///   another process after the timeout.
    func lock(_ path: String, timeoutSeconds: Double) throws(CoreError) -> VaultFileHandle
    /// `fstat(2)` of an open handle.
    func status(of handle: VaultFileHandle) throws(CoreError) -> VaultFileStatus
    /// Creates `path` exclusively (`O_CREAT | O_EXCL`) for writing, with `permissions`, owned by
    /// `owner` (user and group ids) when given and the process may give it away (root).
    func createExclusive(_ path: String, permissions: UInt32, owner: (userID: UInt32, groupID: UInt32)?) throws(CoreError) -> VaultFileHandle
    /// Writes all of `bytes` at the handle's position (retrying short writes and `EINTR`; a write
    /// that makes no progress is an error, never a spin).
    func write(_ handle: VaultFileHandle, _ bytes: UnsafeRawBufferPointer) throws(CoreError)
    /// Flushes the file to stable storage (`fsync(2)`, `F_FULLFSYNC` where the system has it).
    func synchronize(_ handle: VaultFileHandle) throws(CoreError)
    /// Closes the handle (releasing its lock, if it holds one).
    func close(_ handle: VaultFileHandle)
    /// Renames `source` over `destination` in one atomic step (`rename(2)`; same directory).
    func rename(_ source: String, to destination: String) throws(CoreError)
    /// Exchanges the files at `source` and `destination` in one atomic step (same directory; Linux
    /// `renameat2(2)` with `RENAME_EXCHANGE`, Darwin `renamex_np(2)` with `RENAME_SWAP`): unlike
    /// ``rename(_:to:)`` it unlinks nothing, so a file another program put at `destination` an
    /// instant before lands at `source` instead of being lost, and a save can tell afterwards which
    /// file it replaced.
    /// - Returns: `false` when the platform or the file system cannot exchange (nothing was done;
    ///   the caller renames instead). The default implementation returns `false`.
    /// - Throws: ``CoreError/Code/io`` when either file is missing or the exchange fails otherwise.
    func exchange(_ source: String, with destination: String) throws(CoreError) -> Bool
    /// Gives the file at `source` the second name `destination` (`link(2)`, same directory),
    /// failing when anything is already at `destination`: how a new vault is published without
    /// ever replacing a file another program made meanwhile.
    /// - Throws: ``CoreError/Code/alreadyExists`` when `destination` exists, ``CoreError/Code/io``
    ///   otherwise.
    func link(_ source: String, to destination: String) throws(CoreError)
    /// Flushes a directory's entries (after a rename) to stable storage.
    func synchronizeDirectory(_ path: String) throws(CoreError)
    /// Removes a file.
    func remove(_ path: String) throws(CoreError)
    /// The names in a directory (for finding our stale temporary files).
    func contentsOfDirectory(_ path: String) throws(CoreError) -> [String]
}

extension VaultFileSystem {
    /// Runs `body` alone (no coordination: a POSIX file system has none).
    public func coordinatingRead<Result>(_ path: String, _ body: () throws(CoreError) -> Result) throws(CoreError) -> Result {
        try body()
    }

    /// Runs `body` alone (no coordination: a POSIX file system has none).
    public func coordinatingWrite<Result>(_ path: String, _ body: () throws(CoreError) -> Result) throws(CoreError) -> Result {
        try body()
    }

    /// No exchange: a save renames (see ``exchange(_:with:)``).
    public func exchange(_ source: String, with destination: String) throws(CoreError) -> Bool { false }

    /// Writes `bytes` (see ``write(_:_:)-(_,UnsafeRawBufferPointer)``).
    public func write(_ handle: VaultFileHandle, _ bytes: ArraySlice<UInt8>) throws(CoreError) {
        let result: Result<Void, CoreError> = bytes.withUnsafeBytes { buffer in
            do throws(CoreError) {
                try write(handle, buffer)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }
}
