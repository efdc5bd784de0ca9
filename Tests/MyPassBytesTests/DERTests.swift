import MyPassBytes
import MyPassTestSupport
import Testing

/// Expects `body` to throw a ``BytesError`` with `code` at `offset` (errors compare on code only,
/// so the offset is checked here).
func expectError(
    _ code: BytesError.Code, at offset: Int, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) {
    do {
        try body()
        Issue.record("expected \(code) at \(offset), nothing thrown", sourceLocation: sourceLocation)
    } catch let error as BytesError {
        #expect(error.code == code && error.offset == offset, "got \(error.code) at \(error.offset)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
    }
}

@Suite("DER, PEM and base64url")
struct DERTests {
    /// SEQUENCE { INTEGER 1, OCTET STRING 'ab', SEQUENCE { OID 1.3.101.112, NULL } } written by hand (X.690 §8).
    static let sample: [UInt8] = [
        0x30, 0x10, 0x02, 0x01, 0x01, 0x04, 0x02, 0x61, 0x62, 0x30, 0x07, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x05, 0x00,
    ]

    @Test("Reads a known structure from an array and from a slice not at index 0")
    func readsKnownStructure() throws {
        for input in [Self.sample[...], offsetSlice(Self.sample)] {
            var outer = DERReader(input)
            var sequence = try outer.readSequence()
            try outer.finish()
            #expect(try sequence.readSmallInteger() == 1)
            #expect(Array(try sequence.readOctetString()) == Array("ab".utf8))
            var inner = try sequence.readSequence()
            #expect(Array(try inner.readObjectIdentifier()) == [0x2B, 0x65, 0x70])
            try inner.readNull()
            try inner.finish()
            try sequence.finish()
            try DERReader.validateStructure(input)
        }
    }

    @Test("The writer produces the same bytes, with minimal lengths and integers")
    func writerKnownAnswers() {
        var writer = DERWriter()
        writer.writeSequence { sequence in
            sequence.writeSmallInteger(1)
            sequence.writeOctetString(Array("ab".utf8))
            sequence.writeSequence { $0.writeObjectIdentifier([0x2B, 0x65, 0x70]); $0.writeNull() }
        }
        #expect(writer.bytes == Self.sample)
        var integers = DERWriter()
        integers.writeUnsignedInteger([0x00, 0x00, 0x80])  // leading zeros dropped, sign octet added
        integers.writeUnsignedInteger([0x00])
        integers.writeSmallInteger(256)
        #expect(integers.bytes == [0x02, 0x02, 0x00, 0x80, 0x02, 0x01, 0x00, 0x02, 0x02, 0x01, 0x00])
        var long = DERWriter()
        long.writeOctetString([UInt8](repeating: 7, count: 200))
        #expect(Array(long.bytes.prefix(3)) == [0x04, 0x81, 0xC8])
        long.wipe()
        #expect(long.bytes.isEmpty)
    }

    @Test("Hostile DER gives typed errors with the offset of the problem")
    func hostileInput() {
        func first(_ bytes: [UInt8]) throws(BytesError) { var r = DERReader(bytes); _ = try r.readElement() }
        // Length past the end.
        expectError(.truncated, at: 2) { try first([0x04, 0x05, 0x01]) }
        expectError(.truncated, at: 1) { try first([0x04]) }
        expectError(.truncated, at: 0) { try first([]) }
        // Indefinite length (BER only).
        expectError(.nonMinimalEncoding, at: 1) { try first([0x30, 0x80, 0x00, 0x00]) }
        // Long form for a short length; a leading zero length octet.
        expectError(.nonMinimalEncoding, at: 1) { try first([0x04, 0x81, 0x01, 0xAA]) }
        expectError(.nonMinimalEncoding, at: 2) { try first([0x04, 0x82, 0x00, 0x81] + [UInt8](repeating: 0, count: 0x81)) }
        // Five length octets.
        expectError(.invalidLength, at: 1) { try first([0x04, 0x85, 1, 0, 0, 0, 0]) }
        // High tag number form.
        expectError(.unexpectedTag, at: 0) { try first([0x1F, 0x22, 0x00]) }
        // Wrong tag where an INTEGER is expected.
        expectError(.unexpectedTag, at: 0) { var r = DERReader([0x04, 0x01, 0x01]); _ = try r.readUnsignedInteger() }
        // Non-minimal and negative integers; empty integer.
        expectError(.nonMinimalEncoding, at: 2) { var r = DERReader([0x02, 0x02, 0x00, 0x01]); _ = try r.readUnsignedInteger() }
        expectError(.nonMinimalEncoding, at: 2) { var r = DERReader([0x02, 0x02, 0xFF, 0x80]); _ = try r.readUnsignedInteger() }
        expectError(.invalidValue, at: 2) { var r = DERReader([0x02, 0x01, 0x80]); _ = try r.readUnsignedInteger() }
        expectError(.invalidEncoding, at: 2) { var r = DERReader([0x02, 0x00]); _ = try r.readUnsignedInteger() }
        // OID with a non-minimal subidentifier, and an unfinished one.
        expectError(.nonMinimalEncoding, at: 2) { var r = DERReader([0x06, 0x02, 0x80, 0x01]); _ = try r.readObjectIdentifier() }
        expectError(.invalidEncoding, at: 2) { var r = DERReader([0x06, 0x01, 0x81]); _ = try r.readObjectIdentifier() }
        // BIT STRING with unused bits.
        expectError(.invalidEncoding, at: 2) { var r = DERReader([0x03, 0x02, 0x01, 0xFE]); _ = try r.readBitString() }
        // Trailing bytes after the outer element.
        expectError(.trailingBytes, at: 2) {
            var r = DERReader([0x30, 0x00, 0x00]); _ = try r.readSequence(); try r.finish()
        }
        // A child that runs past its parent is truncated at the parent's end.
        expectError(.truncated, at: 4) { try DERReader.validateStructure([0x30, 0x03, 0x04, 0x05, 0x00, 0x00, 0x00, 0x00][...]) }
    }

