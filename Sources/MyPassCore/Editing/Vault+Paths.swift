import MyPassKDBX

/// An entry found by name, with where it lives.
public struct LocatedEntry: Sendable, Equatable {
    /// The entry.
    public var entry: Entry
    /// The names of its group's chain below the root (`["Work", "Email"]`).
    public var groupPath: [String]
    /// The UUID of the group holding it.
    public var groupUUID: KDBXUUID

    /// A located entry from its parts.
    public init(entry: Entry, groupPath: [String], groupUUID: KDBXUUID) {
        self.entry = entry
        self.groupPath = groupPath
        self.groupUUID = groupUUID
    }

    /// The entry's path components: group names, then the title.
    public var path: [String] { groupPath + [entry.title] }
}

/// A group found by name, with its path.
public struct LocatedGroup: Sendable, Equatable {
    /// The group.
    public var group: Group
    /// The names of its chain below the root (`[]` for the root).
    public var path: [String]

    /// A located group from its parts.
    public init(group: Group, path: [String]) {
        self.group = group
        self.path = path
    }
}

extension Vault {
    /// Every current entry with its group path, pre-order (the manifest's order).
    public var locatedEntries: [LocatedEntry] {
        var out: [LocatedEntry] = []
        root.forEachGroup { group, path in
            for entry in group.entries { out.append(LocatedEntry(entry: entry, groupPath: path, groupUUID: group.uuid)) }
        }
        return out
    }

    /// The current entry with `uuid` and where it lives (the first in pre-order), or `nil`; walks
    /// the tree without collecting the other entries.
    public func locatedEntry(withUUID uuid: KDBXUUID) -> LocatedEntry? {
        var found: LocatedEntry?
        root.forEachGroup { group, path in
            guard found == nil, let entry = group.entries.first(where: { $0.uuid == uuid }) else { return }
            found = LocatedEntry(entry: entry, groupPath: path, groupUUID: group.uuid)
        }
        return found
    }

    /// Every group with its path below the root, pre-order.
    public var locatedGroups: [LocatedGroup] {
        var out: [LocatedGroup] = []
        root.forEachGroup { group, path in out.append(LocatedGroup(group: group, path: path)) }
        return out
    }

    /// The entry named by `path`: a UUID (32 hex digits, dashes and braces allowed) or a path
    /// `Group/Sub/Title` below the root, as keepassxc-cli names entries (a leading `/` is allowed;
    /// `\/` is a `/` inside a name and `\\` a backslash, see ``pathComponents(_:)``).
    ///
    /// A bare title (no unescaped `/`, no leading `/`) that no entry of the root has names the one
    /// entry with that title anywhere in the vault, the recycle bin left out (keepassxc-cli finds
    /// an entry by its title the same way, but takes the first of several).
    ///
    /// - Throws: ``CoreError/Code/notFound`` when nothing matches (the reason suggests up to three
    ///   entry paths: those that differ only in case or by at most two edits,
    ///   `suggestions(for:among:)`, then those of entries whose title is that close to the typed
    ///   one, the recycle bin included); ``CoreError/Code/ambiguous`` when the path names several
    ///   entries (the reason lists what tells them apart: UUID, user name, last modification time)
    ///   or a bare title several entries outside the recycle bin (the reason lists their paths,
    ///   UUIDs and user names).
    public func resolveEntry(path: String) throws(CoreError) -> LocatedEntry {
        // Only the matches are collected (a list of every entry costs as much memory as the
        // entries themselves); the full list is built for the suggestions of a failed lookup.
        if let uuid = Vault.uuid(from: path), let found = locatedEntry(withUUID: uuid) {
            return found
        }
        let components = Vault.pathComponents(path)
        guard let title = components.last else { throw CoreError(.notFound, "no entry '\(path)'") }
        let groupPath = Array(components.dropLast())
        var candidates: [LocatedEntry] = []
        root.forEachGroup { group, path in
            guard path == groupPath else { return }
            for entry in group.entries where entry.title == title {
                candidates.append(LocatedEntry(entry: entry, groupPath: path, groupUUID: group.uuid))
            }
        }
        if candidates.count == 1 { return candidates[0] }
        if candidates.isEmpty {
            if Vault.isBareTitle(path) {
                let titled = entries(titled: title)
                if titled.count == 1 { return titled[0] }
                if titled.count > 1 {
                    let list = titled.map { candidate in
                        let user = candidate.entry.userName.isEmpty ? "no user name" : "user name '\(candidate.entry.userName)'"
                        return "\(Vault.displayPath(candidate.path)) (\(candidate.entry.uuid.hexString), \(user))"
                    }
                    throw CoreError(.ambiguous, "'\(title)' names \(titled.count) entries; give its path or UUID: \(list.joined(separator: ", "))")
                }
            }
            let all = locatedEntries
            let typed = Vault.displayPath(components)
            var suggested = Vault.suggestions(for: typed, among: all.map { Vault.displayPath($0.path) })
            for path in Vault.titleSuggestions(for: title, among: all) where suggested.count < 3 && path != typed && !suggested.contains(path) {
                suggested.append(path)
            }
            throw CoreError(.notFound, "no entry '\(path)'" + Vault.didYouMean(suggested))
        }
        let list = candidates.map { candidate in
            let user = candidate.entry.userName.isEmpty ? "no user name" : "user name '\(candidate.entry.userName)'"
            return "\(candidate.entry.uuid.hexString) (\(user), modified \(candidate.entry.times.lastModification.iso8601))"
        }
        throw CoreError(.ambiguous, "'\(Vault.displayPath(components))' names \(candidates.count) entries; use a UUID: \(list.joined(separator: ", "))")
    }

