import MyPassCore
import MyPassKDBX

/// `mypass match VAULT SERVICE [--all] [--budget SIZE] [--json]`: what AutoFill would suggest,
/// best first (then the rest with `--all`); exit code 5 (``ExitCode/noMatch``) without a
/// suggestion. Opens through core's credential index, as the AutoFill extension does (the vault's
/// attachments, history and icons are streamed past, never kept); `--budget` refuses, before the
/// KDF, a vault whose KDF needs more memory than the extension has.
enum MatchCommand {
    static func run(_ parsed: ParsedArguments) throws {
        var budget: UInt64?
        if let text = parsed.value("budget") {
            guard let bytes = VaultContext.byteSize(text) else {
                throw parsed.usageError("--budget takes a size such as 50MB, 48MiB or 52428800")
            }
            budget = bytes
        }
        let index = try VaultContext.openIndex(parsed, budgetBytes: budget)
        let service = parsed.required("service")
        // The candidates are the entries the unfiltered list shows (the recycle bin stays out):
        // exactly the index's credentials.
        let matches = CredentialMatcher().match(serviceIdentifier: service, in: index.credentials)
        let all = parsed.flag("all")
        // Without a suggestion the command says so by its exit code alone (no error line).
        let outcome: CLIError? = matches.suggested.isEmpty ? CLIError(.noMatch, "") : nil
        if parsed.flag("json") {
            var members: [(String, JSON)] = [("suggestions", .array(matches.suggested.map { EntryJSON.summary($0) }))]
            if all { members.append(("others", .array(matches.others.map { EntryJSON.summary($0) }))) }
            Console.line(JSON.object(members).prettyPrinted)
            if let outcome { throw outcome }
            return
        }
        func rows(_ items: [IndexedCredential]) -> String {
            Text.columns(items.map {
                ["  " + $0.title, $0.userName, Text.breadcrumb($0.breadcrumb)]
            })
        }
        var out = "Suggestions for \(Text.oneLine(service)):\n"
        out += matches.suggested.isEmpty ? "  (none)\n" : rows(matches.suggested)
        if all {
            out += "Other entries:\n"
            out += matches.others.isEmpty ? "  (none)\n" : rows(matches.others)
        }
        Console.out(out)
        if let outcome { throw outcome }
    }
}
