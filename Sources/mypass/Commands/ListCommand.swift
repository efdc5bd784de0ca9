import MyPassCore
import MyPassKDBX

/// `mypass ls VAULT [--group PATH ...] [--search TEXT] [--json]`: the app's flat list.
enum ListCommand {
    static func run(_ parsed: ParsedArguments) throws {
        let (context, _) = try VaultContext.open(parsed)
        let vault = context.vault
        var selected: [KDBXUUID] = []
        for path in parsed.values("group") {
            selected.append(try vault.resolveGroup(path: path).group.uuid)
        }
        let entries = vault.displayedEntries(groups: selected, search: parsed.value("search") ?? "").map(LocatedEntry.init)
        if parsed.flag("json") {
            Console.line(JSON.array(entries.map { EntryJSON.summary($0, detailed: true) }).prettyPrinted)
            return
        }
        if parsed.flag("paths") {
            Console.out(entries.map { Text.oneLine(Vault.displayPath($0.path)) + "\n" }.joined())
            return
        }
        let rows = entries.map { located in
            [Text.oneLine(located.entry.title), Text.oneLine(located.entry.userName), Text.oneLine(Text.breadcrumb(located.groupPath))]
        }
        Console.out(Text.columns(rows))
    }
}
