import MyPassBytes

extension Entry {
    /// The names of the five standard fields, as stored.
    public enum StandardField {
        /// `Title`.
        public static let title = "Title"
        /// `UserName`.
        public static let userName = "UserName"
        /// `Password`.
        public static let password = "Password"
        /// `URL`.
        public static let url = "URL"
        /// `Notes`.
        public static let notes = "Notes"
        /// All five, in KeePass's display order.
        public static let all = [title, userName, password, url, notes]
    }

    /// The field named `key` (exact, case-sensitive match, as KeePass), or `nil`.
    public func field(named key: String) -> EntryField? {
        fields.first(where: { $0.key == key })
    }

    /// The clear value of field `key`, or `""` when absent (reveals protected values).
    public func value(of key: String) -> String {
        field(named: key)?.value ?? ""
    }

    /// Sets field `key` to `value`. An existing field keeps its position and, unless `isProtected`
    /// is given, its protection flag; a new field is appended (protected when `isProtected` is true).
    public mutating func setValue(_ value: String, for key: String, isProtected: Bool? = nil) {
        if let index = fields.firstIndex(where: { $0.key == key }) {
            if let isProtected { fields[index].isProtected = isProtected }
            fields[index].value = value
        } else {
            fields.append(EntryField(key: key, value: value, isProtected: isProtected ?? false))
        }
    }

    /// Sets field `key` to a protected value (the field becomes protected), or appends it.
    public mutating func setProtectedValue(_ value: ProtectedString, for key: String) {
        if let index = fields.firstIndex(where: { $0.key == key }) {
            fields[index] = EntryField(key: key, protectedValue: value)
        } else {
            fields.append(EntryField(key: key, protectedValue: value))
        }
    }

    /// Removes field `key`; returns whether it was there.
    @discardableResult
    public mutating func removeField(named key: String) -> Bool {
        guard let index = fields.firstIndex(where: { $0.key == key }) else { return false }
        fields.remove(at: index)
        return true
    }

    /// `Title` (clear text).
    public var title: String {
        get { value(of: StandardField.title) }
        set { setValue(newValue, for: StandardField.title) }
    }

    /// `UserName` (clear text).
    public var userName: String {
        get { value(of: StandardField.userName) }
        set { setValue(newValue, for: StandardField.userName) }
    }

    /// `Password` as a protected value (empty when absent). Setting it stores a protected field.
    public var password: ProtectedString {
        get { field(named: StandardField.password)?.protectedValue ?? ProtectedString() }
        set { setProtectedValue(newValue, for: StandardField.password) }
    }

    /// `URL` (clear text).
    public var url: String {
        get { value(of: StandardField.url) }
        set { setValue(newValue, for: StandardField.url) }
    }

    /// `Notes` (clear text).
    public var notes: String {
        get { value(of: StandardField.notes) }
        set { setValue(newValue, for: StandardField.notes) }
    }

    /// The fields that are not one of the five standard ones, in stored order.
    public var customFields: [EntryField] {
        fields.filter { !StandardField.all.contains($0.key) }
    }

    /// The attachment named `name`, or `nil`.
    public func attachment(named name: String) -> Attachment? {
        attachments.first(where: { $0.name == name })
    }

    /// Adds an attachment, replacing one with the same name in place.
    public mutating func setAttachment(_ attachment: Attachment) {
        if let index = attachments.firstIndex(where: { $0.name == attachment.name }) {
            attachments[index] = attachment
        } else {
            attachments.append(attachment)
        }
    }

    /// Removes the attachment named `name`; returns it, or `nil` when absent.
    @discardableResult
    public mutating func removeAttachment(named name: String) -> Attachment? {
        guard let index = attachments.firstIndex(where: { $0.name == name }) else { return nil }
        return attachments.remove(at: index)
    }

    /// Parses KeePass tag text: split on `,` and `;`, each tag trimmed, empty ones dropped
    /// (KeePass `StrUtil.StringToTags`).
    public static func parseTags(_ text: String) -> [String] {
        var tags: [String] = []
        for part in text.split(whereSeparator: { $0 == "," || $0 == ";" }) {
            let trimmed = part.trimmingWhitespace()
            if !trimmed.isEmpty { tags.append(trimmed) }
        }
        return tags
    }

    /// Tags joined with `separator`: `;` as KeePass writes them (`StrUtil.TagsToString`), or the
    /// separator a file used.
    public static func joinTags(_ tags: [String], separator: Character = ";") -> String {
        tags.joined(separator: String(separator))
    }

    /// The separator `text` (a `Tags` value) uses: the first `;` or `,` in it, or `nil`.
    public static func tagSeparator(in text: String) -> Character? {
        text.first { $0 == ";" || $0 == "," }
    }
}

extension Substring {
    /// The text without leading and trailing white space.
    func trimmingWhitespace() -> String {
        var s = self[...]
        while let first = s.first, first.isWhitespace { s.removeFirst() }
        while let last = s.last, last.isWhitespace { s.removeLast() }
        return String(s)
    }
}
