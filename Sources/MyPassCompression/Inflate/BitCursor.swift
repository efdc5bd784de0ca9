/// An LSB-first bit reader over one input buffer (RFC 1951 §3.1.1 bit order), kept in locals by
/// the decoder. Invariant: bits of `bits` above `count` are either zero or the true following
/// input bits, so refills may OR overlapping bytes.
///
/// `count` goes negative when the decoder consumed bits past the end of the input; the decoder
/// then rolls back to a saved cursor and waits for more input.
struct BitCursor {
    var bits: UInt64
    var count: Int
    var position: Int
    let input: UnsafePointer<UInt8>?
    let end: Int

    /// Tops the bit buffer up to at least 56 bits, or with all remaining input.
    @inline(__always)
    mutating func refill() {
        if end &- position >= 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(input.unsafelyUnwrapped + position)
                .loadUnaligned(as: UInt64.self))
            bits |= word &<< UInt64(truncatingIfNeeded: count)
            position &+= (63 &- count) &>> 3
            count |= 56
        } else {
            refillSlowly()
        }
    }

    /// Byte-at-a-time refill near the end of the input.
    @inline(__always)
    mutating func refillSlowly() {
        while count <= 56 && position < end {
            bits |= UInt64(input.unsafelyUnwrapped[position]) &<< UInt64(truncatingIfNeeded: count)
            position &+= 1
            count &+= 8
        }
    }

    /// Whether `n` bits (at most 56) are available; loads bytes as needed.
    @inline(__always)
    mutating func need(_ n: Int) -> Bool {
        if count < n { refillSlowly() }
        return count >= n
    }

    /// Drops `n` bits.
    @inline(__always)
    mutating func consume(_ n: Int) {
        bits &>>= UInt64(truncatingIfNeeded: n)
        count &-= n
    }

    /// The next `n` bits (LSB first) without consuming them.
    @inline(__always)
    func peek(_ n: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: bits & ((1 &<< UInt64(truncatingIfNeeded: n)) &- 1))
    }

    /// Reads `n` bits; the caller checked ``need(_:)``.
    @inline(__always)
    mutating func take(_ n: Int) -> UInt32 {
        let v = peek(n)
        consume(n)
        return v
    }

    /// Drops the bits up to the next byte boundary.
    mutating func alignToByte() {
        consume(count & 7)
    }

    /// The next whole byte at a byte boundary: from the bit buffer first, then the input.
    mutating func readByte() -> UInt8? {
        if count >= 8 {
            let b = UInt8(truncatingIfNeeded: bits)
            consume(8)
            return b
        }
        bits = 0
        count = 0
        guard position < end else { return nil }
        let b = input.unsafelyUnwrapped[position]
        position &+= 1
        return b
    }

    /// Whether any input is left (in the bit buffer or after it) at a byte boundary.
    var hasByte: Bool { count >= 8 || position < end }

    /// The bytes consumed so far from the input buffer, counting whole bytes still in the bit buffer as unread.
    var consumedBytes: Int { position - max(count, 0) / 8 }
}
