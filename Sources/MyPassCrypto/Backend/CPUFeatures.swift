#if !hasFeature(Embedded)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
#endif

/// What the operating system says about the CPU, in the names Linux uses: on x86_64 the `flags`
/// of `/proc/cpuinfo` (`aes`, `sha_ni`, `sse4_1`, ...), on arm64 the `AT_HWCAP` bits (`aes`,
/// `sha2`, `sha512`, as `/proc/cpuinfo`'s `Features` names them). Read once per process, by
/// ``CryptoBackend``; embedded builds have no operating system to ask (the platform declares
/// the features, or the portable code runs).
package enum CPUFeatures {
    /// The features of this CPU (empty when they cannot be read).
    static func detect() -> Set<String> {
        #if hasFeature(Embedded)
        return []
        #elseif os(Linux) && arch(x86_64)
        return linuxCPUInfoFlags(readFile("/proc/cpuinfo", limit: 1 << 20) ?? [])
        #elseif os(Linux) && arch(arm64)
        // /proc/self/auxv rather than /proc/cpuinfo: an emulator (qemu-user) reports the host's
        // cpuinfo but the emulated CPU's auxiliary vector.
        return linuxHWCAPFeatures(hwcap: auxiliaryVectorValue(readFile("/proc/self/auxv", limit: 1 << 16) ?? [], type: 16))
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

    /// The value of an environment variable, nil when unset (or in embedded builds).
    static func environment(_ name: String) -> String? {
        #if !hasFeature(Embedded) && (canImport(Glibc) || canImport(Musl) || canImport(Darwin))
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
        #else
        return nil
        #endif
    }

    /// The words of the first `flags` line of `/proc/cpuinfo` (x86).
    package static func linuxCPUInfoFlags(_ cpuinfo: [UInt8]) -> Set<String> {
        for line in cpuinfo.split(separator: UInt8(ascii: "\n")) {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
            let key = line[..<colon].filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
            guard key.elementsEqual("flags".utf8) else { continue }
            let words = line[(colon + 1)...].split(separator: UInt8(ascii: " "))
            return Set(words.map { String(decoding: $0, as: UTF8.self) })
        }
        return []
    }

    /// The value of entry `type` in a Linux auxiliary vector (pairs of native words), or 0.
    package static func auxiliaryVectorValue(_ auxv: [UInt8], type: UInt64) -> UInt64 {
        let word = MemoryLayout<UInt>.size
        var offset = 0
        while offset + 2 * word <= auxv.count {
            var key: UInt64 = 0, value: UInt64 = 0
            for i in 0..<word {
                key |= UInt64(auxv[offset + i]) << (8 * UInt64(i))
                value |= UInt64(auxv[offset + word + i]) << (8 * UInt64(i))
            }
            if key == type { return value }
            if key == 0 { break }
            offset += 2 * word
        }
        return 0
    }

    /// The arm64 `AT_HWCAP` bits this package uses, by their Linux names (`asm/hwcap.h`).
    package static func linuxHWCAPFeatures(hwcap: UInt64) -> Set<String> {
        var features: Set<String> = []
        if hwcap & (1 << 3) != 0 { features.insert("aes") }
        if hwcap & (1 << 6) != 0 { features.insert("sha2") }
        if hwcap & (1 << 21) != 0 { features.insert("sha512") }
        return features
    }

    #if !hasFeature(Embedded) && (canImport(Glibc) || canImport(Musl))
    /// The first `limit` bytes of a file (a /proc file reports no size), nil if it cannot be read.
    private static func readFile(_ path: String, limit: Int) -> [UInt8]? {
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

    #if !hasFeature(Embedded) && canImport(Darwin)
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
