import MyPassCore
import MyPassKDBX

/// The JSON shapes of entries in `ls --json`, `match --json` and `show --json`.
enum EntryJSON {
    /// `{"uuid": HEX32, "title": ..., "username": ..., "path": [...]}` (issue 7's ENTRY), plus
    /// `url` and `tags` when `detailed`.
    static func summary(_ located: LocatedEntry, detailed: Bool = false) -> JSON {
        var members: [(String, JSON)] = [
            ("uuid", .string(located.entry.uuid.hexString)),
            ("title", .string(located.entry.title)),
            ("username", .string(located.entry.userName)),
            ("path", .array(located.groupPath.map { .string($0) })),
        ]
        if detailed {
            members.append(("url", .string(located.entry.url)))
            members.append(("tags", .array(located.entry.tags.map { .string($0) })))
        }
        return .object(members)
    }

    /// ``summary(_:detailed:)`` for an entry of the credential index (the same members).
    static func summary(_ credential: IndexedCredential, detailed: Bool = false) -> JSON {
        var members: [(String, JSON)] = [
            ("uuid", .string(credential.uuid.hexString)),
            ("title", .string(credential.title)),
            ("username", .string(credential.userName)),
            ("path", .array(credential.breadcrumb.map { .string($0) })),
        ]
        if detailed {
            members.append(("url", .string(credential.url)))
            members.append(("tags", .array(credential.tags.map { .string($0) })))
        }
        return .object(members)
    }
}
