import MyPassKDBX

extension Vault {
    /// Every current entry with its group path, pre-order (the manifest's order).
    var locatedEntries: [LocatedEntry] {
        var out: [LocatedEntry] = []
        root.forEachGroup { group, path in
            for entry in group.entries { out.append(LocatedEntry(entry: entry, groupPath: path, groupUUID: group.uuid)) }
        }
        return out
    }

    /// Every group with its path below the root, pre-order.
    var locatedGroups: [(group: Group, path: [String])] {
        var out: [(Group, [String])] = []
        root.forEachGroup { group, path in out.append((group, path)) }
        return out
    }

    /// The entry named by `name`: a UUID (32 hex digits, dashes and braces allowed) or a path
    /// `Group/Sub/Title` below the root (a leading `/` is allowed), as keepassxc-cli names entries.
    ///
    /// - Throws: `CLIError` (exit 1) when nothing matches, or when the path names several entries
    ///   (the message lists each candidate's UUID and path).
    func locateEntry(_ name: String) throws(CLIError) -> LocatedEntry {
        let all = locatedEntries
        if let uuid = Vault.uuid(from: name), let found = all.first(where: { $0.entry.uuid == uuid }) {
            return found
        }
        let components = Vault.pathComponents(name)
        guard let title = components.last else { throw .failure("no entry '\(name)'") }
        let groupPath = Array(components.dropLast())
        let candidates = all.filter { $0.groupPath == groupPath && $0.entry.title == title }
        if candidates.count == 1 { return candidates[0] }
        if candidates.isEmpty { throw .failure("no entry '\(name)'") }
        let list = candidates.map { "\($0.entry.uuid.hexString) (\(Vault.display($0.groupPath + [$0.entry.title])))" }
        throw .failure("'\(name)' names \(candidates.count) entries; use a UUID: \(list.joined(separator: ", "))")
    }

    /// The group named by `path` (`Work/Email`; `""` or `/` is the root), or by its UUID.
    ///
    /// - Throws: `CLIError` (exit 1) when no group or several groups have that path.
    func locateGroup(_ path: String) throws(CLIError) -> (group: Group, path: [String]) {
        let all = locatedGroups
        if let uuid = Vault.uuid(from: path), let found = all.first(where: { $0.group.uuid == uuid }) {
            return found
        }
        let components = Vault.pathComponents(path)
        let candidates = all.filter { $0.path == components }
        if candidates.count == 1 { return candidates[0] }
        if candidates.isEmpty { throw .failure("no group '\(path)'") }
        let list = candidates.map { $0.group.uuid.hexString }
        throw .failure("'\(path)' names \(candidates.count) groups; use a UUID: \(list.joined(separator: ", "))")
    }

    /// `Work/Email/GitHub` split into names; empty components (leading or doubled `/`) dropped.
    static func pathComponents(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }

    /// A path as the user types it: `Work/Email/GitHub`.
    static func display(_ components: [String]) -> String { components.joined(separator: "/") }

    /// A UUID written as 32 hex digits (with optional dashes and braces), or nil.
    static func uuid(from text: String) -> KDBXUUID? {
        let digits = text.filter { $0 != "-" && $0 != "{" && $0 != "}" }
        guard digits.count == 32, digits.allSatisfy(\.isHexDigit) else { return nil }
        return KDBXUUID(hex: digits.lowercased())
    }
}
