import MyPassKDBX

/// `mypass ls VAULT [--group PATH ...] [--search TEXT] [--json]`: the app's flat list.
enum ListCommand {
    static func run(_ parsed: ParsedArguments) throws {
        let (context, _) = try VaultContext.open(parsed)
        let vault = context.vault
        var selected = Set<KDBXUUID>()
        for path in parsed.values("group") {
            let (group, _) = try vault.locateGroup(path)
            selected.formUnion(PendingListing.subtree(of: group))
        }
        let entries = PendingListing.displayed(in: vault, selectedGroups: selected, search: parsed.value("search") ?? "")
        if parsed.flag("json") {
            Console.line(JSON.array(entries.map { EntryJSON.summary($0, detailed: true) }).prettyPrinted)
            return
        }
        let rows = entries.map { located in
            [Text.oneLine(located.entry.title), Text.oneLine(located.entry.userName), Text.oneLine(Text.breadcrumb(located.groupPath))]
        }
        Console.out(Text.columns(rows))
    }
}
