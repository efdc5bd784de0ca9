#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Set by the SIGINT handler while a long step (the KDF) runs.
private let interruptRequested = Atomic<Bool>(false)

/// Ctrl-C during the key derivation: the step is told to stop (the KDF checks every
/// ``MyPassCrypto/AESKDF/progressInterval`` rounds, or every Argon2 slice, far less than a
/// second) and the command ends with exit code 130 and nothing written. Outside such a step
/// SIGINT keeps the disposition the process was started with.
enum Interrupt {
    /// Whether Ctrl-C came during the current ``catchingInterrupt(_:)`` step.
    static var isRequested: Bool { interruptRequested.load(ordering: .relaxed) }

    /// Runs `body` with a SIGINT handler that only records the request (async-signal-safe).
    static func catchingInterrupt<T>(_ body: () throws -> T) rethrows -> T {
        interruptRequested.store(false, ordering: .relaxed)
        var action = sigaction()
        var previous = sigaction()
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = { _ in interruptRequested.store(true, ordering: .relaxed) }
        #else
        action.__sigaction_u.__sa_handler = { _ in interruptRequested.store(true, ordering: .relaxed) }
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(SIGINT, &action, &previous)
        // A parent may have spawned us with SIGINT blocked (test runners, some IDEs): unblock it
        // for this step, so that Ctrl-C reaches the handler; the mask is restored afterwards.
        var unblock = sigset_t(), previousMask = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &unblock, &previousMask)
        defer {
            pthread_sigmask(SIG_SETMASK, &previousMask, nil)
            sigaction(SIGINT, &previous, nil)
        }
        return try body()
    }
}
