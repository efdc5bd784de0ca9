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
        var index = 0
        for byte in bytes {
            base[index] = byte
            index += 1
        }
        storage.count = newCount
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
