/// A cursor over little-endian binary data (KDBX is little-endian throughout).
///
/// Verbs follow swift-nio: `read…` moves the cursor, `peek…` does not. Every read checks that the
/// bytes exist and throws ``BytesError/truncated`` otherwise; returned slices share the input's
/// storage and keep its indices.
package struct ByteReader: Sendable {
    /// The whole input.
    public let bytes: ArraySlice<UInt8>
    /// The absolute index of the next byte to read (in `bytes`' index space).
    public private(set) var index: Int

    /// A reader over `bytes`, starting at its first byte.
    public init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.index = bytes.startIndex
    }

    /// A reader over `bytes`, starting at its first byte.
    public init(_ bytes: [UInt8]) { self.init(bytes[...]) }

    /// Bytes consumed so far, counted from the start of the input.
    public var offset: Int { index - bytes.startIndex }

    /// Bytes not yet read.
    public var remaining: Int { bytes.endIndex - index }

    /// Whether all input has been read.
    public var isAtEnd: Bool { index >= bytes.endIndex }

    /// Reads `count` bytes as a slice of the input.
    /// - Throws: ``BytesError`` `.truncated` when fewer than `count` bytes remain, `.invalidLength` for a negative count.
    public mutating func readBytes(_ count: Int) throws(BytesError) -> ArraySlice<UInt8> {
        guard count >= 0 else { throw BytesError(.invalidLength, offset: offset) }
        guard count <= remaining else { throw BytesError(.truncated, offset: offset) }
        let slice = bytes[index..<(index + count)]
        index += count
        return slice
    }

    /// Returns the next `count` bytes without moving the cursor.
    public func peekBytes(_ count: Int) throws(BytesError) -> ArraySlice<UInt8> {
        var copy = self
        return try copy.readBytes(count)
    }

    /// Reads everything that is left.
    public mutating func readRemaining() -> ArraySlice<UInt8> {
        let slice = bytes[index...]
        index = bytes.endIndex
        return slice
    }

    /// Skips `count` bytes.
    public mutating func skip(_ count: Int) throws(BytesError) { _ = try readBytes(count) }

    /// Reads a little-endian unsigned integer of `T`'s width.
    public mutating func readLittleEndian<T: FixedWidthInteger>(as type: T.Type = T.self) throws(BytesError) -> T {
        let size = MemoryLayout<T>.size
        guard size <= remaining else { throw BytesError(.truncated, offset: offset) }
        var value: T = 0
        for i in 0..<size {
            value |= T(truncatingIfNeeded: bytes[index + i]) << (8 * i)
        }
        index += size
        return value
    }

    /// Reads one byte and moves the cursor past it.
    /// - Throws: ``BytesError`` `.truncated` at the end of the input.
    public mutating func readUInt8() throws(BytesError) -> UInt8 { try readLittleEndian() }
    /// Reads a 2-byte little-endian unsigned integer and moves the cursor past it.
    /// - Throws: ``BytesError`` `.truncated` if fewer than 2 bytes remain.
    public mutating func readUInt16LittleEndian() throws(BytesError) -> UInt16 { try readLittleEndian() }
    /// Reads a 4-byte little-endian unsigned integer and moves the cursor past it.
    /// - Throws: ``BytesError`` `.truncated` if fewer than 4 bytes remain.
    public mutating func readUInt32LittleEndian() throws(BytesError) -> UInt32 { try readLittleEndian() }
    /// Reads an 8-byte little-endian unsigned integer and moves the cursor past it.
    /// - Throws: ``BytesError`` `.truncated` if fewer than 8 bytes remain.
    public mutating func readUInt64LittleEndian() throws(BytesError) -> UInt64 { try readLittleEndian() }
    /// Reads a 4-byte little-endian two's-complement integer and moves the cursor past it.
    /// - Throws: ``BytesError`` `.truncated` if fewer than 4 bytes remain.
    public mutating func readInt32LittleEndian() throws(BytesError) -> Int32 { try readLittleEndian() }
    /// Reads an 8-byte little-endian two's-complement integer and moves the cursor past it.
    /// - Throws: ``BytesError`` `.truncated` if fewer than 8 bytes remain.
    public mutating func readInt64LittleEndian() throws(BytesError) -> Int64 { try readLittleEndian() }
}

/// Appends little-endian binary data to an owned `[UInt8]` (the `write` verbs of swift-nio).
package struct ByteWriter: Sendable {
    /// Everything written so far.
    public private(set) var bytes: [UInt8]

    /// An empty writer, reserving `capacity` bytes.
    public init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends raw bytes.
    public mutating func writeBytes<C: Collection>(_ data: C) where C.Element == UInt8 {
        bytes.append(contentsOf: data)
    }

    /// Appends `value` in little-endian order, `T`'s width in bytes.
    public mutating func writeLittleEndian<T: FixedWidthInteger>(_ value: T) {
        for i in 0..<MemoryLayout<T>.size {
            bytes.append(UInt8(truncatingIfNeeded: value >> (8 * i)))
        }
    }
}

extension Array where Element == UInt8 {
    /// Appends `value` in little-endian order.
    public mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        for i in 0..<MemoryLayout<T>.size {
            append(UInt8(truncatingIfNeeded: value >> (8 * i)))
        }
    }
}

/// Decodes a little-endian integer from the first `T.size` bytes of `bytes` (must have enough bytes).
@inlinable
package func loadLittleEndian<T: FixedWidthInteger, C: Collection>(_ bytes: C, as type: T.Type = T.self) -> T
where C.Element == UInt8 {
    var value: T = 0
    var shift = 0
    for byte in bytes.prefix(MemoryLayout<T>.size) {
        value |= T(truncatingIfNeeded: byte) << shift
        shift += 8
    }
    return value
}
