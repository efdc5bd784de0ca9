import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX

/// The changes `add` and `edit` make to an entry, read and checked from the command line before
/// the vault is opened (so that a usage mistake costs no password prompt and no KDF).
struct EntryChanges {
    /// What the options set directly (the password comes later, from the prompt or the generator).
    var patch = EntryPatch()
    var readsPassword = false
    var generator: GeneratorOptions?
    /// Protected fields whose values are read like passwords (`--protected-field-prompt NAME`).
    var promptedFields: [String] = []

    /// True when nothing would change.
    var isEmpty: Bool { patch.isEmpty && !readsPassword && generator == nil && promptedFields.isEmpty }

    /// Reads the edit options of `parsed`.
    ///
    /// - Throws: usage errors (exit 2) for malformed values, exit 1 for unreadable `--attach` files.
    init(_ parsed: ParsedArguments) throws {
        patch.title = parsed.value("title")
        if patch.title?.isEmpty == true { throw parsed.usageError("--title cannot be empty") }
        patch.userName = parsed.value("username")
        patch.url = parsed.value("url")
        patch.notes = parsed.value("notes")
        if parsed.values["tag"] != nil {
            patch.tags = parsed.values("tag").flatMap { Entry.parseTags($0) }
        }
        if let text = parsed.value("expires") {
            patch.expiry = .some(try EntryChanges.parseExpiry(text, parsed))
        }
        for item in parsed.values("field") {
            let (name, value) = try EntryChanges.split(item, option: "field", parsed)
            patch.fields.append(EntryPatch.FieldChange(name: name, value: value))
        }
        for item in parsed.values("protected-field") {
            let (name, value) = try EntryChanges.split(item, option: "protected-field", parsed)
            patch.protectedFields.append(EntryPatch.ProtectedFieldChange(name: name, value: ProtectedString(value)))
        }
        for name in parsed.values("protected-field-prompt") {
            if name.isEmpty { throw parsed.usageError("--protected-field-prompt needs a field name") }
            promptedFields.append(name)
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
            patch.attachments.append(Attachment(name: URL(fileURLWithPath: path).lastPathComponent, data: data))
        }
    }

    /// The whole patch: the options, the new password when one was prompted or is generated, and
    /// the `--protected-field-prompt` values, read now (after the master and entry passwords),
    /// one line each, asked twice on a terminal.
    func patch(prompted: ProtectedString?) throws -> EntryPatch {
        var patch = self.patch
        for name in promptedFields {
            let value = try SecretReader.readNewSecret(prompt: "Value of \(name): ", what: "value of protected field '\(name)'")
            patch.protectedFields.append(EntryPatch.ProtectedFieldChange(name: name, value: value))
        }
        if let prompted {
            patch.password = prompted
        } else if let generator {
            patch.password = try generator.generate()
        }
        return patch
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

