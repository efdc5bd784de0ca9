#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps this process's memory (keys, revealed values) out of core dumps and away from other
/// processes of the same user, as keepassxc-cli does: the first thing `mypass` does.
///
/// Linux: `prctl(PR_SET_DUMPABLE, 0)` (no core dump, even through a `core_pattern` pipe, and no
/// `ptrace` attach or `/proc/PID/mem` read by same-user processes) and `RLIMIT_CORE` 0. Darwin:
/// `RLIMIT_CORE` 0 and, in release builds, `ptrace(PT_DENY_ATTACH)` (there is no
/// `PR_SET_DUMPABLE`; hardened-runtime signing also denies debuggers).
package enum ProcessHardening {
    /// Applies both settings.
    /// - Returns: what could not be set, one phrase each with the `errno` reason (empty when both
    ///   held); the caller warns, as keepassxc-cli's "Unable to disable core dumps", and goes on.
    @discardableResult
    package static func apply() -> [String] {
        var failures: [String] = []
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        #if canImport(Glibc)
        if setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none) != 0 {
            failures.append("the core-file limit (setrlimit RLIMIT_CORE: \(String(cString: strerror(errno))))")
        }
        if !setDumpable(false) {
            failures.append("the dumpable flag (prctl PR_SET_DUMPABLE: \(String(cString: strerror(errno))))")
        }
        #else
        if setrlimit(RLIMIT_CORE, &none) != 0 {
            failures.append("the core-file limit (setrlimit RLIMIT_CORE: \(String(cString: strerror(errno))))")
        }
        #if !DEBUG
        // No debugger may attach (release builds only, as KeePassXC does, so that a debug build
        // can still be debugged). Not built or tested on Linux.
        if ptrace(PT_DENY_ATTACH, 0, nil, 0) != 0 {
            failures.append("debugger attachment (ptrace PT_DENY_ATTACH: \(String(cString: strerror(errno))))")
        }
        #endif
        #endif
        return failures
    }

    #if canImport(Glibc)
    /// `prctl(PR_GET_DUMPABLE)`: 1 dumpable, 0 not, -1 unknown.
    static func isDumpable() -> Int32 { prctl(option: 3, 0) }  // PR_GET_DUMPABLE

    /// `prctl(PR_SET_DUMPABLE, value)`; true on success.
    @discardableResult
    static func setDumpable(_ dumpable: Bool) -> Bool { prctl(option: 4, dumpable ? 1 : 0) == 0 }  // PR_SET_DUMPABLE

    /// The soft and hard core-file limits in bytes.
    static func coreLimits() -> (soft: UInt64, hard: UInt64) {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &limit) == 0 else { return (.max, .max) }
        return (UInt64(limit.rlim_cur), UInt64(limit.rlim_max))
    }

    /// `prctl` is variadic in C, which Swift does not import: it is called through its address
    /// with the fixed-argument shape the kernel reads (integer arguments in registers).
    private static func prctl(option: Int32, _ argument: UInt) -> Int32 {
        typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "prctl") else {
            errno = ENOSYS  // so that the warning's reason is this, not a stale errno
            return -1
        }
        return unsafeBitCast(symbol, to: Prctl.self)(option, argument, 0, 0, 0)
    }
    #endif
}
