import MyPassCore
import MyPassKDBX

/// `mypass export VAULT [--format json|xml|csv]`: the vault manifest, KeePass's plain XML, or
/// KeePassXC's CSV layout.
enum ExportCommand {
    static func run(_ parsed: ParsedArguments) throws {
        let format = parsed.value("format") ?? "json"
        guard format == "json" || format == "xml" || format == "csv" else {
            throw parsed.usageError("The value '\(format)' is invalid for '--format': expected json, xml or csv")
        }
        let (context, _) = try VaultContext.open(parsed)
        if format == "json" {
            var text = VaultManifest.json(of: context.vault)
            if !text.hasSuffix("\n") { text += "\n" }
            Console.out(text)
        } else if format == "csv" {
            Console.out(KeePassXCCSV.export(context.vault))
        } else {
            // Every value in the clear: wiped once written.
            var xml = KeePassXMLExport.export(context.vault)
            Console.outBytes(xml)
            wipe(&xml)
        }
    }
}
