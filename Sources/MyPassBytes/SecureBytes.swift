/// A growable byte buffer for secrets (keys, passwords, protected values) that wipes its whole
/// capacity when the last copy is released.
///
/// Value semantics with copy-on-write: a copy shares storage until one side mutates. The storage is
/// zeroed with volatile-style writes in `deinit`, and `description` never prints the bytes.
public struct SecureBytes: Sendable {
    @usableFromInline
    final class Storage: @unchecked Sendable {
        @usableFromInline var pointer: UnsafeMutableRawPointer
        @usableFromInline var count: Int
        @usableFromInline var capacity: Int

        @usableFromInline
        init(capacity: Int) {
            self.capacity = Swift.max(capacity, 16)
            self.pointer = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 16)
            self.pointer.initializeMemory(as: UInt8.self, repeating: 0, count: self.capacity)
            self.count = 0
        }

        @usableFromInline
        func copy(minimumCapacity: Int) -> Storage {
            let new = Storage(capacity: Swift.max(minimumCapacity, capacity))
            new.pointer.copyMemory(from: pointer, byteCount: count)
            new.count = count
            return new
        }

        @usableFromInline
        func grow(to minimumCapacity: Int) {
            guard minimumCapacity > capacity else { return }
            let newCapacity = Swift.max(minimumCapacity, capacity * 2)
            let newPointer = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
            newPointer.initializeMemory(as: UInt8.self, repeating: 0, count: newCapacity)
            newPointer.copyMemory(from: pointer, byteCount: count)
            secureZero(pointer, count: capacity)
            pointer.deallocate()
            pointer = newPointer
            capacity = newCapacity
        }

        deinit {
            secureZero(pointer, count: capacity)
            pointer.deallocate()
        }
    }

    @usableFromInline var storage: Storage

    /// An empty buffer.
    public init() { storage = Storage(capacity: 0) }

    /// A buffer of `count` zero bytes.
    public init(zeroedCount count: Int) {
        storage = Storage(capacity: count)
        storage.count = count
    }

    /// A buffer holding a copy of `bytes`. The caller remains responsible for wiping its own copy.
    public init<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        storage = Storage(capacity: bytes.count)
        append(contentsOf: bytes)
    }

    /// The number of bytes held.
    public var count: Int { storage.count }

    /// Whether the buffer holds no bytes.
    public var isEmpty: Bool { storage.count == 0 }

    @usableFromInline
    mutating func makeUnique(minimumCapacity: Int) {
        if !isKnownUniquelyReferenced(&storage) {
            storage = storage.copy(minimumCapacity: minimumCapacity)
        } else {
            storage.grow(to: minimumCapacity)
        }
    }

    /// Appends bytes to the end.
    public mutating func append<C: Collection>(contentsOf bytes: C) where C.Element == UInt8 {
        let newCount = storage.count + bytes.count
        makeUnique(minimumCapacity: newCount)
        let base = storage.pointer.assumingMemoryBound(to: UInt8.self) + storage.count
        let copied: Void? = bytes.withContiguousStorageIfAvailable { source in
            if let from = source.baseAddress { base.update(from: from, count: source.count) }
        }
        if copied == nil {
            var index = 0
            for byte in bytes {
                base[index] = byte
                index += 1
            }
        }
        storage.count = newCount
    }

    /// Removes the first `count` bytes (0 ... ``count``), moving the rest to the front and zeroing
    /// the bytes this frees, so that no stale copy stays in the capacity.
    public mutating func removeFirst(_ count: Int) {
        precondition(count >= 0 && count <= storage.count, "SecureBytes.removeFirst out of range")
        guard count > 0 else { return }
        makeUnique(minimumCapacity: storage.count)
        let remaining = storage.count - count
        if remaining > 0 { storage.pointer.copyMemory(from: storage.pointer + count, byteCount: remaining) }
        secureZero(storage.pointer + remaining, count: count)
        storage.count = remaining
    }

    /// Sets the count to `count` (at most ``capacity``) without touching the bytes: new bytes are
    /// those already in the capacity (zero, or what was written through
    /// ``withUnsafeMutableCapacity(_:)``); bytes beyond a smaller count are zeroed.
    public mutating func resize(to count: Int) {
        precondition(count >= 0, "SecureBytes.resize to a negative count")
        makeUnique(minimumCapacity: count)
        if count < storage.count { secureZero(storage.pointer + count, count: storage.count - count) }
        storage.count = count
    }

    /// The bytes the buffer can hold before it grows (wiped on growth and on release).
    public var capacity: Int { storage.capacity }

    /// Makes room for at least `minimumCapacity` bytes (the old storage is wiped when it moves).
    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        makeUnique(minimumCapacity: minimumCapacity)
    }

    /// Calls `body` with the whole capacity, writable (the first ``count`` bytes are the content).
    /// Do not let the pointer escape; set the new count with ``resize(to:)``.
    public mutating func withUnsafeMutableCapacity<R, E: Error>(
        _ body: (UnsafeMutableRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        makeUnique(minimumCapacity: storage.count)
        return try body(UnsafeMutableRawBufferPointer(start: storage.pointer, count: storage.capacity))
    }

    /// Appends one byte.
    public mutating func append(_ byte: UInt8) {
        append(contentsOf: CollectionOfOne(byte))
    }

    /// Reads or writes the byte at `index` (0 ..< count).
    public subscript(index: Int) -> UInt8 {
        get {
            precondition(index >= 0 && index < storage.count, "SecureBytes index out of range")
            return storage.pointer.load(fromByteOffset: index, as: UInt8.self)
        }
        set {
            precondition(index >= 0 && index < storage.count, "SecureBytes index out of range")
            makeUnique(minimumCapacity: storage.count)
            storage.pointer.storeBytes(of: newValue, toByteOffset: index, as: UInt8.self)
        }
    }

    /// Calls `body` with the bytes, read-only. Do not let the pointer escape.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: storage.pointer, count: storage.count))
    }

    /// Calls `body` with the bytes, writable. Do not let the pointer escape.
    public mutating func withUnsafeMutableBytes<R, E: Error>(
        _ body: (UnsafeMutableRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        makeUnique(minimumCapacity: storage.count)
        return try body(UnsafeMutableRawBufferPointer(start: storage.pointer, count: storage.count))
    }

    /// A plain copy of the bytes. The caller owns the copy and should `wipe(&copy)` it when done.
    public var unsafeArray: [UInt8] { withUnsafeBytes { Array($0) } }

    /// Zeroes and empties the buffer, keeping nothing of its previous content.
    public mutating func removeAll() {
        makeUnique(minimumCapacity: 0)
        secureZero(storage.pointer, count: storage.capacity)
        storage.count = 0
    }
}

extension SecureBytes: Equatable {
    /// Constant-time comparison of contents (lengths are not secret).
    public static func == (lhs: SecureBytes, rhs: SecureBytes) -> Bool {
        lhs.withUnsafeBytes { a in rhs.withUnsafeBytes { b in constantTimeEquals(a, b) } }
    }
}

extension SecureBytes: CustomStringConvertible, CustomDebugStringConvertible {
    /// Never reveals the bytes: `SecureBytes(32 bytes)`.
    public var description: String { "SecureBytes(\(count) bytes)" }
    /// Same as ``description``: never reveals the bytes.
    public var debugDescription: String { description }
}
