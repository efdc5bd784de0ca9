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

    /// Every group with its path below the root, pre-order.
    public var locatedGroups: [LocatedGroup] {
        var out: [LocatedGroup] = []
        root.forEachGroup { group, path in out.append(LocatedGroup(group: group, path: path)) }
        return out
    }

    /// The entry named by `path`: a UUID (32 hex digits, dashes and braces allowed) or a path
    /// `Group/Sub/Title` below the root, as keepassxc-cli names entries (a leading `/` is allowed;
    /// see ``pathComponents(_:)`` for escapes).
    ///
    /// - Throws: ``CoreError/Code/notFound`` when nothing matches; ``CoreError/Code/ambiguous``
    ///   when the path names several entries (the reason lists each one's UUID and path).
    public func resolveEntry(path: String) throws(CoreError) -> LocatedEntry {
        let all = locatedEntries
        if let uuid = Vault.uuid(from: path), let found = all.first(where: { $0.entry.uuid == uuid }) {
            return found
        }
        let components = Vault.pathComponents(path)
        guard let title = components.last else { throw CoreError(.notFound, "no entry '\(path)'") }
        let groupPath = Array(components.dropLast())
        let candidates = all.filter { $0.groupPath == groupPath && $0.entry.title == title }
        if candidates.count == 1 { return candidates[0] }
        if candidates.isEmpty { throw CoreError(.notFound, "no entry '\(path)'") }
        let list = candidates.map { "\($0.entry.uuid.hexString) (\(Vault.displayPath($0.path)))" }
        throw CoreError(.ambiguous, "'\(path)' names \(candidates.count) entries; use a UUID: \(list.joined(separator: ", "))")
    }

    /// The group named by `path` (`Work/Email`; `""` or `/` is the root), or by its UUID.
    ///
    /// - Throws: ``CoreError/Code/notFound``; ``CoreError/Code/ambiguous`` when several groups
    ///   have that path (the reason lists their UUIDs).
    public func resolveGroup(path: String) throws(CoreError) -> LocatedGroup {
        let all = locatedGroups
        if let uuid = Vault.uuid(from: path), let found = all.first(where: { $0.group.uuid == uuid }) {
            return found
        }
        let components = Vault.pathComponents(path)
        let candidates = all.filter { $0.path == components }
        if candidates.count == 1 { return candidates[0] }
        if candidates.isEmpty { throw CoreError(.notFound, "no group '\(path)'") }
        let list = candidates.map { $0.group.uuid.hexString }
        throw CoreError(.ambiguous, "'\(path)' names \(candidates.count) groups; use a UUID: \(list.joined(separator: ", "))")
    }

    /// `Work/Email/GitHub` split into names; empty components (leading or doubled `/`) dropped.
    public static func pathComponents(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }

    /// A path as the user types it: `Work/Email/GitHub`.
    public static func displayPath(_ components: [String]) -> String { components.joined(separator: "/") }

    /// A UUID written as 32 hex digits (with optional dashes and braces), or nil.
    public static func uuid(from text: String) -> KDBXUUID? {
        let digits = text.filter { $0 != "-" && $0 != "{" && $0 != "}" }
        guard digits.count == 32, digits.allSatisfy(\.isHexDigit) else { return nil }
        return KDBXUUID(hex: digits.lowercased())
    }
}
