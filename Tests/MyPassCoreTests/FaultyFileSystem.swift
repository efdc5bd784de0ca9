import Foundation
import MyPassCore
import MyPassKDBX

/// The system file system with failures on demand: every later call of one operation fails, the
/// k-th call of any operation fails, or every write flips a bit (so that the save's check must
/// catch it). Counts the calls of each operation and records their order.
final class FaultyFileSystem: VaultFileSystem, @unchecked Sendable {
    enum Operation: String, CaseIterable, Sendable {
        case resolve, status, readFile, lock, createExclusive, write, synchronize, rename, link, synchronizeDirectory, remove
        case isWritable, statusOfHandle, contentsOfDirectory, openForReading, read, exchange
    }

    private let base = SystemFileSystem()
    private let guardLock = NSLock()
    private var failing: Set<Operation> = []
    private var calls: [Operation: Int] = [:]
    private var corrupting = false
    private var linking: (@Sendable (String) -> Void)?
    private var flipPosition: Double?
    private var created: [VaultFileHandle: String] = [:]
    private var recorded: [Operation] = []
    private var failingCall: Int?
    private var exchanges = true
    private var hook: (@Sendable (Operation, String) -> Void)?

    /// Makes every later call of `operation` fail with an I/O error.
    func fail(_ operation: Operation) { guardLock.withLock { _ = failing.insert(operation) } }

    /// Whether writes flip the first bit of what they write.
    var corruptsWrites: Bool {
        get { guardLock.withLock { corrupting } }
        set { guardLock.withLock { corrupting = newValue } }
    }

    /// Runs just before each `link` with its destination (to make another program take the name).
    var beforeLink: (@Sendable (String) -> Void)? {
        get { guardLock.withLock { linking } }
        set { guardLock.withLock { linking = newValue } }
    }

    /// Where (0 = the first byte, 1 = the last) the file being saved gets one byte flipped after
    /// all of it was written, on disk, just before it is flushed: what the save's check must
    /// catch. `nil`: no flip.
    var flipsByteAfterWriting: Double? {
        get { guardLock.withLock { flipPosition } }
        set { guardLock.withLock { flipPosition = newValue } }
    }

    /// Whether ``exchange(_:with:)`` exchanges (the system's answer) or answers that it cannot (a
    /// platform without an atomic exchange: the save renames).
    var supportsExchange: Bool {
        get { guardLock.withLock { exchanges } }
        set { guardLock.withLock { exchanges = newValue } }
    }

    /// Runs before every call (but `close`) with its operation and path (`""` for a handle's):
    /// how a test makes another program act at a chosen moment of a save.
    var beforeCall: (@Sendable (Operation, String) -> Void)? {
        get { guardLock.withLock { hook } }
        set { guardLock.withLock { hook = newValue } }
    }

    /// Makes call number `index` (0 = the next call, of any operation but `close`) fail, once.
    func failCall(_ index: Int) {
        guardLock.withLock {
            recorded = []
            failingCall = index
        }
    }

    /// Forgets the calls recorded so far (``callLog`` starts again from the next one).
    func startRecording() { guardLock.withLock { recorded = [] } }

    /// The operations called since ``startRecording()`` or ``failCall(_:)``, in order.
    var callLog: [Operation] { guardLock.withLock { recorded } }

    /// How often `operation` was called.
    func count(_ operation: Operation) -> Int { guardLock.withLock { calls[operation, default: 0] } }

    /// A coordinated scope (``VaultFileSystem/coordinatingRead(_:_:)`` or `coordinatingWrite`).
    struct Scope: Equatable, Sendable {
        var writing: Bool
        var path: String
    }
    private var openScopes: [Scope] = []
    private var scopesSeen: [Scope] = []
    private var outside: [Operation] = []
    private var writesInReadScopes: [Operation] = []

    /// The scopes entered so far, outermost first, in order of entry.
    var scopes: [Scope] { guardLock.withLock { scopesSeen } }
    /// The operations called outside every coordinated scope.
    var uncoordinatedCalls: [Operation] { guardLock.withLock { outside } }
    /// The writing operations called inside read scopes only.
    var writesInsideReadScopes: [Operation] { guardLock.withLock { writesInReadScopes } }

    func coordinatingRead<Result>(_ path: String, _ body: () throws(CoreError) -> Result) throws(CoreError) -> Result {
        try scoped(Scope(writing: false, path: path), body)
    }

    func coordinatingWrite<Result>(_ path: String, _ body: () throws(CoreError) -> Result) throws(CoreError) -> Result {
        try scoped(Scope(writing: true, path: path), body)
    }

    private func scoped<Result>(_ scope: Scope, _ body: () throws(CoreError) -> Result) throws(CoreError) -> Result {
        guardLock.withLock {
            openScopes.append(scope)
            scopesSeen.append(scope)
        }
        defer { guardLock.withLock { _ = openScopes.removeLast() } }
        return try body()
    }

