import MyPassKDBX

/// Builds the group tree of an import: entries are added under a group path, groups are made on
/// first use (KeePass's folder icon 48, times `now`), in the order they first appear.
struct ImportTreeBuilder {
    /// The tree so far; the root's name is empty (the caller names it).
    private(set) var root: Group
    let now: KDBXTime

    init(now: KDBXTime) {
        self.now = now
        root = Group(name: "", iconID: 48, times: Times(all: now))
    }

    /// A new entry with the five standard fields (the password protected, as KeePass's defaults).
    static func newEntry(now: KDBXTime) -> Entry {
        var entry = Entry(uuid: .random(), times: Times(all: now))
        for key in Entry.StandardField.all {
            entry.setValue("", for: key, isProtected: key == Entry.StandardField.password)
        }
        return entry
    }

    /// Makes the groups of `path` below the root (as needed) and returns nothing; see ``add(_:at:)``.
    mutating func ensure(_ path: [String]) {
        Self.ensure(path[...], in: &root, now: now)
    }

    /// Adds `entry` to the group at `path` (names below the root), making the groups as needed.
    mutating func add(_ entry: Entry, at path: [String]) {
        Self.insert(entry, path: path[...], in: &root, now: now)
    }

    private static func ensure(_ path: ArraySlice<String>, in group: inout Group, now: KDBXTime) {
        guard let name = path.first else { return }
        if let index = group.groups.firstIndex(where: { $0.name == name }) {
            ensure(path.dropFirst(), in: &group.groups[index], now: now)
        } else {
            var child = Group(name: name, iconID: 48, times: Times(all: now))
            ensure(path.dropFirst(), in: &child, now: now)
            group.groups.append(child)
        }
    }

    private static func insert(_ entry: Entry, path: ArraySlice<String>, in group: inout Group, now: KDBXTime) {
        guard let name = path.first else {
            group.entries.append(entry)
            return
        }
        if group.groups.firstIndex(where: { $0.name == name }) == nil {
            group.groups.append(Group(name: name, iconID: 48, times: Times(all: now)))
        }
        let index = group.groups.firstIndex(where: { $0.name == name })!
        insert(entry, path: path.dropFirst(), in: &group.groups[index], now: now)
    }
}
