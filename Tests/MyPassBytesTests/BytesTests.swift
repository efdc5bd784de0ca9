import MyPassBytes
import MyPassTestSupport
import Testing

@Suite struct BytesTests {
    @Test func base64RoundTripsAndKnownAnswers() throws {
        // RFC 4648 §10 test vectors.
        let cases: [(String, String)] = [
            ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
        ]
        for (plain, encoded) in cases {
            #expect(Base64.encode(Array(plain.utf8)) == encoded)
            #expect(try Base64.decode(encoded) == Array(plain.utf8))
        }
        #expect(try Base64.decode("Zm9v\r\n YmE") == Array("fooba".utf8))
        #expect(throws: BytesError(.invalidEncoding, offset: 0)) { try Base64.decode("Zm9v!") }
        #expect(throws: BytesError(.invalidEncoding, offset: 0)) { try Base64.decode("Z") }
        #expect(throws: BytesError(.invalidEncoding, offset: 0)) { try Base64.decode("Zg==Zg") }
    }

    @Test func hexRoundTrip() {
        #expect([UInt8](hex: "00ff7Fa0") == [0x00, 0xFF, 0x7F, 0xA0])
        #expect([UInt8](hex: "abc") == nil)
        #expect([UInt8](hex: "zz") == nil)
        #expect([0xDE, 0xAD, 0xBE, 0xEF].hexString == "deadbeef")
    }

    /// Well-formed and ill-formed UTF-8 (Unicode 15 Table 3-7 and §3.9 D92), as arrays and as
    /// slices that do not start at index 0.
    @Test func validatingUTF8AcceptsWellFormedAndRejectsIllFormed() {
        let valid: [([UInt8], String)] = [
            ([], ""), (Array("KeePass".utf8), "KeePass"),
            ([0xC3, 0xA9], "\u{E9}"), ([0xE2, 0x82, 0xAC], "\u{20AC}"), ([0xF0, 0x9F, 0x94, 0x91], "\u{1F511}"),
            ([0xEF, 0xBF, 0xBD], "\u{FFFD}"), ([0xEF, 0xBB, 0xBF, 0x41], "\u{FEFF}A"), ([0xF4, 0x8F, 0xBF, 0xBF], "\u{10FFFF}"),
            ([0x00], "\u{0}"),
        ]
        for (bytes, text) in valid {
            #expect(String(validatingUTF8Bytes: bytes) == text)
            #expect(String(validatingUTF8Bytes: offsetSlice(bytes)) == text)
        }
        let invalid: [[UInt8]] = [
            [0x80], [0xBF], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x94],  // lone continuation, truncated
            [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xF0, 0x80, 0x80, 0xAF],  // overlong
            [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],  // surrogates
            [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0xFE],  // above U+10FFFF, never used
            [0x41, 0xC3, 0x28], [0x41, 0x42, 0xE2, 0x82],  // ill-formed after valid text
        ]
        for bytes in invalid {
            #expect(String(validatingUTF8Bytes: bytes) == nil, "\(bytes)")
            #expect(String(validatingUTF8Bytes: offsetSlice(bytes)) == nil, "\(bytes)")
        }
    }

    @Test func readerReadsLittleEndianAndRejectsTruncation() throws {
        var reader = ByteReader(offsetSlice([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07]))
        #expect(try reader.readUInt16LittleEndian() == 0x0201)
        #expect(try reader.readUInt32LittleEndian() == 0x0605_0403)
        #expect(reader.offset == 6)
        #expect(throws: BytesError(.truncated, offset: 6)) { try reader.readUInt16LittleEndian() }
        #expect(try reader.readBytes(1) == [0x07])
        #expect(reader.isAtEnd)
        #expect(throws: BytesError(.invalidLength, offset: 0)) { try reader.readBytes(-1) }
    }

    @Test func secureBytesCopyOnWriteAndConstantTimeEquality() {
        var a = SecureBytes([1, 2, 3])
        let b = a
        a[0] = 9
        #expect(b.unsafeArray == [1, 2, 3])
        #expect(a.unsafeArray == [9, 2, 3])
        #expect(a != b)
        #expect(SecureBytes([1, 2, 3]) == b)
        #expect("\(a)" == "SecureBytes(3 bytes)")
        a.removeAll()
        #expect(a.isEmpty)
        #expect(constantTimeEquals([1, 2], [1, 2]))
        #expect(!constantTimeEquals([1, 2], [1, 3]))
        #expect(!constantTimeEquals([1, 2], [1, 2, 3]))
    }

    @Test func protectedStringHidesAndReveals() {
        let secret = ProtectedString("pässwörd-🔑")
        #expect(secret.revealed == "pässwörd-🔑")
        #expect(secret.utf8Count == "pässwörd-🔑".utf8.count)
        #expect(!"\(secret)".contains("p"))
        #expect(secret == ProtectedString("pässwörd-🔑"))
        #expect(secret != ProtectedString("password"))
        #expect(ProtectedString().revealed == "")
    }

    @Test func protectedStringTakesItsPadFromTheGivenSource() {
        struct CountingPads: PadSource {
            var requests: [Int] = []
            var next: UInt8 = 1
            mutating func fill(_ buffer: UnsafeMutableRawBufferPointer) {
                requests.append(buffer.count)
                for i in 0..<buffer.count {
                    buffer[i] = next
                    next &+= 37
                }
            }
        }
        var pads = CountingPads()
        let bytes = Array("pässwörd".utf8)
        let a = bytes.withUnsafeBytes { ProtectedString(utf8: $0, pads: &pads) }
        let b = ProtectedString(secureUTF8: SecureBytes(bytes), pads: &pads)
        let empty = [UInt8]().withUnsafeBytes { ProtectedString(utf8: $0, pads: &pads) }
        #expect(pads.requests == [bytes.count, bytes.count])  // one pad per value, none for an empty one
        #expect(a.revealed == "pässwörd" && a.utf8Count == bytes.count)
        #expect(a == b && a == ProtectedString("pässwörd") && a != ProtectedString("pässwört"))
        #expect(empty.isEmpty && empty == ProtectedString())
        var system = SystemPadSource()
        #expect(ProtectedString(secureUTF8: SecureBytes(bytes), pads: &system).revealed == "pässwörd")
    }

    @Test func secureRandomFillsAndDiffers() {
        let a = SecureRandom.bytes(count: 32), b = SecureRandom.bytes(count: 32)
        #expect(a.count == 32 && a != b)
        #expect(SecureRandom.uniform(below: 1) == 0)
    }
}
