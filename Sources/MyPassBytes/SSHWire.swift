/// Reads SSH's wire encoding (RFC 4251 §5): `byte`, `uint32` (big-endian), `string` (a uint32
/// length then that many bytes) and `mpint` (a string holding a two's-complement big-endian
/// integer), as the SSH agent protocol and OpenSSH's key files use them.
///
/// Every length is checked against what is left before anything is read: a hostile length is a
/// ``BytesError`` `.truncated`, never a large allocation.
public struct SSHWireReader: Sendable {
    /// The bytes not read yet.
    public private(set) var remaining: ArraySlice<UInt8>
    private let start: Int

    /// A reader over `bytes`.
    public init(_ bytes: ArraySlice<UInt8>) {
        remaining = bytes
        start = bytes.startIndex
    }

    /// A reader over `bytes`.
    public init(_ bytes: [UInt8]) { self.init(bytes[...]) }

    /// Whether everything was read.
    public var isAtEnd: Bool { remaining.isEmpty }

    /// The offset of the next byte from the start of the input.
    public var offset: Int { remaining.startIndex - start }

    /// One byte.
    /// - Throws: ``BytesError`` `.truncated` at the end of the input.
    public mutating func readByte() throws(BytesError) -> UInt8 {
        guard let byte = remaining.first else { throw BytesError(.truncated, offset: offset) }
        remaining = remaining.dropFirst()
        return byte
    }

    /// A big-endian uint32.
    /// - Throws: ``BytesError`` `.truncated` when fewer than four bytes are left.
    public mutating func readUInt32() throws(BytesError) -> UInt32 {
        guard remaining.count >= 4 else { throw BytesError(.truncated, offset: offset) }
        var value: UInt32 = 0
        for byte in remaining.prefix(4) { value = value << 8 | UInt32(byte) }
        remaining = remaining.dropFirst(4)
        return value
    }

    /// `count` raw bytes.
    /// - Throws: ``BytesError`` `.truncated` when fewer are left.
    public mutating func readBytes(_ count: Int) throws(BytesError) -> ArraySlice<UInt8> {
        guard count >= 0, remaining.count >= count else { throw BytesError(.truncated, offset: offset) }
        let bytes = remaining.prefix(count)
        remaining = remaining.dropFirst(count)
        return bytes
    }

    /// A `string`: its bytes, a slice of the input.
    /// - Throws: ``BytesError`` `.truncated` when the length runs past the end.
    public mutating func readString() throws(BytesError) -> ArraySlice<UInt8> {
        let at = offset
        let length = try readUInt32()
        guard UInt64(length) <= UInt64(remaining.count) else { throw BytesError(.truncated, offset: at) }
        return try readBytes(Int(length))
    }

    /// A non-negative `mpint`, its magnitude big-endian without leading zeros (empty for zero).
    /// - Throws: ``BytesError`` `.truncated`; `.invalidValue` for a negative number;
    ///   `.nonMinimalEncoding` for a needless leading zero (RFC 4251 §5).
    public mutating func readPositiveMPInt() throws(BytesError) -> ArraySlice<UInt8> {
        let at = offset
        let bytes = try readString()
        guard let first = bytes.first else { return bytes }
        guard first & 0x80 == 0 else { throw BytesError(.invalidValue, offset: at) }
        if first == 0 {
            guard bytes.count > 1, bytes[bytes.startIndex + 1] & 0x80 != 0 else {
                throw BytesError(.nonMinimalEncoding, offset: at)
            }
            return bytes.dropFirst()
        }
        return bytes
    }

    /// Checks that nothing is left.
    /// - Throws: ``BytesError`` `.trailingBytes` otherwise.
    public func finish() throws(BytesError) {
        guard remaining.isEmpty else { throw BytesError(.trailingBytes, offset: offset) }
    }
}

/// Writes SSH's wire encoding (RFC 4251 §5) into a ``SecureBytes`` buffer, so that a private key
/// serialised here never leaves a copy in freed memory.
public struct SSHWireWriter: Sendable {
    /// What was written.
    public private(set) var bytes = SecureBytes()

    /// An empty writer.
    public init() {}

    /// One byte.
    public mutating func writeByte(_ byte: UInt8) { bytes.append(byte) }

    /// A big-endian uint32.
    public mutating func writeUInt32(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    /// Raw bytes, no length.
    public mutating func writeBytes<C: Collection>(_ data: C) where C.Element == UInt8 {
        bytes.append(contentsOf: data)
    }

    /// A `string`: length, then the bytes.
    public mutating func writeString<C: Collection>(_ data: C) where C.Element == UInt8 {
        writeUInt32(UInt32(data.count))
        bytes.append(contentsOf: data)
    }

    /// A `string` of UTF-8 text.
    public mutating func writeString(_ text: String) { writeString(Array(text.utf8)) }

    /// A non-negative `mpint` from its big-endian magnitude (leading zeros dropped, a zero byte
    /// put in front when the top bit is set).
    public mutating func writePositiveMPInt<C: Collection>(_ magnitude: C) where C.Element == UInt8 {
        let trimmed = magnitude.drop { $0 == 0 }
        let needsZero = (trimmed.first ?? 0) & 0x80 != 0
        writeUInt32(UInt32(trimmed.count + (needsZero ? 1 : 0)))
        if needsZero { bytes.append(0) }
        bytes.append(contentsOf: trimmed)
    }
}
