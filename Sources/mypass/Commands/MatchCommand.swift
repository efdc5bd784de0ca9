import MyPassCore
import MyPassKDBX

/// `mypass match VAULT SERVICE [--json]`: what AutoFill would suggest, best first, then the rest.
enum MatchCommand {
    static func run(_ parsed: ParsedArguments) throws {
        let (context, _) = try VaultContext.open(parsed)
        let service = parsed.required("service")
        // The candidates are the entries the unfiltered list shows (the recycle bin stays out).
        let entries = context.vault.displayedEntries(groups: [], search: "")
        let matches = CredentialMatcher().match(serviceIdentifier: service, in: entries)
        if parsed.flag("json") {
            let json = JSON.object([
                ("suggestions", .array(matches.suggested.map { EntryJSON.summary(LocatedEntry($0)) })),
                ("others", .array(matches.others.map { EntryJSON.summary(LocatedEntry($0)) })),
            ])
            Console.line(json.prettyPrinted)
            return
        }
        func rows(_ items: [FlatEntry]) -> String {
            Text.columns(items.map {
                ["  " + Text.oneLine($0.entry.title), Text.oneLine($0.entry.userName), Text.oneLine(Text.breadcrumb($0.breadcrumb))]
            })
        }
        var out = "Suggestions for \(service):\n"
        out += matches.suggested.isEmpty ? "  (none)\n" : rows(matches.suggested)
        out += "Other entries:\n"
        out += matches.others.isEmpty ? "  (none)\n" : rows(matches.others)
        Console.out(out)
    }
}
