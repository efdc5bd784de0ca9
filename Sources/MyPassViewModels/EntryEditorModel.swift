import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX
import Observation

/// The add and edit screen: every field of a KeePass entry the app supports (title, user name,
/// password with the generator, URL, notes, tags, custom fields protected or not, expiry, TOTP
/// set-up, attachments) and the group picker (groups by full path), whose default for a new
/// entry is the filter's group when exactly one group (with its subtree) is selected, else the
/// root. Validation errors are values (``errors``); ``VaultSessionModel/commit(_:)`` saves.
@available(iOS 17, macOS 14, *)
@MainActor
@Observable
public final class EntryEditorModel {
    /// A custom field being edited.
    public struct CustomField: Sendable, Identifiable, Equatable {
        public var id: Int
        public var name: String
        public var value: String
        public var isProtected: Bool

        public init(id: Int, name: String, value: String, isProtected: Bool) {
            self.id = id
            self.name = name
            self.value = value
            self.isProtected = isProtected
        }
    }

    /// What is wrong with the form, field by field.
    public enum ValidationError: Sendable, Equatable {
        /// The title is empty.
        case emptyTitle
        /// Another entry of the chosen group has this title (its full path).
        case duplicateTitle(String)
        /// A custom field has no name.
        case emptyFieldName
        /// A custom field's name is used twice, or is a standard field's or the OTP field's.
        case duplicateFieldName(String)
        /// The TOTP set-up cannot be read (the parser's reason).
        case invalidOTP(String)
        /// The chosen group is not in the vault any more.
        case missingGroup
    }

    /// Adding a new entry, or editing one.
    public let mode: EntryEditor.Mode
    public var title: String
    public var userName: String
    /// The password (masked in memory; ``passwordText`` is the text field's binding).
    public var password: ProtectedString
    public var url: String
    public var notes: String
    /// Tags, comma or semicolon separated as typed.
    public var tagsText: String
    /// Custom fields, in order.
    public var customFields: [CustomField]
    /// Whether the entry expires, and when.
    public var expires: Bool
    public var expiry: KDBXTime
    /// The TOTP set-up: an `otpauth://` URI (the `otp` field KeePassXC writes), or a bare Base32
    /// secret (stored as the URI ``otpFieldValue`` makes of it); empty for none.
    public var otpURI: String
    /// The attachments.
    public private(set) var attachments: [Attachment]
    /// Every group by its full path, for the picker.
    public let groupChoices: [GroupChoice]
    /// The chosen group.
    public var groupID: KDBXUUID
    /// The generator's options (``generatePassword()``).
    public var generatorOptions = PasswordGeneratorOptions()
    /// What ``validate(in:)`` found; empty when the form can be saved.
    public private(set) var errors: [ValidationError] = []

    @ObservationIgnored private let editor: EntryEditor
    @ObservationIgnored private var nextFieldID = 0
    /// The `otp` field as read (kept as stored unless it is changed).
    @ObservationIgnored private var originalOTP = ""

    /// A form for a new entry in `vault`, with the group picker's default for `filter`.
    public convenience init(adding vault: Vault, filter: GroupFilter) {
        self.init(editor: EntryEditor(adding: vault, filter: filter))
    }

    /// A form for entry `uuid` of `vault`.
    /// - Throws: `CoreError/Code/notFound`.
    public convenience init(editing uuid: KDBXUUID, in vault: Vault) throws(CoreError) {
        self.init(editor: try EntryEditor(editing: uuid, in: vault))
    }

    private init(editor: EntryEditor) {
        self.editor = editor
        mode = editor.mode
        let draft = editor.draft
        title = draft.title
        userName = draft.userName
        password = draft.password
        url = draft.url
        notes = draft.notes
        tagsText = draft.tags.joined(separator: ", ")
        var fields: [CustomField] = []
        for field in draft.customFields where field.key != OTPFieldNames.otp {
            fields.append(CustomField(id: fields.count, name: field.key, value: field.value, isProtected: field.isProtected))
        }
        customFields = fields
        nextFieldID = fields.count
        expires = draft.times.expires
        expiry = draft.times.expiry
        otpURI = draft.value(of: OTPFieldNames.otp)
        attachments = draft.attachments
        groupChoices = editor.groupChoices
        groupID = editor.groupUUID
        originalOTP = otpURI
    }

    /// The password as text, for a secure text field's binding.
    public var passwordText: String {
        get { password.revealed }
        set { password = ProtectedString(newValue) }
    }

    /// The chosen group's full path (`Passwords / Work`).
    public var groupPath: String {
        groupChoices.first(where: { $0.uuid == groupID })?.displayPath() ?? ""
    }

    /// Replaces the password with a generated one (``generatorOptions``).
    public func generatePassword() throws(CoreError) {
        password = try PasswordGenerator.generate(generatorOptions)
    }

