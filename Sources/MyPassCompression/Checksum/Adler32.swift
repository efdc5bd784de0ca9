/// Adler-32 as used by zlib (RFC 1950 §8.2): two sums modulo 65521, initial value 1.
///
/// Incremental use: pass the previous result as `initial`,
/// `checksum(b, initial: checksum(a)) == checksum(a + b)`.
public enum Adler32 {
    /// The check value of `bytes`, continuing from `initial` (1 for a new computation).
    public static func checksum(_ bytes: [UInt8], initial: UInt32 = 1) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0, initial: initial) }
    }

    /// The check value of a slice of bytes, continuing from `initial` (1 for a new computation).
    public static func checksum(_ bytes: ArraySlice<UInt8>, initial: UInt32 = 1) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0, initial: initial) }
    }

    /// The check value of raw memory, continuing from `initial` (1 for a new computation).
    public static func checksum(_ buffer: UnsafeRawBufferPointer, initial: UInt32 = 1) -> UInt32 {
        let base: UInt32 = 65521
        // 5552 is the largest n with 255·n(n+1)/2 + (n+1)(base−1) < 2^32 (zlib's NMAX).
        let nmax = 5552
        var a = initial & 0xFFFF
        var b = initial >> 16
        var index = 0
        let count = buffer.count
        while index < count {
            let end = min(count, index + nmax)
            while index < end {
                a &+= UInt32(buffer[index])
                b &+= a
                index &+= 1
            }
            a %= base
            b %= base
        }
        return b << 16 | a
    }
}
