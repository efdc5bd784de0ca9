extension VaultImport {
    /// How ``VaultImport/detectFormat(fileName:bytes:)`` chose a format.
    public struct Detection: Sendable, Equatable {
        /// The format chosen.
        public var format: Format
        /// Whether the file name's extension (`.xml`, `.csv`, `.json`) names that format.
        public var byExtension: Bool
        /// Whether the file's first bytes look like that format.
        public var byContent: Bool
        /// The format the extension names when the content says another (the content wins).
        public var contradictedExtension: Format?
    }

    /// The format of an export, from its file name's extension and a look at its first bytes
    /// (after a UTF-8 byte order mark and white space): `<` followed by `<?xml` or
    /// `<KeePassFile` within the first 4 KiB is KeePass XML, `{` Bitwarden JSON (its object), a first
    /// line that is KeePassXC's CSV header (``KeePassXCCSV/columns``, quoted or not) KeePassXC CSV.
    /// What the content says wins over the extension; the extension decides when the content says
    /// nothing (an empty file).
    ///
    /// - Parameters:
    ///   - fileName: the file's name (`export.json`), or nil for standard input.
    ///   - bytes: the file, or its start.
    /// - Returns: the format and how it was found, or nil when neither says anything.
    public static func detectFormat(fileName: String?, bytes: [UInt8]) -> Detection? {
        let byExtension = fileName.flatMap(formatOfExtension)
        guard let byContent = formatOfContent(bytes) else {
            return byExtension.map { Detection(format: $0, byExtension: true, byContent: false) }
        }
        return Detection(format: byContent, byExtension: byExtension == byContent, byContent: true,
                         contradictedExtension: byExtension == byContent ? nil : byExtension)
    }

    /// The format a file name's extension names (any case), or nil.
    static func formatOfExtension(_ fileName: String) -> Format? {
        guard let dot = fileName.lastIndex(of: "."), !fileName[dot...].contains("/") else { return nil }
        switch fileName[fileName.index(after: dot)...].lowercased() {
        case "xml": return .keePassXML
        case "csv": return .keePassXCCSV
        case "json": return .bitwardenJSON
        default: return nil
        }
    }

    /// The format the first bytes show, or nil.
    static func formatOfContent(_ bytes: [UInt8]) -> Format? {
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        guard start < bytes.count else { return nil }
        let head = String(decoding: bytes[start..<min(bytes.count, start + 4096)], as: UTF8.self)
        switch bytes[start] {
        case UInt8(ascii: "<"):
            return head.hasPrefix("<?xml") || contains(head, "<KeePassFile") ? .keePassXML : nil
        case UInt8(ascii: "{"):
            return .bitwardenJSON
        default:
            let firstLine = head.prefix { $0 != "\n" && $0 != "\r\n" && $0 != "\r" }
            let names = firstLine.split(separator: ",", omittingEmptySubsequences: false).map { part -> String in
                var name = part
                if name.hasPrefix("\"") { name = name.dropFirst() }
                if name.hasSuffix("\"") { name = name.dropLast() }
                return String(name)
            }
            return names == KeePassXCCSV.columns ? .keePassXCCSV : nil
        }
    }

    /// Whether `text` holds `part` (Characters compared as `String.contains` does; that one comes
    /// from `_StringProcessing`, which Embedded Swift does not have).
    static func contains(_ text: String, _ part: String) -> Bool {
        var rest = Substring(text)
        while !rest.isEmpty {
            if rest.hasPrefix(part) { return true }
            rest = rest.dropFirst()
        }
        return part.isEmpty
    }

    /// A format's name for people (`Bitwarden JSON`).
    public static func describe(_ format: Format) -> String {
        switch format {
        case .keePassXML: return "KeePass XML"
        case .keePassXCCSV: return "KeePassXC CSV"
        case .bitwardenJSON: return "Bitwarden JSON"
        }
    }
}
