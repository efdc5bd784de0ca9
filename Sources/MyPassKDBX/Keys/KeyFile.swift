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
    /// - Throws: ``KDBXError`` `.invalidKeyFile` for an empty file or a defective XML key file.
    public static func read(_ contents: [UInt8]) throws(KDBXError) -> (key: SecureBytes, form: Form) {
        guard !contents.isEmpty else { throw KDBXError(.invalidKeyFile, "the key file is empty") }
        if let xml = try XMLKeyFile(contents) {
            return (xml.key, xml.form)
        }
        if contents.count == 32 { return (SecureBytes(contents), .raw32) }
        if contents.count == 64, var decoded = [UInt8](hex: String(decoding: contents, as: UTF8.self)) {
            defer { wipe(&decoded) }
            return (SecureBytes(decoded), .hex64)
        }
        var digest = SHA256.hash(contents)
        defer { wipe(&digest) }
        return (SecureBytes(digest), .hashed)
    }

    /// Creates a KeePass XML 2.0 key file (`.keyx`) for a 32-byte key, as KeePass 2.47+ writes it.
    public static func xmlVersion2(key: SecureBytes) -> [UInt8] {
        let keyBytes = key.unsafeArray
        let hash = SHA256.hash(keyBytes).prefix(4)
        var hex = keyBytes.hexString.uppercased()
        var lines: [String] = []
        var groups: [String] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let end = hex.index(index, offsetBy: 8)
            groups.append(String(hex[index..<end]))
            index = end
            if groups.count == 4 { lines.append(groups.joined(separator: " ")); groups = [] }
        }
        hex = ""
        let text = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n<KeyFile>\r\n\t<Meta>\r\n\t\t<Version>2.0</Version>\r\n"
            + "\t</Meta>\r\n\t<Key>\r\n\t\t<Data Hash=\"" + hash.hexString.uppercased() + "\">\r\n"
            + lines.map { "\t\t\t" + $0 + "\r\n" }.joined() + "\t\t</Data>\r\n\t</Key>\r\n</KeyFile>"
        return Array(text.utf8)
    }
}

/// The XML forms of a key file.
struct XMLKeyFile {
    var key: SecureBytes
    var form: KeyFile.Form

    /// `nil` when the contents are not an XML document with a `KeyFile` root (then the other forms apply).
    init?(_ contents: [UInt8]) throws(KDBXError) {
        var bytes = contents[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        // Cheap test first: an XML key file starts (after white space) with '<'.
        guard let first = bytes.first(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }),
              first == UInt8(ascii: "<") else { return nil }
        var tokenizer = XMLTokenizer(limits: XMLLimits(maxDepth: 16), skipsWhitespaceText: true)
        tokenizer.feed(bytes)
        tokenizer.finish()
        var path: [String] = []
        var version: String?
        var dataText: String?
        var hashAttribute: String?
        var rootSeen = false
        do {
            while let event = try tokenizer.next() {
                switch event {
                case .startElement(let name, let attributes):
                    if path.isEmpty {
                        guard name == "KeyFile" else { return nil }
                        rootSeen = true
                    }
                    path.append(name)
                    if path == ["KeyFile", "Key", "Data"] {
                        hashAttribute = attributes.first(where: { $0.name == "Hash" })?.value
                        dataText = dataText ?? ""
                    }
                case .endElement:
                    path.removeLast()
                case .text(let text), .cdata(let text):
                    if path == ["KeyFile", "Meta", "Version"] { version = (version ?? "") + text }
                    if path == ["KeyFile", "Key", "Data"] { dataText = (dataText ?? "") + text }
                default:
                    break
                }
            }
        } catch {
            if rootSeen { throw KDBXError(.invalidKeyFile, "the XML key file is malformed") }
            return nil
        }
        guard rootSeen else { return nil }
        guard let version, var dataText else {
            throw KDBXError(.invalidKeyFile, "the XML key file has no version or no key data")
        }
        defer { dataText = "" }
        let trimmed = version.filter { !$0.isWhitespace }
        if trimmed == "1.0" || trimmed == "1.00" {
            guard var decoded = try? Base64.decode(dataText), !decoded.isEmpty else {
                throw KDBXError(.invalidKeyFile, "the XML 1.0 key file data is not base64")
            }
            defer { wipe(&decoded) }
            key = Self.component(decoded)
            form = .xmlVersion1
        } else if trimmed == "2.0" {
            let hexText = dataText.filter { !$0.isWhitespace }
            guard var decoded = [UInt8](hex: hexText), !decoded.isEmpty else {
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

    /// Key data of 32 bytes is used as it is; any other length is hashed to 32 bytes.
    static func component(_ data: [UInt8]) -> SecureBytes {
        if data.count == 32 { return SecureBytes(data) }
        var digest = SHA256.hash(data)
        defer { wipe(&digest) }
        return SecureBytes(digest)
    }
}
