import MyPassKDBX

extension VaultMerger {
    /// KeePass's `MergeInDbProperties` (Synchronize), after the groups merged and deletions applied.
    /// The master key change time stays local: the merged file keeps the local key.
    mutating func mergeMeta() {
        let other = remote.meta
        let settingsNewer = (other.settingsChanged ?? .minimum) > (meta.settingsChanged ?? .minimum)
        if settingsNewer {
            meta.settingsChanged = other.settingsChanged
            meta.color = other.color
        }
        if other.databaseNameChanged > meta.databaseNameChanged {
            meta.databaseName = other.databaseName
            meta.databaseNameChanged = other.databaseNameChanged
        }
        if other.databaseDescriptionChanged > meta.databaseDescriptionChanged {
            meta.databaseDescription = other.databaseDescription
            meta.databaseDescriptionChanged = other.databaseDescriptionChanged
        }
        if other.defaultUserNameChanged > meta.defaultUserNameChanged {
            meta.defaultUserName = other.defaultUserName
            meta.defaultUserNameChanged = other.defaultUserNameChanged
        }
        var preferredBin = meta.recycleBinUUID, otherBin = other.recycleBinUUID
        if other.recycleBinChanged > meta.recycleBinChanged {
            (preferredBin, otherBin) = (otherBin, preferredBin)
            meta.recycleBinEnabled = other.recycleBinEnabled
            meta.recycleBinChanged = other.recycleBinChanged
        }
        meta.recycleBinUUID = existingGroup(preferredBin, otherBin)
        var preferredTemplates = meta.entryTemplatesGroup, otherTemplates = other.entryTemplatesGroup
        if other.entryTemplatesGroupChanged > meta.entryTemplatesGroupChanged {
            (preferredTemplates, otherTemplates) = (otherTemplates, preferredTemplates)
            meta.entryTemplatesGroupChanged = other.entryTemplatesGroupChanged
        }
        meta.entryTemplatesGroup = existingGroup(preferredTemplates, otherTemplates)
        mergeCustomData(other.customData, remoteSettingsNewer: settingsNewer)
        publicCustomData = Self.mergedPublicCustomData(local: local.format.publicCustomData,
                                                       remote: remote.format.publicCustomData,
                                                       remoteSettingsNewer: settingsNewer)
    }

    /// The KDBX 4 public custom data (header field 12, a VariantDictionary) as KeePass merges it:
    /// the union by name, the side whose settings changed later winning a name both have. Bytes that
    /// do not parse stay as the local side has them.
    static func mergedPublicCustomData(local: [UInt8], remote: [UInt8], remoteSettingsNewer: Bool) -> [UInt8] {
        guard !remote.isEmpty else { return local }
        let remoteItems: VariantDictionary
        var merged: VariantDictionary
        do throws(KDBXError) {
            remoteItems = try VariantDictionary(parsing: remote[...])
            merged = local.isEmpty ? VariantDictionary() : try VariantDictionary(parsing: local[...])
        } catch {
            return local
        }
        var changed = false
        for (name, value) in remoteItems.items where merged[name] != value && (remoteSettingsNewer || merged[name] == nil) {
            merged[name] = value
            changed = true
        }
        return changed ? merged.serialized() : local
    }

    /// The first of the two UUIDs that names a group of the merged tree, else the zero UUID.
    private func existingGroup(_ first: KDBXUUID, _ second: KDBXUUID) -> KDBXUUID {
        if !first.isZero, tree.nodes[first] != nil { return first }
        if !second.isZero, tree.nodes[second] != nil { return second }
        return .zero
    }

    /// Meta custom data item by item (KeePass 2.48+): both with 4.1 times, the newer; only the
    /// local with a time, local; only the remote with one, remote; neither, the remote item when
    /// the remote settings are newer or the key is missing locally.
    private mutating func mergeCustomData(_ items: [CustomDataItem], remoteSettingsNewer: Bool) {
        for item in items {
            let index = meta.customData.firstIndex { $0.key == item.key }
            let localTime = index.flatMap { meta.customData[$0].lastModification }
            let takesRemote: Bool
            switch (localTime, item.lastModification) {
            case let (local?, remote?): takesRemote = remote > local
            case (_?, nil): takesRemote = false
            case (nil, _?): takesRemote = true
            case (nil, nil): takesRemote = remoteSettingsNewer || index == nil
            }
            guard takesRemote else { continue }
            if let index {
                meta.customData[index].value = item.value
                meta.customData[index].lastModification = item.lastModification
            } else {
                meta.customData.append(item)
            }
        }
    }

