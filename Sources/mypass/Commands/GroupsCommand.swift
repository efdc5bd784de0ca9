import MyPassCore
import MyPassKDBX

/// `mypass groups VAULT`: the group tree, one group per line, indented by depth, with entry counts
/// aligned; `--paths`: each group's path as commands take it.
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
        if parsed.flag("paths") {
            Console.out(groups.filter { !$0.path.isEmpty }.map { Text.oneLine(Vault.displayPath($0.path)) + "\n" }.joined())
            return
        }
        // The tree in one column, the entry counts aligned in the next (in terminal columns).
        let rows = groups.map { located -> [String] in
            let (group, path) = (located.group, located.path)
            let indent = String(repeating: "  ", count: path.count)
            let name = path.isEmpty ? Text.oneLine(group.name) : Text.oneLine(group.name) + "/"
            let count = group.entries.count
            return [indent + name, count > 0 ? "(\(count) \(count == 1 ? "entry" : "entries"))" : ""]
        }
        Console.out(Text.columns(rows))
    }
}
