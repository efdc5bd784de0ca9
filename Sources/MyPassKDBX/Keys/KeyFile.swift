import MyPassBytes
import MyPassCrypto
import MyPassXML

/// KeePass key files: how a file becomes a 32-byte key component (KeePassLib
/// `Keys/KcpKeyFile.cs LoadKeyFile`, `KcpKeyFile.Xml.cs`), tried in this order:
///
/// 1. XML `<KeyFile><Meta><Version>` `1.0`/`1.00` with base64 `<Key><Data>`, or `2.0` with hex
///    `<Data Hash="…">` (white space allowed; Hash = first 4 bytes of SHA-256 of the key, checked).
///    A file whose root element is `KeyFile` is committed to this form: any defect is an error.
/// 2. Exactly 32 bytes: used as they are.
/// 3. Exactly 64 hex characters: decoded.
/// 4. Anything else: SHA-256 of the whole file.
public enum KeyFile {
    /// The form a key file was read in.
    public enum Form: Sendable, Equatable {
        case xmlVersion1, xmlVersion2, raw32, hex64, hashed
    }

    /// The 32-byte key component of a key file.
    /// - Throws: ``KDBXError`` `.invalidKeyFile` for an empty file or a defective XML key file.
    public static func key(from contents: [UInt8]) throws(KDBXError) -> SecureBytes {
        try read(contents).key
    }

    /// The 32-byte key component of a key file and the form it was read in.
    ///
    /// No `String` ever holds key material: the key data of an XML key file is decoded from the
    /// bytes (the XML structure is checked on a copy with the key data blanked), hex is decoded
    /// from the bytes, and every scratch copy is zeroed. `contents` stays the caller's to wipe.
    /// - Throws: ``KDBXError`` `.invalidKeyFile` for an empty file or a defective XML key file.
    public static func read(_ contents: [UInt8]) throws(KDBXError) -> (key: SecureBytes, form: Form) {
        guard !contents.isEmpty else { throw KDBXError(.invalidKeyFile, "the key file is empty") }
        if let xml = try XMLKeyFile(contents) {
            return (xml.key, xml.form)
        }
        if contents.count == 32 { return (SecureBytes(contents), .raw32) }
        if contents.count == 64, var decoded = decodeHex(contents[...]) {
            defer { wipe(&decoded) }
            return (SecureBytes(decoded), .hex64)
        }
        var digest = SHA256.hash(contents)
        defer { wipe(&digest) }
        return (SecureBytes(digest), .hashed)
    }

    /// Reads the key file and zeroes `contents` afterwards, whatever the outcome (see ``read(_:)``).
    /// - Throws: as ``read(_:)``.
    public static func read(wiping contents: inout [UInt8]) throws(KDBXError) -> (key: SecureBytes, form: Form) {
        defer { wipe(&contents) }
        return try read(contents)
    }

