/// Parsers of what an operating system says about the CPU, in the names Linux uses: on x86_64 the
/// `flags` of `/proc/cpuinfo` (`aes`, `sha_ni`, `sse4_1`, ...), on arm64 the `AT_HWCAP` bits
/// (`aes`, `sha2`, `sha512`, as `/proc/cpuinfo`'s `Features` names them). They only parse bytes:
/// reading them is the program's part (MyPassCore's `SystemPlatform`, an Embedded program's
/// platform file), which hands the result to ``CryptoPlatform``.
package enum CPUFeatures {
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
}
