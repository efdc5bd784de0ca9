import MyPassBytes
import MyPassKDBX

/// The comparisons the merge makes, as KeePass makes them (`TimeUtil.Compare`, `PwEntry.EqualsEntry`).
enum MergeComparison {
    /// KeePass 1.x wrote 2999-12-28 23:59:59 for "unknown"; with time-zone damage it lands anywhere
    /// from 2999-12-27 23:59:59 to 2999-12-29 23:59:59 with minute and second 59.
    private static let unknownLow = KDBXTime(year: 2999, month: 12, day: 27, hour: 23, minute: 59, second: 59)!
    private static let unknownHigh = KDBXTime(year: 2999, month: 12, day: 29, hour: 23, minute: 59, second: 59)!

    /// -1, 0 or 1 as `a` is before, at or after `b` (whole seconds), an "unknown" time counting as
    /// the past (`TimeUtil.Compare(a, b, bUnkIsPast: true)`).
    static func compare(_ a: KDBXTime, _ b: KDBXTime) -> Int {
        let unknownA = isUnknown(a), unknownB = isUnknown(b)
        if unknownA { return unknownB ? 0 : -1 }
        if unknownB { return 1 }
        return a < b ? -1 : (a == b ? 0 : 1)
    }

    private static func isUnknown(_ time: KDBXTime) -> Bool {
        guard time >= unknownLow, time <= unknownHigh else { return false }
        return time.secondsSinceEpoch % 3600 == 3599
    }

    /// Whether two states of an entry hold the same data, as KeePass's `PwEntry.EqualsEntry` with
    /// `IgnoreParentGroup | IgnoreLastAccess | IgnoreHistory | NullEmptyEquivStd` sees them: fields (a
    /// missing standard field equals an empty one; protection flags and field order aside),
    /// attachments, auto-type, icons, colours, override URL, quality check, tags (as a set: KeePass
    /// 2.5x normalises their order, KeePassXC sorts them), custom data and the creation, modification
    /// and expiry times. Parent, location, last access, usage count and history are not compared.
    ///
    /// With `ignoringBookkeeping`, what clients keep or write their own way is left out too: custom
    /// data items that are only one client's bookkeeping (``bookkeepingKeys``), the protection flags
    /// of attachments, and the standard icon number beside a custom icon: what decides whether two states *really* differ (a
    /// tie that puts the losing state into the history, a conflict in the log, an update in the
    /// change log). KeePass's own decisions (which state a backup is made of, whether a
    /// history already holds a state) use the exact comparison.
    static func sameData(_ a: Entry, _ b: Entry, ignoringBookkeeping: Bool = false) -> Bool {
        guard a.uuid == b.uuid, sameIcon(a.iconID, a.customIconUUID, b.iconID, b.customIconUUID, ignoringBookkeeping),
              a.foregroundColor.uppercased() == b.foregroundColor.uppercased(),
              a.backgroundColor.uppercased() == b.backgroundColor.uppercased(),
              a.overrideURL == b.overrideURL, a.qualityCheck == b.qualityCheck, sameTags(a.tags, b.tags),
              a.times.creation == b.times.creation, a.times.lastModification == b.times.lastModification,
              a.times.expiry == b.times.expiry, a.times.expires == b.times.expires,
              a.autoType == b.autoType,
              sameCustomData(a.customData, b.customData, ignoringBookkeeping: ignoringBookkeeping),
              a.unknownElements == b.unknownElements
        else { return false }
        return sameFields(a.fields, b.fields)
            && sameAttachments(a.attachments, b.attachments, ignoringProtection: ignoringBookkeeping)
    }

    /// The same icon: the same standard icon and custom icon; `ignoringBookkeeping`, the standard
    /// icon is left out when both show the same custom icon (KeePassXC writes icon 0 then, KeePass
    /// keeps the fallback number).
    private static func sameIcon(_ a: Int, _ aCustom: KDBXUUID?, _ b: Int, _ bCustom: KDBXUUID?, _ ignoringBookkeeping: Bool) -> Bool {
        guard aCustom == bCustom else { return false }
        return a == b || (ignoringBookkeeping && aCustom != nil)
    }

    private static func sameFields(_ a: [EntryField], _ b: [EntryField]) -> Bool {
        func table(_ fields: [EntryField]) -> [String: EntryField] {
            var out: [String: EntryField] = [:]
            for field in fields {
                if field.utf8Count == 0, Entry.StandardField.all.contains(field.key) { continue }
                out[field.key] = field
            }
            return out
        }
        let left = table(a), right = table(b)
        guard left.count == right.count else { return false }
        for (key, field) in left {
            guard let other = right[key], field.hasSameValue(as: other) else { return false }
        }
        return true
    }

    /// Attachments by name, with their content and (unless `ignoringProtection`: memory protection
    /// is not data, and KeePassXC sets it its own way) their protection flag, as KeePass's
    /// `ProtectedBinary.Equals` compares them.
    private static func sameAttachments(_ a: [Attachment], _ b: [Attachment], ignoringProtection: Bool) -> Bool {
        guard a.count == b.count else { return false }
        let byName = firstByKey(b) { $0.name }
        return a.allSatisfy { attachment in
            guard let other = byName[attachment.name] else { return false }
            if ignoringProtection {
                return other.data == attachment.data && other.unknownElements == attachment.unknownElements
            }
            return other == attachment
        }
    }

