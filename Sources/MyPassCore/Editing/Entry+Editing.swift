import MyPassKDBX

extension Entry {
    /// Sets custom field `key` (not one of the five standard names, not empty) to `value`,
    /// protected or not; an existing field keeps its position.
    ///
    /// - Throws: ``CoreError/Code/invalidOperation`` for an empty or standard name.
    public mutating func setCustomField(_ key: String, value: String, isProtected: Bool) throws(CoreError) {
        guard !key.isEmpty, !StandardField.all.contains(key) else {
            throw CoreError(.invalidOperation, "not a custom field name", location: key)
        }
        setValue(value, for: key, isProtected: isProtected)
    }

    /// Renames custom field `oldKey` to `newKey`, keeping value, protection and position.
    ///
    /// - Throws: ``CoreError/Code/notFound``; ``CoreError/Code/invalidOperation`` when `newKey` is
    ///   empty, standard or taken.
    public mutating func renameCustomField(_ oldKey: String, to newKey: String) throws(CoreError) {
        guard !StandardField.all.contains(oldKey), let index = fields.firstIndex(where: { $0.key == oldKey }) else {
            throw CoreError(.notFound, "no such custom field", location: oldKey)
        }
        guard oldKey != newKey else { return }
        guard !newKey.isEmpty, !StandardField.all.contains(newKey), field(named: newKey) == nil else {
            throw CoreError(.invalidOperation, "the new name is empty, standard or in use", location: newKey)
        }
        fields[index].key = newKey
    }

    /// Removes custom field `key`.
    ///
    /// - Throws: ``CoreError/Code/notFound``.
    public mutating func removeCustomField(_ key: String) throws(CoreError) {
        guard !StandardField.all.contains(key), removeField(named: key) else {
            throw CoreError(.notFound, "no such custom field", location: key)
        }
    }

    /// Sets the tags: each trimmed, empty ones and repeats dropped, `,` and `;` (KeePass's tag
    /// separators) splitting a tag.
    public mutating func setTags(_ newTags: [String]) {
        var seen: Set<String> = []
        tags = Entry.parseTags(newTags.joined(separator: ";")).filter { seen.insert($0).inserted }
    }

    /// Sets the expiry: `nil` for "never expires", else expires at `time`.
    public mutating func setExpiry(_ time: KDBXTime?) {
        if let time {
            times.expires = true
            times.expiry = time
        } else {
            times.expires = false
        }
    }

    /// Whether the entry has expired at `now`.
    public func isExpired(at now: KDBXTime) -> Bool { times.expires && times.expiry <= now }

    /// Adds an attachment named `name` with `data`.
    ///
    /// - Throws: ``CoreError/Code/invalidOperation`` when the name is empty or taken.
    public mutating func addAttachment(named name: String, data: [UInt8], isProtected: Bool = false) throws(CoreError) {
        guard !name.isEmpty, attachment(named: name) == nil else {
            throw CoreError(.invalidOperation, "the attachment name is empty or in use", location: name)
        }
        attachments.append(Attachment(name: name, data: data, isProtected: isProtected))
    }

    /// Renames attachment `oldName` to `newName`, keeping content and position.
    ///
    /// - Throws: ``CoreError/Code/notFound``; ``CoreError/Code/invalidOperation`` for an empty or taken name.
    public mutating func renameAttachment(_ oldName: String, to newName: String) throws(CoreError) {
        guard let index = attachments.firstIndex(where: { $0.name == oldName }) else {
            throw CoreError(.notFound, "no such attachment", location: oldName)
        }
        guard oldName != newName else { return }
        guard !newName.isEmpty, attachment(named: newName) == nil else {
            throw CoreError(.invalidOperation, "the attachment name is empty or in use", location: newName)
        }
        attachments[index].name = newName
    }

    /// Removes attachment `name`.
    ///
    /// - Throws: ``CoreError/Code/notFound``.
    public mutating func deleteAttachment(_ name: String) throws(CoreError) {
        guard removeAttachment(named: name) != nil else {
            throw CoreError(.notFound, "no such attachment", location: name)
        }
    }
}
