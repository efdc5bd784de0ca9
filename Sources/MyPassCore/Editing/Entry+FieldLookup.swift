import MyPassKDBX

extension Entry {
    /// The field a user means by `name`, as `show --field` and `clip --field` take it: the field
    /// named exactly `name`, else the one field whose name equals it with case ignored
    /// (`username` is `UserName`, `url` is `URL`, as keepassxc-cli's `show -a` finds attributes).
    ///
    /// - Throws: ``CoreError/Code/notFound`` when no field matches (the reason names up to three
    ///   fields within two edits of `name`, case ignored, or lists the entry's fields when none is
    ///   that close); ``CoreError/Code/ambiguous`` when several fields differ from `name` only in
    ///   case and none is `name` exactly (the reason lists them).
    public func resolveField(named name: String) throws(CoreError) -> EntryField {
        if let exact = field(named: name) { return exact }
        let folded = name.lowercased()
        let matches = fields.filter { $0.key.lowercased() == folded }
        if matches.count == 1 { return matches[0] }
        if matches.count > 1 {
            throw CoreError(.ambiguous, "'\(name)' matches the fields \(matches.map { "'\($0.key)'" }.joined(separator: " and ")); give the name exactly")
        }
        let names = Entry.StandardField.all.filter { field(named: $0) != nil } + customFields.map { $0.key }
        let close = Vault.suggestions(for: name, among: names)
        if !close.isEmpty { throw CoreError(.notFound, "no field '\(name)'" + Vault.didYouMean(close)) }
        throw CoreError(.notFound, "no field '\(name)'; its fields: " + names.map { "'\($0)'" }.joined(separator: ", "))
    }
}