    @Test("Deep nesting stops at the limit instead of recursing")
    func deepNesting() {
        // 10,000 nested SEQUENCEs: 30 82 xx xx ... built from the inside out.
        var bytes: [UInt8] = []
        for _ in 0..<10_000 {
            let length = bytes.count
            var header: [UInt8] = [0x30]
            if length < 0x80 { header.append(UInt8(length)) } else if length < 0x100 { header += [0x81, UInt8(length)] }
            else if length < 0x10000 { header += [0x82, UInt8(length >> 8), UInt8(length & 0xFF)] }
            else { header += [0x83, UInt8(length >> 16), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)] }
            bytes = header + bytes
        }
        expectError(.nestingTooDeep, at: 64) { try DERReader.validateStructure(bytes[...]) }
        var reader = DERReader([0x30, 0x02, 0x30, 0x00], maxDepth: 1)
        expectError(.nestingTooDeep, at: 2) {
            var child = try reader.readSequence()
            _ = try child.readSequence()
        }
    }

    @Test("PEM: round trip with 64-column lines; missing armour and bad base64 are errors")
    func pem() throws {
        let der = [UInt8](0..<100)
        let text = PEM.encode(der, label: "PRIVATE KEY")
        #expect(text.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        #expect(text.hasSuffix("-----END PRIVATE KEY-----\n"))
        #expect(text.split(separator: "\n").dropFirst().dropLast().allSatisfy { $0.count <= 64 })
        #expect(try PEM.decode("junk before\n" + text, label: "PRIVATE KEY") == der)
        #expect(try PEM.decode(text.replacingOccurrences(of: "\n", with: "\r\n"), label: "PRIVATE KEY") == der)
        expectError(.invalidValue, at: 0) { _ = try PEM.decode(text, label: "PUBLIC KEY") }
        expectError(.invalidValue, at: 27) { _ = try PEM.decode("-----BEGIN PRIVATE KEY-----\nAAAA\n", label: "PRIVATE KEY") }
        expectError(.invalidEncoding, at: 30) { _ = try PEM.decode("-----BEGIN PRIVATE KEY-----\nAA!A\n-----END PRIVATE KEY-----", label: "PRIVATE KEY") }
        expectError(.invalidLength, at: PEM.maxTextBytes) {
            _ = try PEM.decode(String(repeating: "A", count: PEM.maxTextBytes + 1), label: "PRIVATE KEY")
        }
    }

    @Test("base64url: RFC 4648 §10 vectors without padding, the URL-safe alphabet, strict decoding")
    func base64URL() throws {
        let cases: [(String, String)] = [
            ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
        ]
        for (plain, encoded) in cases {
            #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
            #expect(try Base64URL.decode(encoded) == Array(plain.utf8))
        }
        #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
        #expect(try Base64URL.decode("-_-_") == [0xFB, 0xFF, 0xBF])
        #expect(try Base64URL.decode("Zg==") == Array("f".utf8))
        expectError(.invalidEncoding, at: 2) { _ = try Base64URL.decode("Zm+v") }
        expectError(.invalidEncoding, at: 2) { _ = try Base64URL.decode("Zm v") }
        expectError(.invalidEncoding, at: 3) { _ = try Base64URL.decode("Zg=g") }
        expectError(.invalidEncoding, at: 1) { _ = try Base64URL.decode("Z") }
    }
}
