import Foundation

/// Runs a KDF-bearing call (open, save, a copy's read) on a thread of its own, outside Swift's
/// cooperative pool, and resumes the awaiting task with its result.
///
/// A KDF holds its thread for seconds (Argon2 at 64 MiB, a hardware key waiting for a touch). On
/// the cooperative pool, which has one thread per core, that is half the pool of a two-core
/// device: every other task (the UI's model, the agent's other connections, a lock arriving
/// during the unlock) waits for the remaining thread, and one more synchronous wait anywhere
/// stalls them all until the KDF ends. A thread per derivation costs a thread creation per unlock
/// or save, which is nothing beside the KDF.
enum KeyDerivationThread {
    /// Whether the task awaiting the call was cancelled; read by the call's progress handler
    /// (`Task.isCancelled` is false on a thread outside the task).
    final class Cancellation: @unchecked Sendable {
        private let lock = NSLock()
        private var cancelled = false

        /// Whether the awaiting task was cancelled.
        var isCancelled: Bool { lock.withLock { cancelled } }

        fileprivate func cancel() { lock.withLock { cancelled = true } }
    }

    /// The thread's name, as debuggers and `top -H` show it.
    static let threadName = "MyPass KDF"

    /// The stack of the thread: 8 MiB, as the main thread's on Linux and macOS (a Foundation
    /// `Thread`'s default is 512 KiB; the XML reader's nesting limit is sized for the larger).
    static let stackSize = 8 << 20

    /// Runs `work` on a new thread and returns its result; a cancel of the calling task sets the
    /// flag `work` receives (it stops at its next progress report).
    ///
    /// - Throws: what `work` throws.
    static func run<T: Sendable>(
        _ work: @escaping @Sendable (Cancellation) throws(CoreError) -> T
    ) async throws(CoreError) -> T {
        let cancellation = Cancellation()
        let result: Result<T, CoreError> = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, CoreError>, Never>) in
                let thread = Thread {
                    // Named from inside: Foundation on Linux applies a name set before start only
                    // to the object, and the thread keeps its creator's name. Even from inside it
                    // names the kernel's thread only once `start()` has returned in the creating
                    // thread (a race a loaded machine loses), so on Linux the name is also written
                    // where `top -H` and debuggers read it.
                    Thread.current.name = threadName
                    #if os(Linux)
                    try? threadName.write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
                    #endif
                    continuation.resume(returning: Result { () throws(CoreError) -> T in try work(cancellation) })
                }
                thread.stackSize = stackSize
                thread.qualityOfService = .userInitiated
                thread.start()
            }
        } onCancel: {
            cancellation.cancel()
        }
        return try result.get()
    }
}