    /// `items` by `key`, the first of several with the same key kept (what
    /// `Dictionary(_:uniquingKeysWith:)` gives, without its rethrowing cast, which Embedded Swift lacks).
    static func firstByKey<Key: Hashable, Item>(_ items: [Item], _ key: (Item) -> Key) -> [Key: Item] {
        var out: [Key: Item] = [:]
        out.reserveCapacity(items.count)
        for item in items where out[key(item)] == nil { out[key(item)] = item }
        return out
    }

    /// Tags in any order, repeats aside.
    static func sameTags(_ a: [String], _ b: [String]) -> Bool { Set(a) == Set(b) }

    /// Whether two histories hold the same states, item by item (``sameData(_:_:ignoringBookkeeping:)``).
    static func sameHistory(_ a: [Entry], _ b: [Entry], ignoringBookkeeping: Bool = false) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { sameData($0, $1, ignoringBookkeeping: ignoringBookkeeping) }
    }

    /// Custom data keys that are one client's bookkeeping rather than data: KeePassXC's
    /// `_LAST_MODIFIED` (`CustomData::LastModified`), a time stamp it keeps beside the other items of
    /// a group's, an entry's or the database's custom data and rewrites whenever it sets an item,
    /// loading a file included, so two copies that KeePassXC merely opened and saved differ there.
    static let bookkeepingKeys: Set<String> = ["_LAST_MODIFIED"]

    /// Custom data of groups and entries as a key-value map, order and item times aside (KeePass
    /// `StringDictionaryEx.Equals`; KeePass reads no times for these items). `ignoringBookkeeping`:
    /// ``bookkeepingKeys`` are left out too.
    static func sameCustomData(_ a: [CustomDataItem], _ b: [CustomDataItem], ignoringBookkeeping: Bool = false) -> Bool {
        func table(_ items: [CustomDataItem]) -> [String: CustomDataItem] {
            var out: [String: CustomDataItem] = [:]
            for item in items where out[item.key] == nil {
                if ignoringBookkeeping && bookkeepingKeys.contains(item.key) { continue }
                out[item.key] = item
            }
            return out
        }
        let left = table(a), right = table(b)
        guard left.count == right.count else { return false }
        for (key, item) in left {
            guard let other = right[key], other.value == item.value else { return false }
        }
        return true
    }

    /// Whether two states of a group have the same properties: what KeePass's
    /// `PwGroup.AssignProperties` copies, last access and usage count aside; custom data as
    /// ``sameCustomData(_:_:ignoringBookkeeping:)`` compares it.
    static func sameProperties(_ a: Group, _ b: Group, ignoringBookkeeping: Bool = false) -> Bool {
        a.name == b.name && a.notes == b.notes
            && sameIcon(a.iconID, a.customIconUUID, b.iconID, b.customIconUUID, ignoringBookkeeping)
            && a.times.creation == b.times.creation && a.times.lastModification == b.times.lastModification
            && a.times.expiry == b.times.expiry && a.times.expires == b.times.expires
            && a.defaultAutoTypeSequence == b.defaultAutoTypeSequence && a.enableAutoType == b.enableAutoType
            && a.enableSearching == b.enableSearching && a.lastTopVisibleEntry == b.lastTopVisibleEntry
            && sameTags(a.tags, b.tags)
            && sameCustomData(a.customData, b.customData, ignoringBookkeeping: ignoringBookkeeping)
            && a.unknownElements == b.unknownElements
    }

    /// `group` with the properties of `template` that a newer remote state brings (KeePass
    /// `PwGroup.AssignProperties(template, bOnlyIfNewer, false)`): everything but the UUID,
    /// children, expansion state and location.
    static func assigning(_ template: Group, to group: Group) -> Group {
        var out = group
        out.name = template.name
        out.notes = template.notes
        out.iconID = template.iconID
        out.customIconUUID = template.customIconUUID
        let location = out.times.locationChanged
        out.times = template.times
        out.times.locationChanged = location
        out.defaultAutoTypeSequence = template.defaultAutoTypeSequence
        out.enableAutoType = template.enableAutoType
        out.enableSearching = template.enableSearching
        out.lastTopVisibleEntry = template.lastTopVisibleEntry
        out.tags = template.tags
        out.customData = template.customData
        out.unknownElements = template.unknownElements
        return out
    }

    /// `entry` with the data of `template` (KeePass `PwEntry.AssignProperties(template, bOnlyIfNewer,
    /// false, false)`): everything but the UUID, history, location and previous parent.
    static func assigning(_ template: Entry, to entry: Entry) -> Entry {
        var out = template
        out.uuid = entry.uuid
        out.history = entry.history
        out.times.locationChanged = entry.times.locationChanged
        out.previousParentGroup = entry.previousParentGroup
        return out
    }
}
