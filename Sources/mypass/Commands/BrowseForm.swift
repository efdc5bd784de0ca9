import MyPassBytes
import MyPassCore
import MyPassKDBX
import MyPassViewModels

/// The add and edit form of `mypass browse`: the rows of an ``EntryEditorModel`` (every field the
/// app supports: title, user name, password, URL, notes, tags, expiry, TOTP set-up, the group
/// picker, custom fields protected or not, attachments) and the cursor.
@MainActor
final class BrowseForm {
    /// One row of the form.
    enum Row: Equatable {
        case title, userName, password, url, notes, tags, expiry, otp, group
        /// A custom field's name and its value (by the editor's field id).
        case fieldName(Int), fieldValue(Int)
        /// An attachment (by name).
        case attachment(String)
        /// The path of a file to attach.
        case attach
    }

    let editor: EntryEditorModel
    /// The cursor: an index into ``rows``.
    private(set) var index = 0
    /// The first row shown (the form scrolls in small windows).
    var scroll = 0
    /// The expiry as typed: `never`, `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SSZ`.
    var expiryText: String
    /// The path typed in the attach row.
    var attachPath = ""
    /// Whether protected values (password, TOTP set-up, protected fields) are shown in clear.
    var revealed = false

    init(_ editor: EntryEditorModel) {
        self.editor = editor
        expiryText = editor.expires ? editor.expiry.iso8601 : "never"
    }

    /// The rows, in order: the standard fields, then each custom field (name, value), each
    /// attachment, and the attach row.
    var rows: [Row] {
        var rows: [Row] = [.title, .userName, .password, .url, .notes, .tags, .expiry, .otp, .group]
        for field in editor.customFields { rows += [.fieldName(field.id), .fieldValue(field.id)] }
        rows += editor.attachments.map { Row.attachment($0.name) }
        rows.append(.attach)
        return rows
    }

    /// The row under the cursor.
    var row: Row { rows[min(index, rows.count - 1)] }

    func move(by offset: Int) {
        let count = rows.count
        index = ((index + offset) % count + count) % count
    }

    func select(_ row: Row) {
        if let found = rows.firstIndex(of: row) { index = found }
    }

    /// Keeps the cursor on a row after one was removed.
    func clamp() { index = min(index, rows.count - 1) }

    func toggleProtected(_ id: Int) {
        if let at = editor.customFields.firstIndex(where: { $0.id == id }) { editor.customFields[at].isProtected.toggle() }
    }

    /// Applies a text change to the row under the cursor (the group and attachment rows take none).
    func edit(_ change: (inout String) -> Void) {
        switch row {
        case .title: change(&editor.title)
        case .userName: change(&editor.userName)
        case .password: var text = editor.passwordText; change(&text); editor.passwordText = text
        case .url: change(&editor.url)
        case .notes: change(&editor.notes)
        case .tags: change(&editor.tagsText)
        case .expiry: change(&expiryText)
        case .otp: change(&editor.otpURI)
        case .attach: change(&attachPath)
        case .fieldName(let id):
            if let at = editor.customFields.firstIndex(where: { $0.id == id }) { change(&editor.customFields[at].name) }
        case .fieldValue(let id):
            if let at = editor.customFields.firstIndex(where: { $0.id == id }) { change(&editor.customFields[at].value) }
        case .group, .attachment: break
        }
    }

    /// Sets the editor's expiry from ``expiryText``; `false` when it is not a date.
    func applyExpiry() -> Bool {
        let text = expiryText.trimmingCharacters(in: .whitespaces)
        if text.isEmpty || text.lowercased() == "never" {
            editor.expires = false
            return true
        }
        let parts = text.split(separator: "-")
        if text.count == 10, parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
           let time = KDBXTime(year: year, month: month, day: day)
        {
            editor.expires = true
            editor.expiry = time
            return true
        }
        if let time = KDBXTime(iso8601: text) {
            editor.expires = true
            editor.expiry = time
            return true
        }
        return false
    }

    /// The label and the value shown for `row` (protected values masked unless ``revealed``).
    func display(_ row: Row) -> (String, String) {
        func masked(_ text: String) -> String { revealed ? text : String(repeating: "*", count: text.count) }
        switch row {
        case .title: return ("Title", editor.title)
        case .userName: return ("User name", editor.userName)
        case .password: return ("Password", masked(editor.passwordText))
        case .url: return ("URL", editor.url)
        case .notes: return ("Notes", editor.notes)
        case .tags: return ("Tags", editor.tagsText)
        case .expiry: return ("Expires", expiryText)
        case .otp: return ("TOTP", masked(editor.otpURI))
        case .group: return ("Group", "◀ " + editor.groupPath + " ▶")
        case .fieldName(let id):
            let field = editor.customFields.first(where: { $0.id == id })
            return (field?.isProtected == true ? "Field (prot.)" : "Field", field?.name ?? "")
        case .fieldValue(let id):
            let field = editor.customFields.first(where: { $0.id == id })
            let value = field?.value ?? ""
            return ("  value", field?.isProtected == true ? masked(value) : value)
        case .attachment(let name):
            let size = editor.attachments.first(where: { $0.name == name })?.data.count ?? 0
            return ("Attachment", name + " (" + Text.byteSize(size) + ")")
        case .attach: return ("Attach file", attachPath)
        }
    }

    /// What the keys do on the row under the cursor.
    var hint: String {
        switch row {
        case .password: return "Ctrl-G generates, Ctrl-R reveals, Ctrl-N adds a field"
        case .expiry: return "YYYY-MM-DD, YYYY-MM-DDTHH:MM:SSZ (UTC) or never"
        case .otp: return "An otpauth:// URI, or the site's Base32 secret (TOTP, 6 digits, 30 s); Ctrl-R reveals"
        case .group: return "← → choose the group"
        case .fieldName, .fieldValue: return "Ctrl-P protects or unprotects the field, Ctrl-D removes it, Ctrl-N adds one"
        case .attachment: return "Ctrl-D removes the attachment"
        case .attach: return "Type a file's path; Enter attaches it"
        default: return "Ctrl-N adds a custom field, Ctrl-G generates a password, Ctrl-R reveals"
        }
    }
}
