import MyPassBytes
import MyPassKDBX

/// KeePassXC's CSV layout (`keepassxc-cli export -f csv`, Database > Export > CSV): a header, then
/// one record per entry, group by group in pre-order (the recycle bin included), every field quoted:
/// `Group, Title, Username, Password, URL, Notes, TOTP, Icon, Last Modified, Created`.
///
/// `Group` is the slash-separated path from the root (the root's name first); `TOTP` the
/// entry's `otpauth://` URI as KeePassXC writes it; `Icon` the standard icon number; times ISO 8601
/// UTC. Custom fields, attachments, tags and history are not in the layout.
public enum KeePassXCCSV {
    /// The header names, in order.
    public static let columns = ["Group", "Title", "Username", "Password", "URL", "Notes", "TOTP", "Icon", "Last Modified", "Created"]

    /// The vault in KeePassXC's layout (UTF-8 text, LF line ends). It holds every password in clear.
    public static func export(_ vault: Vault) -> String {
        var text = CSVTable.line(columns)
        func visit(_ group: Group, path: [String]) {
            let groupPath = (path + [group.name]).joined(separator: "/")
            for entry in group.entries {
                text += CSVTable.line([
                    groupPath, entry.title, entry.userName, entry.password.revealed, entry.url, entry.notes, totpURI(entry),
                    String(entry.iconID), entry.times.lastModification.iso8601, entry.times.creation.iso8601,
                ])
            }
            for child in group.groups { visit(child, path: path + [group.name]) }
        }
        visit(vault.root, path: [])
        return text
    }

    /// The TOTP column (KeePassXC's reading: the `otp` or legacy `TOTP Seed` fields, not KeePass
    /// 2's `TimeOtp-*`, which KeePassXC leaves out too): KeePassXC's `otpauth://totp/TITLE:USER?secret=…&period=…&digits=…&issuer=TITLE`
    /// (title and user name percent-encoded, `&algorithm=` when not SHA-1, `encoder=steam` for
    /// Steam), or the entry's `otp` field as stored when its OTP cannot be read; empty without OTP.
    static func totpURI(_ entry: Entry) -> String {
        guard entry.hasOTP else { return "" }
        guard let parameters = try? entry.otpParameters() else { return entry.value(of: OTPFieldNames.otp) }
        // KeePassXC reads its own `otp` and legacy `TOTP Seed` fields only, not KeePass's TimeOtp-*.
        switch parameters.storage {
        case .otpauthURI, .keePassXCLegacy: break
        default: return entry.value(of: OTPFieldNames.otp)
        }
        guard case .totp(let period) = parameters.kind else { return entry.value(of: OTPFieldNames.otp) }
        let title = percentEncoded(entry.title), user = percentEncoded(entry.userName)
        var uri = "otpauth://totp/\(title):\(user)?secret=\(Base32.encode(parameters.secret.unsafeArray))&period=\(period)"
        switch parameters.encoding {
        case .decimal(let digits): uri += "&digits=\(digits)"
        case .steam: uri += "&digits=5&encoder=steam"
        }
        uri += "&issuer=\(title)"
        if parameters.algorithm != .sha1 { uri += "&algorithm=\(parameters.algorithm.rawValue)" }
        return uri
    }

    /// Percent-encoding as Qt's `QUrl::toPercentEncoding` does by default: all but `A-Z a-z 0-9 - . _ ~`.
    static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(digits[Int(byte >> 4)])
                out.unicodeScalars.append(digits[Int(byte & 15)])
            }
        }
        return out
    }

    /// Reads KeePassXC's CSV into a tree: a root whose groups follow the `Group` column below the
    /// exporting vault's root (the first path component, which KeePassXC always writes, is dropped).
    /// Passwords and TOTP URIs (in an `otp` field) are protected; an empty or unreadable `Icon` is 0;
    /// unreadable times are `now`.
    ///
    /// - Parameters:
    ///   - text: the CSV file.
    ///   - now: the time for new groups and for missing times.
    /// - Returns: the tree (the root's name is empty; the caller names it).
    /// - Throws: ``CoreError`` `.invalidImport` with the line: a header other than KeePassXC's
    ///   (wrong, missing or duplicate column names), a record with another number of fields,
    ///   malformed CSV.
    public static func read(_ text: String, now: KDBXTime) throws(CoreError) -> Group {
        let table = try CSVTable(parsing: text)
        guard let header = table.records.first else {
            throw CoreError(.invalidImport, "the file is empty; KeePassXC's CSV starts with the header " + columns.joined(separator: ","),
                            location: "line 1")
        }
        let names = header.fields.map { $0.trimmingWhitespace }
        if let duplicate = names.enumerated().first(where: { index, name in names[..<index].contains(name) })?.element {
            throw CoreError(.invalidImport, "the column '\(duplicate)' appears twice in the header", location: "line \(header.line)")
        }
        guard names == columns else {
            throw CoreError(.invalidImport, "the header is not KeePassXC's: expected " + columns.joined(separator: ",")
                                + "; found " + names.joined(separator: ","), location: "line \(header.line)")
        }
        var builder = ImportTreeBuilder(now: now)
        for record in table.records.dropFirst() {
            guard record.fields.count == columns.count else {
                throw CoreError(.invalidImport, "\(record.fields.count) fields, expected \(columns.count)", location: "line \(record.line)")
            }
            let f = record.fields
            var entry = ImportTreeBuilder.newEntry(now: now)
            entry.setValue(f[1], for: Entry.StandardField.title)
            entry.setValue(f[2], for: Entry.StandardField.userName)
            entry.setValue(f[3], for: Entry.StandardField.password, isProtected: true)
            entry.setValue(f[4], for: Entry.StandardField.url)
            entry.setValue(f[5], for: Entry.StandardField.notes)
            if !f[6].isEmpty { entry.setValue(f[6], for: OTPFieldNames.otp, isProtected: true) }
            if let icon = Int(f[7]), (0...68).contains(icon) { entry.iconID = icon }
            let modified = KDBXTime(iso8601: f[8]) ?? now
            let created = KDBXTime(iso8601: f[9]) ?? modified
            entry.times = Times(all: modified)
            entry.times.creation = created
            var path = f[0].split(separator: "/", omittingEmptySubsequences: true).map(String.init)
            if !path.isEmpty { path.removeFirst() }
            builder.add(entry, at: path)
        }
        return builder.root
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingWhitespace: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
