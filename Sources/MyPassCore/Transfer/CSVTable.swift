/// CSV as RFC 4180 defines it (and KeePassXC writes it): fields separated by commas, records by
/// line breaks (LF or CRLF), a field in double quotes may hold commas, line breaks and `""` for a
/// quote. Every record keeps the line it starts on, for error messages.
public struct CSVTable: Sendable, Equatable {
    /// One record: its fields and the 1-based line of the file it starts on.
    public struct Record: Sendable, Equatable {
        /// The fields, unquoted.
        public var fields: [String]
        /// The line the record starts on (1-based).
        public var line: Int

        /// A record from its parts.
        public init(fields: [String], line: Int) {
            self.fields = fields
            self.line = line
        }
    }

    /// The records in file order (the header, when there is one, is the first).
    public var records: [Record]

    /// Most records read (default 1,000,000) and most fields in one record (default 1,000).
    public static let maxRecords = 1_000_000
    public static let maxFields = 1_000

    /// Parses CSV text (a leading UTF-8 byte order mark is skipped; empty lines are skipped).
    /// - Throws: ``CoreError`` `.invalidImport` naming the line: a quote inside an unquoted field,
    ///   text after a closing quote, a quoted field that never ends, too many records or fields.
    /// - Complexity: linear in the text's length.
    public init(parsing text: String) throws(CoreError) {
        var records: [Record] = []
        var fields: [String] = []
        var field = ""
        var line = 1, recordLine = 1
        var inQuotes = false, quoted = false, afterQuote = false
        var characters = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        if text.unicodeScalars.first == "\u{FEFF}" { _ = characters.next() }
        func endField() throws(CoreError) {
            fields.append(field)
            field = ""
            quoted = false
            afterQuote = false
            guard fields.count <= Self.maxFields else {
                throw CoreError(.invalidImport, "more than \(Self.maxFields) fields in a record", location: "line \(recordLine)")
            }
        }
        func endRecord() throws(CoreError) {
            if !(fields.isEmpty && field.isEmpty && !quoted) {
                try endField()
                records.append(Record(fields: fields, line: recordLine))
                guard records.count <= Self.maxRecords else {
                    throw CoreError(.invalidImport, "more than \(Self.maxRecords) records", location: "line \(recordLine)")
                }
            }
            fields = []
        }
        while let scalar = pending ?? characters.next() {
            pending = nil
            if inQuotes {
                if scalar == "\"" {
                    let next = characters.next()
                    if next == "\"" {
                        field.unicodeScalars.append("\"")
                    } else {
                        inQuotes = false
                        afterQuote = true
                        pending = next
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case ",":
                try endField()
            case "\r":
                let next = characters.next()
                if next != "\n" { pending = next }
                try endRecord()
                line += 1
                recordLine = line
            case "\n":
                try endRecord()
                line += 1
                recordLine = line
            case "\"":
                guard field.isEmpty, !quoted else {
                    throw CoreError(.invalidImport, "a quote inside an unquoted field", location: "line \(line)")
                }
                inQuotes = true
                quoted = true
            default:
                if afterQuote {
                    throw CoreError(.invalidImport, "text after the closing quote of a field", location: "line \(line)")
                }
                field.unicodeScalars.append(scalar)
            }
        }
        if inQuotes {
            throw CoreError(.invalidImport, "a quoted field is not closed before the end of the file", location: "line \(recordLine)")
        }
        try endRecord()
        self.records = records
    }

    /// A field quoted as KeePassXC writes every field: in double quotes, quotes doubled.
    public static func quoted(_ field: String) -> String {
        var text = "\""
        for character in field {
            if character == "\"" { text += "\"\"" } else { text.append(character) }
        }
        return text + "\""
    }

    /// One record as KeePassXC writes it: every field quoted, commas between, a LF at the end.
    public static func line(_ fields: [String]) -> String {
        fields.map(quoted).joined(separator: ",") + "\n"
    }
}
