import Dispatch
import Foundation
import MyPassCrypto
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What this machine offers the crypto code, read from the operating system and handed to
/// MyPassCrypto's `CryptoPlatform` (the codec modules never ask the operating system themselves):
/// the CPU's features for the hardware AES and SHA-2 kernels, the `MYPASS_CRYPTO_BACKEND`
/// switch, Argon2's matrix in huge pages on Linux, and Argon2's lanes on Dispatch's threads.
///
/// Call ``install()`` first thing in `main` (an app: in its `App` initialiser; the AutoFill
/// extension: in its view controller's initialiser), before any AES, SHA-2 or Argon2 runs. The
/// session, the document and the AutoFill index call it too when they start, so that a program
/// that forgot still gets the hardware paths unless it already hashed or encrypted something
/// (the first use fixes the choice; before it, nothing is lost but speed).
public enum SystemPlatform {
    /// Installs ``platform`` (once per process; later calls do nothing).
    /// - Returns: whether the crypto code took it: `false` when AES, SHA-2 or Argon2 had already
    ///   run (the portable code and ordinary memory then stay in use for the process).
    @discardableResult
    public static func install() -> Bool { installed }

    private static let installed: Bool = CryptoPlatform.install(platform)

    /// This machine's platform description: its CPU features, the environment's backend switch,
    /// huge-page matrix memory (Linux) and Dispatch's parallel loop.
    public static var platform: CryptoPlatform {
        CryptoPlatform(cpuFeatures: cpuFeatures(),
                       backendOverride: ProcessInfo.processInfo.environment[CryptoBackend.environmentVariable],
                       largeMemory: largeMemory,
                       concurrentPerform: { iterations, body in DispatchQueue.concurrentPerform(iterations: iterations, execute: body) })
    }

    /// The CPU's features in Linux's names (empty when they cannot be read): x86_64 Linux, the
    /// `flags` of `/proc/cpuinfo`; arm64 Linux, the `AT_HWCAP` bits of `/proc/self/auxv` (an
    /// emulator such as qemu-user reports the host's cpuinfo but the emulated CPU's auxiliary
    /// vector); Apple platforms, `sysctl`.
    public static func cpuFeatures() -> Set<String> {
        #if os(Linux) && arch(x86_64)
        return CPUFeatures.linuxCPUInfoFlags(readProcFile("/proc/cpuinfo", limit: 1 << 20) ?? [])
        #elseif os(Linux) && arch(arm64)
        let auxv = readProcFile("/proc/self/auxv", limit: 1 << 16) ?? []
        return CPUFeatures.linuxHWCAPFeatures(hwcap: CPUFeatures.auxiliaryVectorValue(auxv, type: 16))
        #elseif canImport(Darwin) && arch(arm64)
        // Every Apple arm64 CPU has the AES and SHA-2 instructions (A7 and later); the FEAT_
        // sysctls (macOS 12, iOS 15) say which newer ones are there.
        var features: Set<String> = ["aes", "sha2"]
        if sysctlFlag("hw.optional.arm.FEAT_SHA512") { features.insert("sha512") }
        return features
        #elseif canImport(Darwin) && arch(x86_64)
        var features: Set<String> = []
        if sysctlFlag("hw.optional.aes") { features.insert("aes") }
        if sysctlFlag("hw.optional.supplementalsse3") { features.insert("ssse3") }
        if sysctlFlag("hw.optional.sse4_1") { features.insert("sse4_1") }
        if sysctlString("machdep.cpu.leaf7_features").split(separator: " ").contains("SHA") { features.insert("sha_ni") }
        return features
        #else
        return []
        #endif
    }

    /// Linux: Argon2 matrices of 2 MiB and more in 2 MiB-aligned memory advised into huge pages
    /// (`madvise(MADV_HUGEPAGE)`, honoured when transparent huge pages are `always` or
    /// `madvise`): 32 page faults instead of 16,384 for 64 MiB, and far fewer TLB misses on the
    /// random reference blocks; that cut the CPU time of a 64 MiB derivation by about 40% here (a
    /// quarter of it had been the kernel faulting pages in). Elsewhere: nil (ordinary pages).
    static var largeMemory: (allocate: CryptoPlatform.AllocateLarge, free: CryptoPlatform.FreeLarge)? {
        #if canImport(Glibc) || canImport(Musl)
        return (allocate: { byteCount in
            guard byteCount >= hugePageBytes else { return nil }
            var raw: UnsafeMutableRawPointer?
            guard posix_memalign(&raw, hugePageBytes, byteCount) == 0, let raw else { return nil }
            _ = madvise(raw, byteCount, MADV_HUGEPAGE)
            return raw
        }, free: { pointer, _ in free(pointer) })
        #else
        return nil
        #endif
    }

    /// The size of an x86_64 and arm64 (4 KiB granule) huge page: 2 MiB.
    static let hugePageBytes = 2 << 20

    #if canImport(Glibc) || canImport(Musl)
    /// The first `limit` bytes of a file (a /proc file reports no size), nil if it cannot be read.
    private static func readProcFile(_ path: String, limit: Int) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return bytes
    }
    #endif

    #if canImport(Darwin)
    private static func sysctlFlag(_ name: String) -> Bool {
        var value: Int32 = 0
        var size = MemoryLayout<Int32>.size
        return sysctlbyname(name, &value, &size, nil, 0) == 0 && value != 0
    }

    private static func sysctlString(_ name: String) -> String {
        var size = 0
        guard sysctlbyname(name, nil, &size, nil, 0) == 0, size > 0 else { return "" }
        var buffer = [UInt8](repeating: 0, count: size)
        guard sysctlbyname(name, &buffer, &size, nil, 0) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
    }
    #endif
}
