extension Vault {
    /// The vault as a save at `version` reads back, for checking a save by comparing models: the
    /// version written, the inner random stream a save uses for it (ChaCha20 for KDBX 4, Salsa20
    /// for 3.1), and what that version cannot hold and the writer leaves out:
    /// - below 4.1: `PreviousParentGroup` of groups and entries (history included), as KeePass;
    /// - in 3.1: public custom data and `Meta/SettingsChanged`;
    /// - in 4.x, a missing `SettingsChanged` is written as the database name's change time;
    /// - an all-zero `PreviousParentGroup` or `CustomIconUUID` is written as none.
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
        let keepsPreviousParent = version >= .v4_1
        func normalize(_ entry: inout Entry) {
            if !keepsPreviousParent || entry.previousParentGroup?.isZero == true { entry.previousParentGroup = nil }
            if entry.customIconUUID?.isZero == true { entry.customIconUUID = nil }
            for index in entry.history.indices { normalize(&entry.history[index]) }
        }
        func normalize(_ group: inout Group) {
            if !keepsPreviousParent || group.previousParentGroup?.isZero == true { group.previousParentGroup = nil }
            if group.customIconUUID?.isZero == true { group.customIconUUID = nil }
            for index in group.entries.indices { normalize(&group.entries[index]) }
            for index in group.groups.indices { normalize(&group.groups[index]) }
        }
        normalize(&copy.root)
        return copy
    }
}
