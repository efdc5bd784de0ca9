extension Vault {
    /// The version a save writes by default: the loaded version (3.0 counts as 3.1) raised to what
    /// the content needs (``requiredVersion``). A KDBX 3.1 vault stays 3.1 unless it gains a 4.x
    /// feature (KeePassXC `KeePass2Writer::kdbxVersionRequired`, which never downgrades).
    public var minimumVersion: KDBXVersion {
        let floor = max(format.version, .v3_1)
        return max(floor, requiredVersion)
    }

    /// The lowest version that can hold this vault without losing anything, from the content alone:
    /// - 4.1 when a group has tags, an entry has `QualityCheck` false, a custom icon has a name or a
    ///   modification time, or a Meta custom data item has a modification time (KeePass 2.61
    ///   `KdbxFile.GetMinKdbxVersion`);
    /// - else 4.0 when the KDF is not AES-KDF, there is public custom data, or a group or entry
    ///   (history included) has custom data (KeePass ≤ 2.56);
    ///
    /// The payload cipher needs no version: KDBX 3.1 names it by UUID, and KeePassXC writes 3.1
    /// vaults with ChaCha20 and Twofish.
    /// - else 3.1.
    ///
    /// `PreviousParentGroup` does not raise the version: as in KeePass it is omitted below 4.1.
    public var requiredVersion: KDBXVersion {
        if meta.customIcons.contains(where: { !$0.name.isEmpty || $0.lastModification != nil })
            || meta.customData.contains(where: { $0.lastModification != nil }) {
            return .v4_1
        }
        var needs41 = false
        var needs40 = !format.publicCustomData.isEmpty
        if case .argon2 = format.kdf { needs40 = true }
        root.forEachGroup { group, _ in
            if needs41 { return }
            if !group.tags.isEmpty { needs41 = true; return }
            if !group.customData.isEmpty { needs40 = true }
            for entry in group.entries {
                if !entry.qualityCheck || entry.history.contains(where: { !$0.qualityCheck }) {
                    needs41 = true
                    return
                }
                if !entry.customData.isEmpty || entry.history.contains(where: { !$0.customData.isEmpty }) {
                    needs40 = true
                }
            }
        }
        if needs41 { return .v4_1 }
        return needs40 ? .v4_0 : .v3_1
    }
}
