import MyPassCore
import MyPassKDBX

/// `mypass ls VAULT [GROUP] [--group PATH ...] [--search TEXT] [--paths] [--json]`: the app's flat list. Without
/// `--group` it needs nothing but the credential index (what AutoFill opens), so it streams the
/// vault into one; a group filter needs the group tree and opens the full model.
enum ListCommand {
    static func run(_ parsed: ParsedArguments) throws {
        let groups = parsed.values("group") + [parsed.positional("group")].compactMap { $0 }
        guard !groups.isEmpty else {
            let credentials = try VaultContext.openIndex(parsed).search(parsed.value("search") ?? "")
            if parsed.flag("json") {
                Console.line(JSON.array(credentials.map { EntryJSON.summary($0, detailed: true) }).prettyPrinted)
                return
            }
            if parsed.flag("paths") {
                Console.out(credentials.map { Text.oneLine(Vault.displayPath($0.breadcrumb + [$0.title])) + "\n" }.joined())
                return
            }
            Console.out(Text.columns(credentials.map {
                [$0.title, $0.userName, Text.breadcrumb($0.breadcrumb)]
            }))
            return
        }
        let (context, _) = try VaultContext.open(parsed)
        let vault = context.vault
        var selected: [KDBXUUID] = []
        for path in groups {
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
            [located.entry.title, located.entry.userName, Text.breadcrumb(located.groupPath)]
        }
        Console.out(Text.columns(rows))
    }
}
