import MyPassBytes

/// Growable output buffer with an LSB-first bit accumulator (RFC 1951 §3.1.1), for the deflater.
/// Memory is manual so that the block writer can keep the write pointer and the bit buffer in
/// locals; `DeflateState` owns one and frees it.
struct BitSink {
    var base: UnsafeMutablePointer<UInt8>
    var count = 0
    var capacity: Int
    var bits: UInt64 = 0
    var bitCount = 0

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    /// Zeroes and frees the buffer (stored blocks carry their input verbatim).
    func free() {
        secureZero(base, count: capacity)
        base.deallocate()
    }

    func copy() -> BitSink {
        var other = BitSink(capacity: capacity)
        other.base.update(from: base, count: count)
        other.count = count
        other.bits = bits
        other.bitCount = bitCount
        return other
    }

    /// Makes room for `extra` more bytes (plus 8 bytes of slack for whole-word stores).
    mutating func reserve(_ extra: Int) {
        let needed = count + extra + 16
        guard needed > capacity else { return }
        let newCapacity = max(needed, capacity * 2)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        secureZero(base, count: capacity)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Appends `n` (at most 32) bits of `value`, LSB first. The caller reserved room.
    @inline(__always)
    mutating func put(_ value: UInt32, _ n: Int) {
        bits |= UInt64(value) &<< UInt64(truncatingIfNeeded: bitCount)
        bitCount &+= n
        if bitCount >= 32 {
            UnsafeMutableRawPointer(base + count).storeBytes(of: UInt32(truncatingIfNeeded: bits).littleEndian, as: UInt32.self)
            count &+= 4
            bits &>>= 32
            bitCount &-= 32
        }
    }

    /// Writes out whole bytes of the bit buffer, leaving fewer than 8 bits in it.
    mutating func flushBytes() {
        while bitCount >= 8 {
            base[count] = UInt8(truncatingIfNeeded: bits)
            count += 1
            bits >>= 8
            bitCount -= 8
        }
    }

    /// Pads with zero bits to a byte boundary and writes everything out.
    mutating func alignToByte() {
        flushBytes()
        if bitCount > 0 {
            base[count] = UInt8(truncatingIfNeeded: bits)
            count += 1
            bits = 0
            bitCount = 0
        }
    }

    /// Appends whole bytes; the bit buffer must be byte-aligned and empty (after ``alignToByte()``).
    mutating func append(_ bytes: UnsafePointer<UInt8>, count n: Int) {
        reserve(n)
        (base + count).update(from: bytes, count: n)
        count += n
    }

    /// Takes the complete bytes written so far; partial bits stay.
    mutating func takeBytes() -> [UInt8] {
        reserve(8)
        flushBytes()
        let out = [UInt8](UnsafeBufferPointer(start: base, count: count))
        count = 0
        return out
    }
}
