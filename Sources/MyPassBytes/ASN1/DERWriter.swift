/// A DER writer (ITU-T X.690 §10): appends elements with minimal definite lengths.
///
/// Key material passes through it, so ``takeSecureBytes()`` moves the result into a wiping
/// buffer and zeroes the writer's own array; nested bodies are written into scratch writers that
/// are wiped after use.
package struct DERWriter: Sendable {
    /// The encoding so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty writer.
    public init() {}

    /// Appends one element with identifier `tag` and `content`.
    public mutating func write<C: Collection>(tag: UInt8, content: C) where C.Element == UInt8 {
        bytes.append(tag)
        Self.appendLength(content.count, to: &bytes)
        bytes.append(contentsOf: content)
    }

    /// Appends a constructed element (`tag` should have bit 0x20 set) whose contents `body` writes.
    public mutating func writeConstructed(tag: UInt8, _ body: (inout DERWriter) -> Void) {
        var inner = DERWriter()
        body(&inner)
        write(tag: tag, content: inner.bytes)
        inner.wipe()
    }

    /// Appends a SEQUENCE whose contents `body` writes.
    public mutating func writeSequence(_ body: (inout DERWriter) -> Void) {
        writeConstructed(tag: DERTag.sequence, body)
    }

    /// Appends a non-negative INTEGER from its big-endian magnitude (leading zeros are dropped
    /// and a 0x00 sign octet added when the top bit is set, X.690 §8.3.2).
    public mutating func writeUnsignedInteger<C: Collection>(_ magnitude: C) where C.Element == UInt8 {
        var digits = Array(magnitude.drop(while: { $0 == 0 }))
        if digits.isEmpty { digits = [0] } else if digits[0] >= 0x80 { digits.insert(0, at: 0) }
        write(tag: DERTag.integer, content: digits)
        MyPassBytes.wipe(&digits)
    }

    /// Appends a small non-negative INTEGER (a version field).
    public mutating func writeSmallInteger(_ value: Int) {
        precondition(value >= 0, "DER small integers are non-negative")
        var magnitude: [UInt8] = []
        var rest = value
        repeat {
            magnitude.insert(UInt8(truncatingIfNeeded: rest), at: 0)
            rest >>= 8
        } while rest > 0
        writeUnsignedInteger(magnitude)
    }

    /// Appends an OCTET STRING.
    public mutating func writeOctetString<C: Collection>(_ content: C) where C.Element == UInt8 {
        write(tag: DERTag.octetString, content: content)
    }

    /// Appends a BIT STRING of whole octets (unused-bits count 0).
    public mutating func writeBitString<C: Collection>(_ octets: C) where C.Element == UInt8 {
        write(tag: DERTag.bitString, content: [0] + Array(octets))
    }

    /// Appends an OBJECT IDENTIFIER from its contents octets.
    public mutating func writeObjectIdentifier(_ content: [UInt8]) {
        write(tag: DERTag.objectIdentifier, content: content)
    }

    /// Appends a NULL.
    public mutating func writeNull() { write(tag: DERTag.null, content: []) }

    /// Moves the encoding into a wiping buffer and zeroes this writer's copy.
    public mutating func takeSecureBytes() -> SecureBytes {
        let result = SecureBytes(bytes)
        wipe()
        return result
    }

    /// Zeroes and empties the encoding.
    public mutating func wipe() { MyPassBytes.wipe(&bytes); bytes = [] }

    static func appendLength(_ length: Int, to bytes: inout [UInt8]) {
        if length < 0x80 {
            bytes.append(UInt8(length))
            return
        }
        var octets: [UInt8] = []
        var rest = length
        while rest > 0 {
            octets.insert(UInt8(truncatingIfNeeded: rest), at: 0)
            rest >>= 8
        }
        bytes.append(0x80 | UInt8(octets.count))
        bytes.append(contentsOf: octets)
    }
}