    /// Whether `path` is a bare title: one name, with no unescaped `/` anywhere (`GitHub`, `CI\/CD`).
    public static func isBareTitle(_ path: String) -> Bool {
        let parts = splitPath(path)
        return parts.count == 1 && !parts[0].isEmpty
    }

    /// The current entries titled exactly `title`, in pre-order, outside the recycle bin.
    func entries(titled title: String) -> [LocatedEntry] {
        var found: [LocatedEntry] = []
        let bin = meta.recycleBinUUID
        func walk(_ group: Group, path: [String]) {
            if group.uuid == bin && !bin.isZero { return }
            for entry in group.entries where entry.title == title {
                found.append(LocatedEntry(entry: entry, groupPath: path, groupUUID: group.uuid))
            }
            for child in group.groups { walk(child, path: path + [child.name]) }
        }
        walk(root, path: [])
        return found
    }

    /// The group named by `path` (`Work/Email`; `""` or `/` is the root), or by its UUID.
    ///
    /// - Throws: ``CoreError/Code/notFound`` (with suggestions, as ``resolveEntry(path:)``);
    ///   ``CoreError/Code/ambiguous`` when several groups have that path (the reason lists their
    ///   UUIDs, entry counts and last modification times).
    public func resolveGroup(path: String) throws(CoreError) -> LocatedGroup {
        let all = locatedGroups
        if let uuid = Vault.uuid(from: path), let found = all.first(where: { $0.group.uuid == uuid }) {
            return found
        }
        let components = Vault.pathComponents(path)
        let candidates = all.filter { $0.path == components }
        if candidates.count == 1 { return candidates[0] }
        if candidates.isEmpty {
            let known = all.filter { !$0.path.isEmpty }.map { Vault.displayPath($0.path) }
            throw CoreError(.notFound, "no group '\(path)'" + Vault.didYouMean(Vault.suggestions(for: Vault.displayPath(components), among: known)))
        }
        let list = candidates.map { candidate in
            "\(candidate.group.uuid.hexString) (\(candidate.group.entries.count) entries, modified \(candidate.group.times.lastModification.iso8601))"
        }
        throw CoreError(.ambiguous, "'\(Vault.displayPath(components))' names \(candidates.count) groups; use a UUID: \(list.joined(separator: ", "))")
    }

    /// `Work/Email/GitHub` split into names at each `/` that is not escaped; `\/` stands for a
    /// `/` inside a name and `\\` for a backslash (any other backslash is kept as it is). Empty
    /// components (a leading, trailing or doubled `/`) are dropped.
    public static func pathComponents(_ path: String) -> [String] {
        splitPath(path).filter { !$0.isEmpty }
    }

    /// A new entry's path split into its group path and title, as `add` takes it.
    ///
    /// - Throws: ``CoreError/Code/invalidOperation`` when the title (the part after the last
    ///   unescaped `/`) is empty, as in `Work/` or `""`.
    public static func entryPathComponents(_ path: String) throws(CoreError) -> (groupPath: [String], title: String) {
        var parts = splitPath(path)
        guard let title = parts.popLast(), !title.isEmpty else {
            throw CoreError(.invalidOperation, "the path '\(path)' must end with the new entry's title")
        }
        return (parts.filter { !$0.isEmpty }, title)
    }

    /// Every component, empty ones included, with the escapes resolved.
    private static func splitPath(_ path: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var iterator = path.makeIterator()
        while let character = iterator.next() {
            switch character {
            case "\\":
                guard let next = iterator.next() else { current.append(character); continue }
                if next == "/" || next == "\\" {
                    current.append(next)
                } else {
                    current.append(character)
                    current.append(next)
                }
            case "/":
                parts.append(current)
                current = ""
            default:
                current.append(character)
            }
        }
        parts.append(current)
        return parts
    }

    /// One name as a path component: `\` becomes `\\` and `/` becomes `\/`.
    public static func escapedPathComponent(_ name: String) -> String {
        var out = ""
        for character in name {
            if character == "\\" || character == "/" { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// A path as the user types it: `Work/Email/GitHub`, each name escaped
    /// (``escapedPathComponent(_:)``), so that ``pathComponents(_:)`` gives the names back.
    public static func displayPath(_ components: [String]) -> String {
        components.map(escapedPathComponent).joined(separator: "/")
    }

    /// A UUID written as 32 hex digits (with optional dashes and braces), or nil.
    public static func uuid(from text: String) -> KDBXUUID? {
        let digits = text.filter { $0 != "-" && $0 != "{" && $0 != "}" }
        guard digits.count == 32, digits.allSatisfy({ $0.isHexDigit }) else { return nil }
        return KDBXUUID(hex: digits.lowercased())
    }
}
