#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Set to 1 by the SIGINT handler while a long step (the KDF) runs: C's `volatile sig_atomic_t`
/// flag, a word that one aligned store sets and other threads read through the pointer (never
/// cached across the calls between two checks). Not `Synchronization.Atomic`, which needs
/// macOS 15 / iOS 18; a signal handler may not take a lock.
nonisolated(unsafe) private let interruptRequested: UnsafeMutablePointer<sig_atomic_t> = {
    let flag = UnsafeMutablePointer<sig_atomic_t>.allocate(capacity: 1)
    flag.initialize(to: 0)
    return flag
}()

/// Ctrl-C during the key derivation: the step is told to stop (the KDF checks every
/// ``MyPassCrypto/AESKDF/progressInterval`` rounds, or every Argon2 slice, far less than a
/// second) and the command ends with exit code 130 and nothing written. Outside such a step
/// SIGINT keeps the disposition the process was started with.
enum Interrupt {
    /// Whether Ctrl-C came during the current ``catchingInterrupt(_:)`` step.
    static var isRequested: Bool { interruptRequested.pointee != 0 }

    /// Runs `body` with a SIGINT handler that only records the request (async-signal-safe).
    static func catchingInterrupt<T>(_ body: () throws -> T) rethrows -> T {
        interruptRequested.pointee = 0
        var action = sigaction()
        var previous = sigaction()
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = { _ in interruptRequested.pointee = 1 }
        #else
        action.__sigaction_u.__sa_handler = { _ in interruptRequested.pointee = 1 }
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        // Without the handler (sigaction fails only for a bad signal number or address, not
        // here) Ctrl-C would take the default action: the process ends, having written nothing.
        guard sigaction(SIGINT, &action, &previous) == 0 else { return try body() }
        // A parent may have spawned us with SIGINT blocked (test runners, some IDEs): unblock it
        // for this step, so that Ctrl-C reaches the handler; the mask is restored afterwards.
        var unblock = sigset_t(), previousMask = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        // pthread_sigmask and the restoring sigaction fail only for a bad `how` or signal: not here.
        _ = pthread_sigmask(SIG_UNBLOCK, &unblock, &previousMask)
        defer {
            _ = pthread_sigmask(SIG_SETMASK, &previousMask, nil)
            _ = sigaction(SIGINT, &previous, nil)
        }
        return try body()
    }
}
