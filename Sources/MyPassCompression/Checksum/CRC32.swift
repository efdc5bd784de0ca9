/// CRC-32 as used by gzip (RFC 1952 §8, ISO 3309 / ITU-T V.42: polynomial 0xEDB88320 reflected,
/// initial and final XOR 0xFFFFFFFF). Slicing-by-8 tables.
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

    /// The check value of raw memory, continuing from `initial` (0 for a new computation).
    public static func checksum(_ buffer: UnsafeRawBufferPointer, initial: UInt32 = 0) -> UInt32 {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return initial }
        return table.withUnsafeBufferPointer { t in
            var crc = ~initial
            var p = base
            var n = buffer.count
            while n >= 8 {
                let lo = UInt32(littleEndian: p.loadUnaligned(as: UInt32.self)) ^ crc
                let hi = UInt32(littleEndian: (p + 4).loadUnaligned(as: UInt32.self))
                crc = t[7 &* 256 &+ Int(lo & 0xFF)] ^ t[6 &* 256 &+ Int((lo >> 8) & 0xFF)]
                    ^ t[5 &* 256 &+ Int((lo >> 16) & 0xFF)] ^ t[4 &* 256 &+ Int(lo >> 24)]
                    ^ t[3 &* 256 &+ Int(hi & 0xFF)] ^ t[2 &* 256 &+ Int((hi >> 8) & 0xFF)]
                    ^ t[256 &+ Int((hi >> 16) & 0xFF)] ^ t[Int(hi >> 24)]
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
