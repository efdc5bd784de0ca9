// Word-at-a-time (8 bytes, SWAR) helpers for the tokenizer's hot loops. Each has a byte-by-byte
// tail, and each is exact (no false positives), so callers never re-check its answers.

/// Loads 8 bytes at `base + i` as a little-endian word (byte `i` in the low bits).
@inline(__always)
func loadWord(_ base: UnsafePointer<UInt8>, _ i: Int) -> UInt64 {
    UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
}

/// 0x80 in each byte of `word` that is zero, 0x00 elsewhere (exact: no borrow between bytes).
@inline(__always)
func zeroByteMask(_ word: UInt64) -> UInt64 {
    let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    return ~(((word & low7) &+ low7) | word | low7)
}

/// Whether all 8 bytes of `word` are printable ASCII (0x20...0x7F) other than `&` and `>`: the
/// bytes text validation can pass without a closer look.
@inline(__always)
func isPlainASCIIWord(_ word: UInt64) -> Bool {
    let high: UInt64 = 0x8080_8080_8080_8080
    if word & high != 0 { return false }
    // b + 0x60 sets bit 7 exactly when b >= 0x20 (b < 0x80, so no carry leaves the byte).
    if (word &+ 0x6060_6060_6060_6060) & high != high { return false }
    return zeroByteMask(word ^ 0x2626_2626_2626_2626) | zeroByteMask(word ^ 0x3E3E_3E3E_3E3E_3E3E) == 0
}

/// The number of line feeds in `p[start..<end]`.
@inline(__always)
func countLineFeeds(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int {
    var count = 0
    var i = start
    if let base = p.baseAddress {
        while i &+ 8 <= end {
            count &+= zeroByteMask(loadWord(base, i) ^ 0x0A0A_0A0A_0A0A_0A0A).nonzeroBitCount
            i &+= 8
        }
    }
    while i < end {
        if p[i] == 0x0A { count &+= 1 }
        i &+= 1
    }
    return count
}

/// Whether `a[0..<count]` equals `b[0..<count]`.
@inline(__always)
func memoryEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
    var k = 0
    while k &+ 8 <= count {
        if loadWord(a, k) != loadWord(b, k) { return false }
        k &+= 8
    }
    while k < count {
        if a[k] != b[k] { return false }
        k &+= 1
    }
    return true
}
