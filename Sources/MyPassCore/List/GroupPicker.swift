import MyPassKDBX

/// One choice of the add/edit group picker.
public struct GroupChoice: Sendable, Equatable, Identifiable {
    /// The group's UUID.
    public let uuid: KDBXUUID
    /// The names from the root down to this group, the root's own name first
    /// (`["Passwords", "Work", "Email"]`).
    public let path: [String]
    /// Nesting depth: 0 for the root.
    public var depth: Int { path.count - 1 }

    public var id: KDBXUUID { uuid }

    /// The full path for display (`Passwords / Work / Email`).
    public func displayPath(separator: String = " / ") -> String { path.joined(separator: separator) }
}

/// The group picker of the add/edit screen: every group by its full path, and the default group.
public enum GroupPicker {
    /// Every group of the vault, pre-order from the root, with its full path.
    public static func choices(in vault: Vault) -> [GroupChoice] {
        var out: [GroupChoice] = []
        vault.root.forEachGroup { group, path in
            out.append(GroupChoice(uuid: group.uuid, path: [vault.root.name] + path))
        }
        return out
    }

    /// The group a new entry goes to: the selected filter group when the selection is exactly one
    /// group with its whole subtree, otherwise the root. Always a group present in `vault`.
    public static func defaultGroup(in vault: Vault, filter: GroupFilter) -> KDBXUUID {
        if let uuid = filter.singleSelectedSubtree(in: vault.root), vault.group(withUUID: uuid) != nil {
            return uuid
        }
        return vault.root.uuid
    }
}
