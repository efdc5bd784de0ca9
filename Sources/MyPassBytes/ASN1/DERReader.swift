/// A strict DER reader (ITU-T X.690 §10) over a byte slice: a cursor that reads one element at a
/// time and descends into constructed elements on request.
///
/// Hardening, in the parser itself: every length is checked against the bytes that remain
/// (`truncated`); lengths must be definite and minimal, at most 4 length octets (`nonMinimalEncoding`,
/// `invalidLength`); high tag numbers are refused (`unexpectedTag`); descending past `maxDepth`
/// levels throws `nestingTooDeep`; ``finish()`` refuses trailing bytes. Every error carries the
/// offset of the offending octet from the start of the input. Values are slices of the input.
package struct DERReader: Sendable {
    /// Nesting limit used when none is given: far more than any key format needs.
    public static let defaultMaxDepth = 16

    @usableFromInline var remaining: ArraySlice<UInt8>
    /// Index in the caller's slice that counts as offset 0 in errors.
    @usableFromInline let base: Int
    /// Levels of constructed elements above this reader.
    public let depth: Int
    /// The deepest level this reader (and the readers it hands out) may reach.
    public let maxDepth: Int

    /// A reader over `bytes` (offsets in errors count from `bytes.startIndex`).
    public init(_ bytes: ArraySlice<UInt8>, maxDepth: Int = DERReader.defaultMaxDepth) {
        self.init(bytes, base: bytes.startIndex, depth: 0, maxDepth: maxDepth)
    }

    /// A reader over `bytes` (a copy is kept; offsets count from its first byte).
    public init(_ bytes: [UInt8], maxDepth: Int = DERReader.defaultMaxDepth) {
        self.init(bytes[...], maxDepth: maxDepth)
    }

    init(_ bytes: ArraySlice<UInt8>, base: Int, depth: Int, maxDepth: Int) {
        remaining = bytes
        self.base = base
        self.depth = depth
        self.maxDepth = maxDepth
    }

    /// Whether every element has been read.
    public var isAtEnd: Bool { remaining.isEmpty }

    /// The offset of the next byte to read.
    public var offset: Int { remaining.startIndex - base }

    /// The identifier octet of the next element, without reading it; `nil` at the end.
    public var peekTag: UInt8? { remaining.first }

    /// Reads the next element of any tag.
    /// - Throws: ``BytesError`` `.truncated`, `.invalidLength`, `.nonMinimalEncoding`, `.unexpectedTag`.
    public mutating func readElement() throws(BytesError) -> DERElement {
        let start = remaining.startIndex
        guard let tag = remaining.first else { throw BytesError(.truncated, offset: offset) }
        guard tag & 0x1F != 0x1F else { throw BytesError(.unexpectedTag, offset: offset) }
        var index = start + 1
        guard index < remaining.endIndex else { throw BytesError(.truncated, offset: index - base) }
        let first = remaining[index]
        index += 1
        var length: Int
        if first < 0x80 {
            length = Int(first)
        } else if first == 0x80 {
            // Indefinite length: BER only (X.690 §10.1).
            throw BytesError(.nonMinimalEncoding, offset: index - 1 - base)
        } else {
            let lengthOctets = Int(first & 0x7F)
            guard lengthOctets <= 4 else { throw BytesError(.invalidLength, offset: index - 1 - base) }
            guard remaining.endIndex - index >= lengthOctets else {
                throw BytesError(.truncated, offset: index - base)
            }
            guard remaining[index] != 0 else { throw BytesError(.nonMinimalEncoding, offset: index - base) }
            length = 0
            for _ in 0..<lengthOctets {
                length = length << 8 | Int(remaining[index])
                index += 1
            }
            guard length >= 0x80 else { throw BytesError(.nonMinimalEncoding, offset: index - lengthOctets - 1 - base) }
        }
        guard remaining.endIndex - index >= length else { throw BytesError(.truncated, offset: index - base) }
        let end = index + length
        let element = DERElement(
            tag: tag, content: remaining[index..<end], encoded: remaining[start..<end], offset: start - base)
        remaining = remaining[end...]
        return element
    }

    /// Reads the next element and checks its identifier octet.
    /// - Throws: ``BytesError`` `.unexpectedTag` (at the element's offset) or a structural error.
    public mutating func readElement(tag: UInt8) throws(BytesError) -> DERElement {
        guard let next = remaining.first else { throw BytesError(.truncated, offset: offset) }
        guard next == tag else { throw BytesError(.unexpectedTag, offset: offset) }
        return try readElement()
    }

    /// Reads a constructed element with `tag` and returns a reader over its contents, one level
    /// deeper.
    /// - Throws: ``BytesError`` `.nestingTooDeep` past `maxDepth`, `.unexpectedTag`, or a structural error.
    public mutating func readConstructed(tag: UInt8) throws(BytesError) -> DERReader {
        guard depth < maxDepth else { throw BytesError(.nestingTooDeep, offset: offset) }
        let element = try readElement(tag: tag)
        return DERReader(element.content, base: base, depth: depth + 1, maxDepth: maxDepth)
    }

    /// Reads a SEQUENCE and returns a reader over its contents (see ``readConstructed(tag:)``).
    public mutating func readSequence() throws(BytesError) -> DERReader {
        try readConstructed(tag: DERTag.sequence)
    }

    /// Whether the next element carries `tag` (for OPTIONAL fields).
    public func nextIs(_ tag: UInt8) -> Bool { remaining.first == tag }

    /// Reads a non-negative INTEGER and returns its magnitude, big-endian, without the sign octet
    /// (empty for zero).
    /// - Throws: ``BytesError`` `.invalidEncoding` for empty contents, `.nonMinimalEncoding` for a
    ///   redundant leading 0x00 or 0xFF (X.690 §8.3.2), `.invalidValue` for a negative value.
    public mutating func readUnsignedInteger() throws(BytesError) -> ArraySlice<UInt8> {
        let element = try readElement(tag: DERTag.integer)
        let content = element.content
        let valueOffset = element.offset + (element.encoded.count - content.count)
        guard let first = content.first else { throw BytesError(.invalidEncoding, offset: valueOffset) }
        if content.count > 1 {
            let second = content[content.startIndex + 1]
            if (first == 0x00 && second < 0x80) || (first == 0xFF && second >= 0x80) {
                throw BytesError(.nonMinimalEncoding, offset: valueOffset)
            }
        }
        guard first < 0x80 else { throw BytesError(.invalidValue, offset: valueOffset) }
        return first == 0 ? content.dropFirst() : content
    }

    /// Reads a small non-negative INTEGER (a version field) as an `Int` up to 2^31 - 1.
    /// - Throws: as ``readUnsignedInteger()``, and `.invalidValue` when it does not fit.
    public mutating func readSmallInteger() throws(BytesError) -> Int {
        let start = offset
        let magnitude = try readUnsignedInteger()
        guard magnitude.count <= 4 else { throw BytesError(.invalidValue, offset: start) }
        var value: UInt32 = 0   // 32 bits also where `Int` has 32 (wasm32, armv7em)
        for byte in magnitude { value = value << 8 | UInt32(byte) }
        guard value <= UInt32(Int32.max) else { throw BytesError(.invalidValue, offset: start) }
        return Int(value)
    }

    /// Reads an OCTET STRING (primitive) and returns its contents.
    public mutating func readOctetString() throws(BytesError) -> ArraySlice<UInt8> {
        try readElement(tag: DERTag.octetString).content
    }

    /// Reads a BIT STRING of whole octets (no unused bits, as keys and signatures are) and
    /// returns the octets after the unused-bits count.
    /// - Throws: ``BytesError`` `.invalidEncoding` for an empty element or unused bits other than 0.
    public mutating func readBitString() throws(BytesError) -> ArraySlice<UInt8> {
        let element = try readElement(tag: DERTag.bitString)
        let valueOffset = element.offset + (element.encoded.count - element.content.count)
        guard element.content.first == 0 else { throw BytesError(.invalidEncoding, offset: valueOffset) }
        return element.content.dropFirst()
    }

    /// Reads an OBJECT IDENTIFIER and returns its contents octets, after checking that every
    /// subidentifier is minimal (no leading 0x80, X.690 §8.19.2) and the last one is complete.
    public mutating func readObjectIdentifier() throws(BytesError) -> ArraySlice<UInt8> {
        let element = try readElement(tag: DERTag.objectIdentifier)
        let content = element.content
        let valueOffset = element.offset + (element.encoded.count - content.count)
        guard let last = content.last, last & 0x80 == 0 else {
            throw BytesError(.invalidEncoding, offset: valueOffset)
        }
        var startOfSubidentifier = true
        for (position, byte) in content.enumerated() {
            if startOfSubidentifier && byte == 0x80 {
                throw BytesError(.nonMinimalEncoding, offset: valueOffset + position)
            }
            startOfSubidentifier = byte & 0x80 == 0
        }
        return content
    }

    /// Reads a NULL (empty contents).
    public mutating func readNull() throws(BytesError) {
        let element = try readElement(tag: DERTag.null)
        guard element.content.isEmpty else { throw BytesError(.invalidLength, offset: element.offset + 1) }
    }

    /// Checks that everything has been read.
    /// - Throws: ``BytesError`` `.trailingBytes` at the first unread byte.
    public func finish() throws(BytesError) {
        guard remaining.isEmpty else { throw BytesError(.trailingBytes, offset: offset) }
    }

    /// Walks the whole input once, descending into every constructed element, and checks the
    /// structure (lengths, minimal forms, the depth limit, no trailing bytes) without looking at
    /// values. Decoders call it first so a hostile input fails before any typed reading.
    /// - Throws: the first structural ``BytesError`` found.
    public static func validateStructure(_ bytes: ArraySlice<UInt8>, maxDepth: Int = defaultMaxDepth) throws(BytesError) {
        var stack = [DERReader(bytes, maxDepth: maxDepth)]
        while var reader = stack.popLast() {
            guard !reader.isAtEnd else { continue }
            let tag = reader.peekTag ?? 0
            if tag & 0x20 != 0 {
                let child = try reader.readConstructed(tag: tag)
                stack.append(reader)
                stack.append(child)
            } else {
                _ = try reader.readElement()
                stack.append(reader)
            }
        }
    }
}
