import MyPassCore
import MyPassKDBX

/// `mypass match VAULT SERVICE [--budget SIZE] [--json]`: what AutoFill would suggest, best
/// first, then the rest. Opens through core's credential index, as the AutoFill extension does
/// (the vault's attachments, history and icons are streamed past, never kept); `--budget`
/// refuses, before the KDF, a vault whose KDF needs more memory than the extension has.
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
        if parsed.flag("json") {
            let json = JSON.object([
                ("suggestions", .array(matches.suggested.map { EntryJSON.summary($0) })),
                ("others", .array(matches.others.map { EntryJSON.summary($0) })),
            ])
            Console.line(json.prettyPrinted)
            return
        }
        func rows(_ items: [IndexedCredential]) -> String {
            Text.columns(items.map {
                ["  " + Text.oneLine($0.title), Text.oneLine($0.userName), Text.oneLine(Text.breadcrumb($0.breadcrumb))]
            })
        }
        var out = "Suggestions for \(service):\n"
        out += matches.suggested.isEmpty ? "  (none)\n" : rows(matches.suggested)
        out += "Other entries:\n"
        out += matches.others.isEmpty ? "  (none)\n" : rows(matches.others)
        Console.out(out)
    }
}
