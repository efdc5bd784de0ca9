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
    /// Everything else reads back as it is. Only what changes is copied: the result shares the
    /// storage of every group and entry that reads back as it is.
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
        // Read-only walks that copy a value only when it changes, so that a vault needing no change
        // shares all its storage with the result (no whole-tree copy on every save).
        func normalized(_ entry: Entry) -> Entry? {
            let dropsParent = entry.previousParentGroup.map { !is41 || $0.isZero } ?? false
            let dropsIcon = entry.customIconUUID?.isZero == true
            let separator = readBackSeparator(entry.tags, entry.tagSeparator)
            var history: [Entry]?
            for index in entry.history.indices {
                guard let item = normalized(entry.history[index]) else { continue }
                if history == nil { history = entry.history }
                history![index] = item
            }
            guard dropsParent || dropsIcon || separator != entry.tagSeparator || history != nil else { return nil }
            var result = entry
            if dropsParent { result.previousParentGroup = nil }
            if dropsIcon { result.customIconUUID = nil }
            if separator != entry.tagSeparator { result.tagSeparator = separator }
            if let history { result.history = history }
            return result
        }
        func normalized(_ group: Group) -> Group? {
            let dropsParent = group.previousParentGroup.map { !is41 || $0.isZero } ?? false
            let dropsIcon = group.customIconUUID?.isZero == true
            let dropsTags = !is41 && !group.tags.isEmpty
            let tags = dropsTags ? [] : group.tags
            let separator: Character = tags.isEmpty ? ";" : readBackSeparator(tags, group.tagSeparator)
            var entries: [Entry]?
            for index in group.entries.indices {
                guard let entry = normalized(group.entries[index]) else { continue }
                if entries == nil { entries = group.entries }
                entries![index] = entry
            }
            var groups: [Group]?
            for index in group.groups.indices {
                guard let child = normalized(group.groups[index]) else { continue }
                if groups == nil { groups = group.groups }
                groups![index] = child
            }
            guard dropsParent || dropsIcon || dropsTags || separator != group.tagSeparator || entries != nil || groups != nil else {
                return nil
            }
            var result = group
            if dropsParent { result.previousParentGroup = nil }
            if dropsIcon { result.customIconUUID = nil }
            if dropsTags { result.tags = [] }
            if separator != group.tagSeparator { result.tagSeparator = separator }
            if let entries { result.entries = entries }
            if let groups { result.groups = groups }
            return result
        }
        if let root = normalized(root) { copy.root = root }
        return copy
    }
}
