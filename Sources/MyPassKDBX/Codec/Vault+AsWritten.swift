extension Vault {
    /// The vault as a save at `version` reads back, for checking a save by comparing models: the
    /// version written, the inner random stream a save uses for it (ChaCha20 for KDBX 4, Salsa20
    /// for 3.1), and what that version cannot hold and the writer leaves out:
    /// - below 4.1: `PreviousParentGroup` of groups and entries (history included), as KeePass;
    /// - in 3.1: public custom data and `Meta/SettingsChanged`;
    /// - in 4.x, a missing `SettingsChanged` is written as the database name's change time;
    /// - an all-zero `PreviousParentGroup` or `CustomIconUUID` is written as none;
    /// - the body names MyPass as its generator (``Meta/writerName``);
    /// - the KDF items are the dictionary the header gets (``KDFParameters/fresh(_:keeping:)``), its
    ///   seed read as empty; none in 3.1;
    /// - group tags exist from 4.1 on; the separator of a `Tags` value without one (a single tag,
    ///   or none) reads back as the file's first separator so far, `;` before any.
    /// Everything else reads back as it is.
    package func asWritten(version: KDBXVersion) -> Vault {
        var copy = self
        copy.format.version = version
        copy.format.innerStream = version.isKDBX4 ? .chacha20 : .salsa20
        if version.isKDBX4 {
            if copy.meta.settingsChanged == nil { copy.meta.settingsChanged = copy.meta.databaseNameChanged }
        } else {
            copy.format.publicCustomData = []
            copy.meta.settingsChanged = nil
        }
        copy.meta.generator = Meta.writerName
        if version.isKDBX4 {
            var items = KDFParameters.fresh(format.kdf, keeping: format.kdfItems).dictionary
            if items["S"] != nil { items["S"] = .bytes([]) }
            copy.format.kdfItems = items
        } else {
            copy.format.kdfItems = VariantDictionary()
        }
        let is41 = version >= .v4_1
        // The reader's tag-separator rule, replayed in the order the writer writes `Tags`.
        var fileSeparator: Character = ";"
        var sawSeparator = false
        func readBackSeparator(_ tags: [String], _ separator: Character) -> Character {
            guard let found = Entry.tagSeparator(in: Entry.joinTags(tags, separator: separator)) else { return fileSeparator }
            if !sawSeparator {
                sawSeparator = true
                fileSeparator = found
            }
            return found
        }
        func normalize(_ entry: inout Entry) {
            if !is41 || entry.previousParentGroup?.isZero == true { entry.previousParentGroup = nil }
            if entry.customIconUUID?.isZero == true { entry.customIconUUID = nil }
            let separator = readBackSeparator(entry.tags, entry.tagSeparator)
            if entry.tagSeparator != separator { entry.tagSeparator = separator }
            for index in entry.history.indices { normalize(&entry.history[index]) }
        }
        func normalize(_ group: inout Group) {
            if !is41 || group.previousParentGroup?.isZero == true { group.previousParentGroup = nil }
            if group.customIconUUID?.isZero == true { group.customIconUUID = nil }
            if !is41 { group.tags = [] }
            let separator: Character = group.tags.isEmpty ? ";" : readBackSeparator(group.tags, group.tagSeparator)
            if group.tagSeparator != separator { group.tagSeparator = separator }
            for index in group.entries.indices { normalize(&group.entries[index]) }
            for index in group.groups.indices { normalize(&group.groups[index]) }
        }
        normalize(&copy.root)
        return copy
    }
}
