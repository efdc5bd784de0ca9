import MyPassBytes

/// The writer's output bytes, in storage that is zeroed whenever it is given up: when it grows
/// (an `Array` that grows frees its old storage as it is, with a copy of everything written so far)
/// and when it is released. The output of a vault's XML holds every unprotected field in clear.
struct XMLOutputBuffer {
    private(set) var bytes: [UInt8] = []

    /// Capacity reserved at the first write and kept after ``take()``: the streaming writer's
    /// pieces (64 KiB) and their last element fit without growing.
    static let initialCapacity = 96 * 1024

    var count: Int { bytes.count }

    /// Makes room for `extra` more bytes, moving to larger storage and zeroing the old one.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        let needed = bytes.count + extra
        if needed > bytes.capacity { grow(to: needed) }
    }

    @inline(never)
    private mutating func grow(to needed: Int) {
        var larger: [UInt8] = []
        larger.reserveCapacity(max(needed, 2 * bytes.capacity, Self.initialCapacity))
        larger.append(contentsOf: bytes)
        // Only appended to, so the bytes past `count` never held output.
        wipe(&bytes)
        bytes = larger
    }

    mutating func append(_ byte: UInt8) {
        reserve(1)
        bytes.append(byte)
    }

    mutating func append<C: Collection>(contentsOf collection: C) where C.Element == UInt8 {
        reserve(collection.count)
        bytes.append(contentsOf: collection)
    }

    /// The bytes written so far, handed over (the caller wipes them); this buffer starts again
    /// empty with its capacity reserved.
    mutating func take() -> [UInt8] {
        let taken = bytes
        bytes = []
        bytes.reserveCapacity(max(taken.capacity, Self.initialCapacity))
        return taken
    }
}
