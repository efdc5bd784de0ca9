/// CRC-32 as used by gzip (RFC 1952 §8, ISO 3309 / ITU-T V.42: polynomial 0xEDB88320 reflected,
/// initial and final XOR 0xFFFFFFFF). Slicing-by-8 tables; long inputs run as three independent
/// CRCs over neighbouring 4 KiB stretches, joined by multiplying in GF(2) modulo the polynomial
/// (what zlib's `crc32_combine` does), so that three table-lookup chains overlap in the CPU.
///
/// Incremental use: pass the previous result as `initial`,
/// `checksum(b, initial: checksum(a)) == checksum(a + b)`.
public enum CRC32 {
    /// The check value of `bytes`, continuing from `initial` (0 for a new computation).
    public static func checksum(_ bytes: [UInt8], initial: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0, initial: initial) }
    }

    /// The check value of a slice of bytes, continuing from `initial` (0 for a new computation).
    public static func checksum(_ bytes: ArraySlice<UInt8>, initial: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0, initial: initial) }
    }

    /// Bytes in each of the three stretches hashed side by side.
    static let laneBytes = 4096

    /// The check value of raw memory, continuing from `initial` (0 for a new computation).
    public static func checksum(_ buffer: UnsafeRawBufferPointer, initial: UInt32 = 0) -> UInt32 {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return initial }
        let shift = laneShift
        return table.withUnsafeBufferPointer { tableBuffer in
            let t = tableBuffer.baseAddress!
            var crc = ~initial
            var p = base
            var n = buffer.count
            let lane = laneBytes
            while n >= 3 &* lane {
                // crc(A B C) = crc(A) x^8|BC| + crc0(B) x^8|C| + crc0(C), crc0 starting from 0.
                var second: UInt32 = 0, third: UInt32 = 0
                var offset = 0
                while offset < lane {
                    crc = eightBytes(crc, p + offset, t)
                    second = eightBytes(second, p + (lane &+ offset), t)
                    third = eightBytes(third, p + (2 &* lane &+ offset), t)
                    offset &+= 8
                }
                crc = multiply(crc, shift) ^ second
                crc = multiply(crc, shift) ^ third
                p += 3 &* lane
                n &-= 3 &* lane
            }
            while n >= 8 {
                crc = eightBytes(crc, p, t)
                p += 8
                n &-= 8
            }
            while n > 0 {
                crc = t[Int((crc ^ UInt32(p.load(as: UInt8.self))) & 0xFF)] ^ (crc >> 8)
                p += 1
                n &-= 1
            }
            return ~crc
        }
    }

    /// Advances `crc` over the 8 bytes at `p` (slicing-by-8).
    @inline(__always)
    static func eightBytes(_ crc: UInt32, _ p: UnsafeRawPointer, _ t: UnsafePointer<UInt32>) -> UInt32 {
        let lo = UInt32(littleEndian: p.loadUnaligned(as: UInt32.self)) ^ crc
        let hi = UInt32(littleEndian: (p + 4).loadUnaligned(as: UInt32.self))
        return t[7 &* 256 &+ Int(lo & 0xFF)] ^ t[6 &* 256 &+ Int((lo >> 8) & 0xFF)]
            ^ t[5 &* 256 &+ Int((lo >> 16) & 0xFF)] ^ t[4 &* 256 &+ Int(lo >> 24)]
            ^ t[3 &* 256 &+ Int(hi & 0xFF)] ^ t[2 &* 256 &+ Int((hi >> 8) & 0xFF)]
            ^ t[256 &+ Int((hi >> 16) & 0xFF)] ^ t[Int(hi >> 24)]
    }

    /// a · b modulo the CRC polynomial, both in the reflected bit order (bit 31 is x^0).
    static func multiply(_ a: UInt32, _ b: UInt32) -> UInt32 {
        var product: UInt32 = 0
        var b = b
        var bit: UInt32 = 1 << 31
        while bit != 0 {
            if a & bit != 0 { product ^= b }
            b = b & 1 != 0 ? (b >> 1) ^ 0xEDB8_8320 : b >> 1
            bit >>= 1
        }
        return product
    }

    /// x^(8 · laneBytes) modulo the polynomial: what one lane of zero bytes does to a CRC.
    static let laneShift: UInt32 = {
        var result: UInt32 = 1 << 31  // x^0
        var power: UInt32 = 1 << 23   // x^8
        var count = laneBytes
        while count > 0 {
            if count & 1 != 0 { result = multiply(result, power) }
            power = multiply(power, power)
            count >>= 1
        }
        return result
    }()

    /// 8 × 256 entries: table k advances the CRC by one byte followed by k zero bytes.
    static let table: [UInt32] = {
        var t = [UInt32](repeating: 0, count: 8 * 256)
        for i in 0..<256 {
            var c = UInt32(i)
            for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            t[i] = c
        }
        for i in 0..<256 {
            for k in 1..<8 {
                let prev = t[(k - 1) * 256 + i]
                t[k * 256 + i] = t[Int(prev & 0xFF)] ^ (prev >> 8)
            }
        }
        return t
    }()
}