    /// Custom icons (KeePass 2.48+ `MergeInCustomIcons`): a remote icon missing locally is added; one
    /// on both sides is replaced when the remote 4.1 modification time is newer (or only the remote
    /// has one). Then an icon with a deleted-object record is removed unless modified after it (the
    /// record is dropped then), and references to removed icons are cleared.
    mutating func mergeCustomIcons() {
        for icon in remote.meta.customIcons {
            guard let index = meta.customIcons.firstIndex(where: { $0.uuid == icon.uuid }) else {
                meta.customIcons.append(icon)
                continue
            }
            switch (meta.customIcons[index].lastModification, icon.lastModification) {
            case let (local?, remote?) where remote > local: meta.customIcons[index] = icon
            case (nil, _?): meta.customIcons[index] = icon
            default: break
            }
        }
        var deletionTimes: [KDBXUUID: KDBXTime] = [:]
        for record in deletedObjects { deletionTimes[record.uuid] = record.deletionTime }
        var removed: Set<KDBXUUID> = [], survived: Set<KDBXUUID> = []
        for icon in meta.customIcons {
            guard let time = deletionTimes[icon.uuid] else { continue }
            if let modified = icon.lastModification, modified > time {
                survived.insert(icon.uuid)
            } else {
                removed.insert(icon.uuid)
            }
        }
        if !survived.isEmpty { deletedObjects.removeAll { survived.contains($0.uuid) } }
        if !removed.isEmpty { meta.customIcons.removeAll { removed.contains($0.uuid) } }
        // KeePass's `FixCustomIconRefs`: no group, entry or history item keeps a reference to an icon
        // the merged vault does not hold.
        let held = Set(meta.customIcons.map { $0.uuid })
        for uuid in Array(tree.nodes.keys) {
            if let icon = tree.nodes[uuid]!.group.customIconUUID, !held.contains(icon) {
                tree.nodes[uuid]!.group.customIconUUID = nil
            }
        }
        func clear(_ entry: inout Entry) {
            if let icon = entry.customIconUUID, !held.contains(icon) { entry.customIconUUID = nil }
        }
        for uuid in Array(tree.entries.keys) {
            clear(&tree.entries[uuid]!)
            for index in tree.entries[uuid]!.history.indices { clear(&tree.entries[uuid]!.history[index]) }
        }
    }

    /// The merged vault keeps the local version unless its content needs more: times are merge
    /// bookkeeping, not content. A local vault below KDBX 4.1 (which has no place for the times of
    /// meta custom data items and custom icons) takes none from the other copy: the item or icon
    /// that won is kept without its time. KeePassXC stamps such times on every item when it loads a
    /// file and writes them whenever it saves KDBX 4.1 (which it does as soon as an entry or group
    /// was moved or deleted: `PreviousParentGroup`), so without this a merge with such a copy would
    /// raise a KDBX 3.1 or 4.0 vault to 4.1, locking out KeePass before 2.48 and 3.1-only apps.
    mutating func dropTimesTheLocalVersionCannotHold() {
        guard local.format.version < .v4_1 else { return }
        let localItems = MergeComparison.firstByKey(local.meta.customData) { $0.key }
        for index in meta.customData.indices where localItems[meta.customData[index].key]?.lastModification == nil {
            meta.customData[index].lastModification = nil
        }
        let localIcons = MergeComparison.firstByKey(local.meta.customIcons) { $0.uuid }
        for index in meta.customIcons.indices where localIcons[meta.customIcons[index].uuid]?.lastModification == nil {
            meta.customIcons[index].lastModification = nil
        }
    }
}
