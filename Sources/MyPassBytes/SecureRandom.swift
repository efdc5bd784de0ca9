/// Cryptographically secure random bytes from the operating system's generator, through the
/// standard library's `SystemRandomNumberGenerator` (getrandom(2) on Linux, arc4random on Apple
/// platforms).
public enum SecureRandom {
    /// Returns `count` random bytes.
    public static func bytes(count: Int) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: count)
        fill(&result)
        return result
    }

    /// Overwrites every byte of `buffer` with random bytes.
    public static func fill(_ buffer: inout [UInt8]) {
        buffer.withUnsafeMutableBytes { fill($0) }
    }

    /// Overwrites every byte of `buffer` with random bytes, in place (for a secret's own
    /// storage, such as a ``SecureBytes`` capacity: no copy is made).
    public static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        var generator = SystemRandomNumberGenerator()
        var index = 0
        while index < buffer.count {
            var word = generator.next()
            for _ in 0..<8 where index < buffer.count {
                buffer[index] = UInt8(truncatingIfNeeded: word)
                word >>= 8
                index += 1
            }
        }
    }

    /// A uniformly distributed integer in `0 ..< upperBound` (no modulo bias).
    public static func uniform(below upperBound: Int) -> Int {
        precondition(upperBound > 0)
        var generator = SystemRandomNumberGenerator()
        return Int.random(in: 0..<upperBound, using: &generator)
    }
}
