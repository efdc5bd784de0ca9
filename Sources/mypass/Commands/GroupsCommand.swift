import MyPassCore
import MyPassKDBX

/// `mypass groups VAULT`: the group tree, one group per line, indented by depth, with entry counts.
enum GroupsCommand {
    static func run(_ parsed: ParsedArguments) throws {
        let (context, _) = try VaultContext.open(parsed)
        let groups = context.vault.locatedGroups
        if parsed.flag("json") {
            let items = groups.map { located in
                let (group, path) = (located.group, located.path)
                return
JSON.object([
                    ("uuid", .string(group.uuid.hexString)),
                    ("name", .string(group.name)),
                    ("path", .array(path.map { .string($0) })),
                    ("entries", .int(group.entries.count)),
                ])
            }
            Console.line(JSON.array(items).prettyPrinted)
            return
        }
        var out = ""
        for located in groups {
            let (group, path) = (located.group, located.path)
            let indent = String(repeating: "  ", count: path.count)
            let name = path.isEmpty ? Text.oneLine(group.name) : Text.oneLine(group.name) + "/"
            let count = group.entries.count
            out += "\(indent)\(name)\(count > 0 ? "  (\(count) \(count == 1 ? "entry" : "entries"))" : "")\n"
        }
        Console.out(out)
    }
}
