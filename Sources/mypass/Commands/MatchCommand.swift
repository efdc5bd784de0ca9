import MyPassCore
import MyPassKDBX

/// `mypass match VAULT SERVICE [--all] [--json]`: what AutoFill would suggest, best first (then
/// the rest with `--all`); exit code 5 (``ExitCode/noMatch``) without a suggestion.
enum MatchCommand {
    static func run(_ parsed: ParsedArguments) throws {
        let (context, _) = try VaultContext.open(parsed)
        let service = parsed.required("service")
        // The candidates are the entries the unfiltered list shows (the recycle bin stays out).
        let entries = context.vault.displayedEntries(groups: [], search: "")
        let matches = CredentialMatcher().match(serviceIdentifier: service, in: entries)
        let all = parsed.flag("all")
        // Without a suggestion the command says so by its exit code alone (no error line).
        let outcome: CLIError? = matches.suggested.isEmpty ? CLIError(.noMatch, "") : nil
        if parsed.flag("json") {
            var members: [(String, JSON)] = [("suggestions", .array(matches.suggested.map { EntryJSON.summary(LocatedEntry($0)) }))]
            if all { members.append(("others", .array(matches.others.map { EntryJSON.summary(LocatedEntry($0)) }))) }
            Console.line(JSON.object(members).prettyPrinted)
            if let outcome { throw outcome }
            return
        }
        func rows(_ items: [FlatEntry]) -> String {
            Text.columns(items.map {
                ["  " + Text.oneLine($0.entry.title), Text.oneLine($0.entry.userName), Text.oneLine(Text.breadcrumb($0.breadcrumb))]
            })
        }
        var out = "Suggestions for \(service):\n"
        out += matches.suggested.isEmpty ? "  (none)\n" : rows(matches.suggested)
        if all {
            out += "Other entries:\n"
            out += matches.others.isEmpty ? "  (none)\n" : rows(matches.others)
        }
        Console.out(out)
        if let outcome { throw outcome }
    }
}
