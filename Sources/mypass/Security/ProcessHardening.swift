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
/// `RLIMIT_CORE` 0 (there is no `PR_SET_DUMPABLE`; hardened-runtime signing denies debuggers).
package enum ProcessHardening {
    /// Applies both settings; a failure is ignored (the process still runs, as before).
    package static func apply() {
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        #if canImport(Glibc)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none)
        _ = setDumpable(false)
        #else
        _ = setrlimit(RLIMIT_CORE, &none)
        #endif
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
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "prctl") else { return -1 }
        return unsafeBitCast(symbol, to: Prctl.self)(option, argument, 0, 0, 0)
    }
    #endif
}
