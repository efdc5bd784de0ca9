import Foundation

/// A value behind a lock, with the `withLock` shape of `Synchronization.Mutex` (which needs
/// macOS 15 / iOS 18; the package supports macOS 13).
final class LockedState<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// A lock around `value`.
    init(_ value: Value) { self.value = value }

    /// Runs `body` with the value while holding the lock (not reentrant).
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
