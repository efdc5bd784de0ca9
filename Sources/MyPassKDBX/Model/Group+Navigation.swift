extension Group {
    /// This group and all groups below it, pre-order (a group, then each child's subtree, children
    /// in stored order), the order of the vault manifest's `groups`.
    public var allGroups: [Group] {
        var out: [Group] = []
        forEachGroup { group, _ in out.append(group) }
        return out
    }

    /// Calls `body` for this group and every group below it, pre-order, with the path of names from
    /// below this group down to the visited one (`[]` for this group).
    public func forEachGroup<E: Error>(_ body: (Group, [String]) throws(E) -> Void) throws(E) {
        try visit(path: [], body)
    }

    private func visit<E: Error>(path: [String], _ body: (Group, [String]) throws(E) -> Void) throws(E) {
        try body(self, path)
        for child in groups { try child.visit(path: path + [child.name], body) }
    }

    /// All current entries of this subtree (not history), group by group in pre-order, each group's
    /// entries in stored order (the order of the vault manifest's `entries`).
    public var allEntries: [Entry] {
        var out: [Entry] = []
        forEachGroup { group, _ in out.append(contentsOf: group.entries) }
        return out
    }

    /// The group with `uuid` in this subtree (this group included), or `nil`.
    public func group(withUUID uuid: KDBXUUID) -> Group? {
        if self.uuid == uuid { return self }
        for child in groups {
            if let found = child.group(withUUID: uuid) { return found }
        }
        return nil
    }

    /// The entry with `uuid` in this subtree (current entries, not history), or `nil`.
    public func entry(withUUID uuid: KDBXUUID) -> Entry? {
        if let found = entries.first(where: { $0.uuid == uuid }) { return found }
        for child in groups {
            if let found = child.entry(withUUID: uuid) { return found }
        }
        return nil
    }

    /// The chain of groups from this one down to the group with `uuid` (both included), or `nil`.
    public func groupChain(to uuid: KDBXUUID) -> [Group]? {
        if self.uuid == uuid { return [self] }
        for child in groups {
            if let chain = child.groupChain(to: uuid) { return [self] + chain }
        }
        return nil
    }

    /// The group in this subtree that directly holds the entry `uuid`, or `nil`.
    public func parentOfEntry(_ uuid: KDBXUUID) -> Group? {
        if entries.contains(where: { $0.uuid == uuid }) { return self }
        for child in groups {
            if let found = child.parentOfEntry(uuid) { return found }
        }
        return nil
    }

    /// The group in this subtree whose child is the group `uuid`, or `nil` (also for this group).
    public func parentOfGroup(_ uuid: KDBXUUID) -> Group? {
        if groups.contains(where: { $0.uuid == uuid }) { return self }
        for child in groups {
            if let found = child.parentOfGroup(uuid) { return found }
        }
        return nil
    }

    /// Runs `body` on the group with `uuid` in this subtree, in place; returns `nil` when not found.
    @discardableResult
    public mutating func modifyGroup<R, E: Error>(
        withUUID uuid: KDBXUUID, _ body: (inout Group) throws(E) -> R
    ) throws(E) -> R? {
        if self.uuid == uuid { return try body(&self) }
        for index in groups.indices {
            if let result = try groups[index].modifyGroup(withUUID: uuid, body) { return result }
        }
        return nil
    }

    /// Runs `body` on the entry with `uuid` in this subtree, in place; returns `nil` when not found.
    @discardableResult
    public mutating func modifyEntry<R, E: Error>(
        withUUID uuid: KDBXUUID, _ body: (inout Entry) throws(E) -> R
    ) throws(E) -> R? {
        if let index = entries.firstIndex(where: { $0.uuid == uuid }) { return try body(&entries[index]) }
        for index in groups.indices {
            if let result = try groups[index].modifyEntry(withUUID: uuid, body) { return result }
        }
        return nil
    }

    /// Removes the entry `uuid` from this subtree and returns it, or `nil` when not found.
    @discardableResult
    public mutating func removeEntry(withUUID uuid: KDBXUUID) -> Entry? {
        if let index = entries.firstIndex(where: { $0.uuid == uuid }) { return entries.remove(at: index) }
        for index in groups.indices {
            if let removed = groups[index].removeEntry(withUUID: uuid) { return removed }
        }
        return nil
    }

    /// Removes the group `uuid` (with its subtree) from below this group and returns it, or `nil`
    /// when not found (this group itself cannot be removed this way).
    @discardableResult
    public mutating func removeGroup(withUUID uuid: KDBXUUID) -> Group? {
        if let index = groups.firstIndex(where: { $0.uuid == uuid }) { return groups.remove(at: index) }
        for index in groups.indices {
            if let removed = groups[index].removeGroup(withUUID: uuid) { return removed }
        }
        return nil
    }

    /// The number of groups in this subtree, this one included.
    public var groupCount: Int { 1 + groups.reduce(0) { $0 + $1.groupCount } }

    /// The number of current entries in this subtree.
    public var entryCount: Int { entries.count + groups.reduce(0) { $0 + $1.entryCount } }
}