    /// Sets up TOTP from an authenticator's Base32 secret (RFC 4648 section 6, spaces ignored):
    /// ``otpURI`` becomes the `otpauth://totp/...` URI KeePassXC writes (issuer the title, label
    /// `title:user name`, SHA-1). `digits` (6-10) and `period` (seconds, at least 1) as the site gives them.
    /// - Returns: `false` (nothing changed) when `secret` is not Base32.
    @discardableResult
    public func setUpTOTP(secret: String, digits: Int = 6, period: Int = 30) -> Bool {
        let cleaned = secret.filter { !$0.isWhitespace && $0 != "-" }.uppercased()
        guard !cleaned.isEmpty, (6...10).contains(digits), period >= 1, let bytes = Base32.decode(cleaned), !bytes.isEmpty else {
            return false
        }
        otpURI = Self.otpauthURI(secret: Base32.encode(bytes).filter { $0 != "=" }, title: title, userName: userName,
                                 digits: digits, period: period)
        return true
    }

    /// The value stored in the `otp` field: ``otpURI`` as typed, or for a bare Base32 secret the
    /// URI that ``setUpTOTP(secret:digits:period:)`` makes (unless it is the value the entry already
    /// held, kept as stored); empty for none.
    public var otpFieldValue: String {
        let typed = otpURI.trimmingCharacters(in: .whitespaces)
        guard !typed.isEmpty, otpURI != originalOTP, !typed.contains("://"), !typed.contains("="),
              let bytes = Base32.decode(typed), !bytes.isEmpty else { return typed }
        return Self.otpauthURI(secret: Base32.encode(bytes).filter { $0 != "=" }, title: title, userName: userName, digits: 6, period: 30)
    }

    private static func otpauthURI(secret: String, title: String, userName: String, digits: Int, period: Int) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        func encoded(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
        let issuer = title.isEmpty ? "MyPass" : title
        let label = userName.isEmpty ? encoded(issuer) : encoded(issuer) + ":" + encoded(userName)
        return "otpauth://totp/\(label)?secret=\(secret)&period=\(period)&digits=\(digits)&issuer=\(encoded(issuer))"
    }

    /// Adds an empty custom field; returns its id.
    @discardableResult
    public func addCustomField(protected: Bool = false) -> Int {
        nextFieldID += 1
        customFields.append(CustomField(id: nextFieldID, name: "", value: "", isProtected: protected))
        return nextFieldID
    }

    /// Removes a custom field.
    public func removeCustomField(_ id: Int) { customFields.removeAll { $0.id == id } }

    /// Adds or replaces an attachment.
    public func attach(name: String, data: [UInt8]) {
        attachments.removeAll { $0.name == name }
        attachments.append(Attachment(name: name, data: data))
    }

    /// Removes an attachment.
    public func removeAttachment(named name: String) { attachments.removeAll { $0.name == name } }

    /// Checks the form against `vault`; sets ``errors`` and returns whether it can be saved.
    @discardableResult
    public func validate(in vault: Vault) -> Bool {
        var found: [ValidationError] = []
        if title.trimmingCharacters(in: .whitespaces).isEmpty { found.append(.emptyTitle) }
        if let group = vault.group(withUUID: groupID) {
            let excluded: KDBXUUID? = if case .edit(let uuid) = mode { uuid } else { nil }
            if !title.isEmpty, group.entries.contains(where: { $0.title == title && $0.uuid != excluded }) {
                let path = groupChoices.first(where: { $0.uuid == groupID })?.path ?? []
                found.append(.duplicateTitle((path + [title]).joined(separator: " / ")))
            }
        } else {
            found.append(.missingGroup)
        }
        var names = Set(Entry.StandardField.all + [OTPFieldNames.otp])
        for field in customFields {
            if field.name.isEmpty { found.append(.emptyFieldName); continue }
            if !names.insert(field.name).inserted { found.append(.duplicateFieldName(field.name)) }
        }
        let otp = otpFieldValue
        if !otp.isEmpty {
            do throws(CoreError) { _ = try OTPParser.parse(otp) } catch { found.append(.invalidOTP(error.description)) }
        }
        errors = found
        return found.isEmpty
    }

    /// The core editor with the form applied (what ``VaultSessionModel/commit(_:)`` commits).
    public func preparedEditor() -> EntryEditor {
        var prepared = editor
        var draft = prepared.draft
        draft.title = title
        draft.userName = userName
        draft.setProtectedValue(password, for: Entry.StandardField.password)
        draft.url = url
        draft.notes = notes
        draft.setTags(tagsText.split(whereSeparator: { $0 == "," || $0 == ";" })
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        for field in draft.customFields { _ = draft.removeField(named: field.key) }
        for field in customFields where !field.name.isEmpty {
            if field.isProtected {
                draft.setProtectedValue(ProtectedString(field.value), for: field.name)
            } else {
                draft.setValue(field.value, for: field.name, isProtected: false)
            }
        }
        let otp = otpFieldValue
        if !otp.isEmpty { draft.setProtectedValue(ProtectedString(otp), for: OTPFieldNames.otp) }
        draft.setExpiry(expires ? expiry : nil)
        draft.attachments = attachments
        prepared.draft = draft
        try? prepared.selectGroup(groupID)
        return prepared
    }
}
