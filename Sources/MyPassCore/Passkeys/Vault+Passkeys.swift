import MyPassKDBX

extension Vault {
    /// Every current entry that holds a passkey (``Entry/hasPasskey``), in tree order, with its
    /// path; entries in the recycle bin (the group `meta.recycleBinUUID` names, at any depth) are
    /// left out, as the flat list and AutoFill leave them out. History items are never included.
    public var passkeyEntries: [LocatedEntry] {
        var binned: Set<KDBXUUID> = []
        if !meta.recycleBinUUID.isZero, let bin = root.group(withUUID: meta.recycleBinUUID) {
            bin.forEachGroup { group, _ in binned.insert(group.uuid) }
        }
        return locatedEntries.filter { $0.entry.hasPasskey && !binned.contains($0.groupUUID) }
    }
}