    private func enter(_ operation: Operation, _ path: String = "") throws(CoreError) {
        beforeCall?(operation, path)
        let fails = guardLock.withLock { () -> Bool in
            calls[operation, default: 0] += 1
            recorded.append(operation)
            if openScopes.isEmpty {
                outside.append(operation)
            } else if !openScopes.contains(where: \.writing),
                      [.createExclusive, .write, .synchronize, .rename, .exchange, .link, .remove, .synchronizeDirectory].contains(operation) {
                writesInReadScopes.append(operation)
            }
            return failing.contains(operation) || recorded.count - 1 == failingCall
        }
        if fails { throw CoreError(.io, "injected failure: \(operation.rawValue)") }
    }

    func resolve(_ path: String) throws(CoreError) -> String {
        try enter(.resolve, path)
        return try base.resolve(path)
    }

    func status(_ path: String) throws(CoreError) -> VaultFileStatus? {
        try enter(.status, path)
        return try base.status(path)
    }

    func isWritable(_ path: String) -> Bool {
        do throws(CoreError) { try enter(.isWritable) } catch { return false }
        return base.isWritable(path)
    }

    func readFile(_ path: String, maxBytes: Int) throws(CoreError) -> [UInt8] {
        try enter(.readFile, path)
        return try base.readFile(path, maxBytes: maxBytes)
    }

    func openForReading(_ path: String) throws(CoreError) -> VaultFileHandle {
        try enter(.openForReading, path)
        return try base.openForReading(path)
    }

    func read(_ handle: VaultFileHandle, into buffer: UnsafeMutableRawBufferPointer) throws(CoreError) -> Int {
        try enter(.read)
        return try base.read(handle, into: buffer)
    }

    func lock(_ path: String, timeoutSeconds: Double) throws(CoreError) -> VaultFileHandle {
        try enter(.lock, path)
        return try base.lock(path, timeoutSeconds: timeoutSeconds)
    }

    func status(of handle: VaultFileHandle) throws(CoreError) -> VaultFileStatus {
        try enter(.statusOfHandle)
        return try base.status(of: handle)
    }

    func createExclusive(_ path: String, permissions: UInt32, owner: (userID: UInt32, groupID: UInt32)?) throws(CoreError) -> VaultFileHandle {
        try enter(.createExclusive, path)
        let handle = try base.createExclusive(path, permissions: permissions, owner: owner)
        guardLock.withLock { created[handle] = path }
        return handle
    }

    func write(_ handle: VaultFileHandle, _ bytes: UnsafeRawBufferPointer) throws(CoreError) {
        try enter(.write)
        if corruptsWrites, bytes.count > 0 {
            var copy = [UInt8](bytes)
            copy[copy.count / 2] ^= 0x01
            let result: Result<Void, CoreError> = copy.withUnsafeBytes { buffer in
                do throws(CoreError) { try base.write(handle, buffer); return .success(()) } catch { return .failure(error) }
            }
            try result.get()
            return
        }
        try base.write(handle, bytes)
    }

    func synchronize(_ handle: VaultFileHandle) throws(CoreError) {
        try enter(.synchronize)
        if let position = flipsByteAfterWriting, let path = guardLock.withLock({ created[handle] }) {
            // The save's handle is write-only: flip through a second one, as another process would.
            let size = Int(try base.status(of: handle).size)
            let offset = off_t(Double(size - 1) * position)
            let fd = open(path, O_RDWR)
            guard fd >= 0 else { throw CoreError(.io, "test: cannot open the temporary file") }
            defer { _ = Foundation.close(fd) }
            var byte: UInt8 = 0
            guard pread(fd, &byte, 1, offset) == 1 else { throw CoreError(.io, "test: cannot read back") }
            byte ^= 0x01
            guard pwrite(fd, &byte, 1, offset) == 1 else { throw CoreError(.io, "test: cannot flip") }
        }
        try base.synchronize(handle)
    }

    func close(_ handle: VaultFileHandle) { base.close(handle) }

    func rename(_ source: String, to destination: String) throws(CoreError) {
        try enter(.rename, destination)
        try base.rename(source, to: destination)
    }

    func exchange(_ source: String, with destination: String) throws(CoreError) -> Bool {
        try enter(.exchange, destination)
        guard supportsExchange else { return false }
        return try base.exchange(source, with: destination)
    }

    func link(_ source: String, to destination: String) throws(CoreError) {
        try enter(.link, destination)
        beforeLink?(destination)
        try base.link(source, to: destination)
    }

    func synchronizeDirectory(_ path: String) throws(CoreError) {
        try enter(.synchronizeDirectory, path)
        try base.synchronizeDirectory(path)
    }

    func remove(_ path: String) throws(CoreError) {
        try enter(.remove, path)
        try base.remove(path)
    }

    func contentsOfDirectory(_ path: String) throws(CoreError) -> [String] {
        try enter(.contentsOfDirectory, path)
        return try base.contentsOfDirectory(path)
    }
}

/// Counts KDF runs (the document's key derivation seam).
final class KDFCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var runs = 0
    var count: Int { lock.withLock { runs } }

    var derivation: KeyDerivation {
        KeyDerivation { [self] (key, kdf, limits, progress) throws(KDBXError) in
            lock.withLock { runs += 1 }
            return try KeyDerivation.standard.transform(key, kdf, limits, progress)
        }
    }
}
