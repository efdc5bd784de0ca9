import MyPassKDBX

/// An entry found by a command-line name, with where it lives.
struct LocatedEntry {
    var entry: Entry
    /// The names of its group's chain below the root (`["Work", "Email"]`).
    var groupPath: [String]
    /// The UUID of the group holding it.
    var groupUUID: KDBXUUID
}