    /// Hex digits (either case) decoded pairwise, ASCII white space skipped; `nil` for any other
    /// byte or an odd number of digits. The caller wipes the result.
    static func decodeHex(_ text: ArraySlice<UInt8>, skippingWhitespace: Bool = false) -> [UInt8]? {
        var out = [UInt8]()
        out.reserveCapacity(text.count / 2)
        var high: UInt8?
        for byte in text {
            if skippingWhitespace && (byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D) { continue }
            guard let value = hexValue(byte) else {
                wipe(&out)
                return nil
            }
            if let h = high {
                out.append(h << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        guard high == nil else {
            wipe(&out)
            return nil
        }
        return out
    }

    /// Creates a KeePass XML 2.0 key file (`.keyx`) for a 32-byte key, as KeePass 2.47+ writes it.
    /// The file is built as bytes (no `String` holds the key); the caller wipes it when done.
    public static func xmlVersion2(key: SecureBytes) -> [UInt8] {
        var keyBytes = key.unsafeArray
        defer { wipe(&keyBytes) }
        let hash = SHA256.hash(keyBytes).prefix(4)
        let digits = Array("0123456789ABCDEF".utf8)
        var out = Array("<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n<KeyFile>\r\n\t<Meta>\r\n\t\t<Version>2.0</Version>\r\n".utf8)
        out.append(contentsOf: Array("\t</Meta>\r\n\t<Key>\r\n\t\t<Data Hash=\"".utf8))
        out.append(contentsOf: Array(hash.hexString.uppercased().utf8))
        out.append(contentsOf: Array("\">\r\n".utf8))
        // Reserved up front so that no growth leaves a copy of the key digits behind.
        out.reserveCapacity(out.count + keyBytes.count * 3 + 64)
        for (index, byte) in keyBytes.enumerated() {
            if index % 16 == 0 { out.append(contentsOf: [0x09, 0x09, 0x09]) }
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
            if index % 16 == 15 || index == keyBytes.count - 1 {
                out.append(contentsOf: [0x0D, 0x0A])
            } else if index % 4 == 3 {
                out.append(0x20)
            }
        }
        out.append(contentsOf: Array("\t\t</Data>\r\n\t</Key>\r\n</KeyFile>".utf8))
        return out
    }
}

/// The XML forms of a key file.
struct XMLKeyFile {
    var key: SecureBytes
    var form: KeyFile.Form

    /// `nil` when the contents are not an XML document with a `KeyFile` root (then the other forms apply).
    ///
    /// The tokenizer checks the structure on a copy in which the text of every `Data` element is
    /// blanked (its bytes replaced by `0`), so the key never becomes a `String`; the key data is
    /// then decoded straight from `contents` at the blanked range the tokenizer confirmed.
    init?(_ contents: [UInt8]) throws(KDBXError) {
        var bytes = contents[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        // Cheap test first: an XML key file starts (after white space) with '<'.
        guard let first = bytes.first(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }),
              first == UInt8(ascii: "<") else { return nil }
        var blanked = Array(bytes)
        defer { wipe(&blanked) }
        let dataRanges = Self.blankDataText(&blanked)
        var tokenizer = XMLTokenizer(limits: XMLLimits(maxDepth: 16), skipsWhitespaceText: true)
        tokenizer.feed(blanked)
        tokenizer.finish()
        var path: [String] = []
        var version: String?
        var dataRange: Range<Int>?
        var sawData = false
        var hashAttribute: String?
        var rootSeen = false
        // Thrown after the tokenizer's scope, which throws XMLError only (one error type per scope
        // keeps the codec compiling in Embedded Swift).
        var dataInCDATA = false
        do throws(XMLError) {
            events: while let event = try tokenizer.next() {
                switch event {
                case .startElement(let name, let attributes):
                    if path.isEmpty {
                        guard name == "KeyFile" else { return nil }
                        rootSeen = true
                    }
                    path.append(name)
                    if path == ["KeyFile", "Key", "Data"] {
                        hashAttribute = attributes.first(where: { $0.name == "Hash" })?.value
                        sawData = true
                        // The blanked text run that follows this start tag, if any.
                        let tagLine = tokenizer.line, tagColumn = tokenizer.column
                        dataRange = dataRanges.first { $0.line == tagLine && $0.column == tagColumn }?.range
                    }
                case .endElement:
                    path.removeLast()
                case .text(let text), .cdata(let text):
                    if path == ["KeyFile", "Meta", "Version"] { version = (version ?? "") + text }
                    if path == ["KeyFile", "Key", "Data"], case .cdata = event {
                        dataInCDATA = true
                        break events
                    }
                default:
                    break
                }
            }
        } catch {
            if rootSeen { throw KDBXError(.invalidKeyFile, "the XML key file is malformed") }
            return nil
        }
        if dataInCDATA { throw KDBXError(.invalidKeyFile, "the key file data is in a CDATA section") }
        guard rootSeen else { return nil }
        guard let version, sawData else {
            throw KDBXError(.invalidKeyFile, "the XML key file has no version or no key data")
        }
        let offset = bytes.startIndex
        let dataText = dataRange.map { contents[(offset + $0.lowerBound)..<(offset + $0.upperBound)] } ?? []
        let trimmed = version.filter { !$0.isWhitespace }
        if trimmed == "1.0" || trimmed == "1.00" {
            var text = Array(dataText)
            defer { wipe(&text) }
            guard var decoded = try? Base64.decode(utf8: text), !decoded.isEmpty else {
                throw KDBXError(.invalidKeyFile, "the XML 1.0 key file data is not base64")
            }
            defer { wipe(&decoded) }
            key = Self.component(decoded)
            form = .xmlVersion1
        } else if trimmed == "2.0" {
            guard var decoded = KeyFile.decodeHex(dataText, skippingWhitespace: true), !decoded.isEmpty else {
                throw KDBXError(.invalidKeyFile, "the XML 2.0 key file data is not hex")
            }
            defer { wipe(&decoded) }
            guard let hashAttribute, let expected = [UInt8](hex: hashAttribute.filter { !$0.isWhitespace }),
                  expected.count == 4 else {
                throw KDBXError(.invalidKeyFile, "the XML 2.0 key file has no valid Hash attribute")
            }
            var digest = SHA256.hash(decoded)
            defer { wipe(&digest) }
            guard constantTimeEquals(digest.prefix(4), expected) else {
                throw KDBXError(.invalidKeyFile, "the XML 2.0 key file hash does not match its data")
            }
            key = Self.component(decoded)
            form = .xmlVersion2
        } else {
            throw KDBXError(.invalidKeyFile, "unsupported XML key file version")
        }
    }

    /// Replaces the text after every `<Data …>` start tag, up to the next `<`, with `0` bytes (white
    /// space kept), and returns each blanked range with the line and column of its start tag (as
    /// the tokenizer reports them, 1-based, columns in bytes).
    static func blankDataText(_ bytes: inout [UInt8]) -> [(line: Int, column: Int, range: Range<Int>)] {
        var found: [(line: Int, column: Int, range: Range<Int>)] = []
        var line = 1, lineStart = 0
        var i = 0
        let name = Array("<Data".utf8)
        while i < bytes.count {
            let byte = bytes[i]
            if byte == 0x0A {
                line += 1
                lineStart = i + 1
                i += 1
                continue
            }
            guard byte == UInt8(ascii: "<"), i + name.count < bytes.count, bytes[i..<(i + name.count)].elementsEqual(name) else {
                i += 1
                continue
            }
            let after = bytes[i + name.count]
            guard after == UInt8(ascii: ">") || after == 0x20 || after == 0x09 || after == 0x0A || after == 0x0D else {
                i += 1
                continue
            }
            let tagLine = line, tagColumn = i - lineStart + 1
            // The end of the start tag, outside quoted attribute values.
            var j = i + name.count
            var quote: UInt8 = 0
            while j < bytes.count {
                let c = bytes[j]
                if c == 0x0A { line += 1; lineStart = j + 1 }
                if quote != 0 {
                    if c == quote { quote = 0 }
                } else if c == 0x22 || c == 0x27 {
                    quote = c
                } else if c == UInt8(ascii: ">") {
                    break
                }
                j += 1
            }
            guard j < bytes.count, bytes[j - 1] != UInt8(ascii: "/") else {
                i = j
                continue
            }
            let textStart = j + 1
            var k = textStart
            while k < bytes.count && bytes[k] != UInt8(ascii: "<") {
                let c = bytes[k]
                if c == 0x0A {
                    line += 1
                    lineStart = k + 1
                } else if !(c == 0x20 || c == 0x09 || c == 0x0D) {
                    bytes[k] = UInt8(ascii: "0")
                }
                k += 1
            }
            found.append((tagLine, tagColumn, textStart..<k))
            i = k
        }
        return found
    }

    /// Key data of 32 bytes is used as it is; any other length is hashed to 32 bytes.
    static func component(_ data: [UInt8]) -> SecureBytes {
        if data.count == 32 { return SecureBytes(data) }
        var digest = SHA256.hash(data)
        defer { wipe(&digest) }
        return SecureBytes(digest)
    }
}
