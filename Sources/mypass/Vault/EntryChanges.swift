import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX

/// The changes `add` and `edit` make to an entry, read and checked from the command line before
/// the vault is opened (so that a usage mistake costs no password prompt and no KDF).
struct EntryChanges {
    var title: String?
    var userName: String?
    var url: String?
    var notes: String?
    var tags: [String]?
    /// `.some(nil)`: never expires; `.some(time)`: expires then.
    var expiry: KDBXTime??
    var fields: [(name: String, value: String)] = []
    var protectedFields: [(name: String, value: ProtectedString)] = []
    var readsPassword = false
    var generator: GeneratorOptions?
    var attachments: [Attachment] = []

    /// True when nothing would change.
    var isEmpty: Bool {
        title == nil && userName == nil && url == nil && notes == nil && tags == nil && expiry == nil
            && fields.isEmpty && protectedFields.isEmpty && !readsPassword && generator == nil && attachments.isEmpty
    }

    /// Reads the edit options of `parsed`.
    ///
    /// - Throws: usage errors (exit 2) for malformed values, exit 1 for unreadable `--attach` files.
    init(_ parsed: ParsedArguments) throws {
        title = parsed.value("title")
        if title?.isEmpty == true { throw parsed.usageError("--title cannot be empty") }
        userName = parsed.value("username")
        url = parsed.value("url")
        notes = parsed.value("notes")
        if parsed.values["tag"] != nil {
            tags = parsed.values("tag").flatMap { Entry.parseTags($0) }
        }
        if let text = parsed.value("expires") {
            expiry = .some(try EntryChanges.parseExpiry(text, parsed))
        }
        for item in parsed.values("field") {
            let (name, value) = try EntryChanges.split(item, option: "field", parsed)
            fields.append((name, value))
        }
        for item in parsed.values("protected-field") {
            let (name, value) = try EntryChanges.split(item, option: "protected-field", parsed)
            protectedFields.append((name, ProtectedString(value)))
        }
        readsPassword = parsed.flag("password-prompt")
        if parsed.flag("generate") {
            if readsPassword { throw parsed.usageError("--password-prompt and --generate cannot be used together") }
            generator = try GeneratorOptions(parsed)
        } else if GeneratorOptions.isGiven(parsed) {
            throw parsed.usageError("--length and the character-class flags need --generate")
        }
        for path in parsed.values("attach") {
            let data = try VaultContext.readFile(path, what: "attachment")
            attachments.append(Attachment(name: URL(fileURLWithPath: path).lastPathComponent, data: data))
        }
    }

    /// The entry's new password, if the changes set one: the prompted one, or a generated one.
    func newPassword(prompted: ProtectedString?) throws -> ProtectedString? {
        if let prompted { return prompted }
        return try generator?.generate()
    }

    /// Applies the changes to `entry`; `password` comes from ``newPassword(prompted:)``.
    /// `protects` tells whether a new standard field is protected (the vault's memory protection).
    func apply(to entry: inout Entry, password: ProtectedString?, protects: (String) -> Bool) {
        if let title { entry.title = title }
        if let userName { entry.setValue(userName, for: Entry.StandardField.userName) }
        if let url { entry.url = url }
        if let notes { entry.notes = notes }
        if let tags { entry.setTags(tags) }
        if let expiry { entry.setExpiry(expiry) }
        for (name, value) in fields {
            if value.isEmpty && !Entry.StandardField.all.contains(name) {
                entry.removeField(named: name)
            } else if entry.field(named: name) != nil {
                entry.setValue(value, for: name)
            } else {
                entry.setValue(value, for: name, isProtected: protects(name))
            }
        }
        for (name, value) in protectedFields { entry.setProtectedValue(value, for: name) }
        if let password { entry.password = password }
        for attachment in attachments { entry.setAttachment(attachment) }
    }

    /// `NAME=VALUE` split at the first `=`; the name must not be empty.
    private static func split(_ item: String, option: String, _ parsed: ParsedArguments) throws(CLIError) -> (String, String) {
        guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
            throw parsed.usageError("The value '\(option == "protected-field" ? "(hidden)" : item)' is invalid for '--\(option)': expected NAME=VALUE")
        }
        return (String(item[..<equals]), String(item[item.index(after: equals)...]))
    }

    /// `never`, `YYYY-MM-DD` (midnight UTC) or `YYYY-MM-DDTHH:MM:SSZ`.
    static func parseExpiry(_ text: String, _ parsed: ParsedArguments) throws(CLIError) -> KDBXTime? {
        if text.lowercased() == "never" { return nil }
        let parts = text.split(separator: "-")
        if text.count == 10, parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
           let time = KDBXTime(year: year, month: month, day: day)
        {
            return time
        }
        if let time = KDBXTime(iso8601: text) { return time }
        throw parsed.usageError("The value '\(text)' is invalid for '--expires': expected YYYY-MM-DD, YYYY-MM-DDTHH:MM:SSZ or never")
    }
}

