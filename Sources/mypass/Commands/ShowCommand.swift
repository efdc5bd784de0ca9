import Foundation
import MyPassCore
import MyPassKDBX

/// `mypass show VAULT ENTRY [--reveal] [--field NAME] [--json] [--time UNIX]`.
enum ShowCommand {
    /// What a hidden protected value shows (as keepassxc-cli).
    static let hidden = "PROTECTED"

    static func run(_ parsed: ParsedArguments) throws {
        let (context, _) = try VaultContext.open(parsed)
        let located = try context.vault.resolveEntry(path: parsed.required("entry"))
        let entry = located.entry
        if let name = parsed.value("field") {
            Console.line(try field(name, of: located).value)
            return
        }
        let reveal = parsed.flag("reveal")
        let now = try TOTPCommand.time(parsed)
        // The live code is a secret like the password: shown only when asked for.
        let showsOTP = reveal || parsed.flag("totp")
        let otp: OTPCode?
        do {
            otp = try entry.timeBasedCode(at: now)
        } catch {
            otp = nil
            Console.errLine("Warning: \(error)")
        }
        if parsed.flag("json") {
            Console.line(json(located, reveal: reveal, otp: otp, showsOTP: showsOTP).prettyPrinted)
            return
        }
        let (view, altered) = text(located, reveal: reveal, otp: otp, showsOTP: showsOTP)
        Console.out(view)
        if altered {
            Console.noteLine("Note: control characters in these values are shown as spaces; --field NAME prints a value exactly.")
        }
    }

    /// The fields in display order: the five standard ones as KeePass orders them, then custom ones.
    static func orderedFields(_ entry: Entry) -> [EntryField] {
        let standard = Entry.StandardField.all.compactMap { entry.field(named: $0) }
        return standard + entry.customFields
    }

    /// The field `name` of the entry (exact, else with case ignored: ``Entry/resolveField(named:)``).
    /// - Throws: `CLIError` (exit 1) naming the entry, with suggestions or its fields.
    static func field(_ name: String, of located: LocatedEntry) throws(CLIError) -> EntryField {
        do {
            return try located.entry.resolveField(named: name)
        } catch where error.code == .notFound {
            throw .failure("entry '\(Vault.displayPath(located.path))' has \(error.reason)")
        } catch {
            throw .failure("entry '\(Vault.displayPath(located.path))': \(error.reason)")
        }
    }

    /// The text view, and whether a value shown in it had a control character made a space. The
    /// TOTP line shows `otp` when `showsOTP`, else that a code is there (`--totp` shows it).
    static func text(_ located: LocatedEntry, reveal: Bool, otp: OTPCode?, showsOTP: Bool) -> (text: String, altered: Bool) {
        let entry = located.entry
        var out = ""
        var altered = false
        // Field names and values come from the vault: they are made safe for a terminal, the
        // notes, the password and custom fields line by line (continuation lines indented), the
        // rest on one line (`show --field NAME` and `--json` give the exact value).
        func line(_ label: String, _ value: String, multiline: Bool = false) {
            let body = multiline ? Text.lines(value).replacingOccurrences(of: "\n", with: "\n  ") : Text.oneLine(value)
            altered = altered || value.unicodeScalars.contains { Text.isControl($0) && !(multiline && ($0 == "\n" || $0 == "\r")) }
            out += "\(Text.oneLine(label)): \(body)\n"
        }
        let oneLineFields: Set<String> = [Entry.StandardField.title, Entry.StandardField.userName, Entry.StandardField.url]
        for field in orderedFields(entry) {
            line(field.key, field.isProtected && !reveal ? hidden : field.value, multiline: !oneLineFields.contains(field.key))
        }
        line("Tags", entry.tags.joined(separator: ", "))
        line("Expires", entry.times.expires ? Text.time(entry.times.expiry) : "never")
        line("UUID", entry.uuid.hexString)
        line("Path", Vault.displayPath(located.groupPath + [entry.title]))
        line("Created", Text.time(entry.times.creation))
        line("Modified", Text.time(entry.times.lastModification))
        if !entry.history.isEmpty { line("History", entry.history.count == 1 ? "1 previous version" : "\(entry.history.count) previous versions") }
        if !entry.attachments.isEmpty {
            out += "Attachments:\n"
            for attachment in entry.attachments {
                out += "  \(Text.oneLine(attachment.name)) (\(Text.byteSize(attachment.data.count)))\n"
            }
        }
        if otp != nil, !showsOTP {
            line("TOTP", hidden + " (--totp or --reveal shows the current code)")
        } else if let otp {
            var text = otp.value
            if let left = otp.secondsRemaining { text += " (\(left) s left)" }
            line("TOTP", text)
        } else if entry.hasOTP {
            line("OTP", "counter-based (HOTP) or unreadable; 'mypass totp' gives the next code")
        }
        return (out, altered)
    }

    /// The JSON view: protected values are null unless `reveal`, the TOTP code unless `showsOTP`.
    static func json(_ located: LocatedEntry, reveal: Bool, otp: OTPCode?, showsOTP: Bool) -> JSON {
        let entry = located.entry
        let fields = orderedFields(entry).map { field -> (String, JSON) in
            (field.key, .object([
                ("value", field.isProtected && !reveal ? .null : .string(field.value)),
                ("protected", .bool(field.isProtected)),
            ]))
        }
        let attachments = entry.attachments.map {
            JSON.object([("name", .string($0.name)), ("size", .int($0.data.count))])
        }
        var totp = JSON.null
        if let otp {
            totp = .object([
                ("code", showsOTP ? .string(otp.value) : .null),
                ("secondsLeft", otp.secondsRemaining.map { .int($0) } ?? .null),
            ])
        }
        return .object([
            ("uuid", .string(entry.uuid.hexString)),
            ("title", .string(entry.title)),
            ("username", .string(entry.userName)),
            ("url", .string(entry.url)),
            ("path", .array(located.groupPath.map { .string($0) })),
            ("tags", .array(entry.tags.map { .string($0) })),
            ("expires", entry.times.expires ? .string(Text.time(entry.times.expiry)) : .null),
            ("fields", .object(fields)),
            ("attachments", .array(attachments)),
            ("history", .int(entry.history.count)),
            ("totp", totp),
        ])
    }
}
