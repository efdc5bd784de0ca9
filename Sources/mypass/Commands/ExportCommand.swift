import MyPassKDBX

/// `mypass export VAULT [--format json|xml]`: the vault manifest, or KeePass's plain XML.
enum ExportCommand {
    static func run(_ parsed: ParsedArguments) throws {
        let format = parsed.value("format") ?? "json"
        guard format == "json" || format == "xml" else {
            throw parsed.usageError("The value '\(format)' is invalid for '--format': expected json or xml")
        }
        let (context, _) = try VaultContext.open(parsed)
        if format == "json" {
            var text = VaultManifest.json(of: context.vault)
            if !text.hasSuffix("\n") { text += "\n" }
            Console.out(text)
        } else {
            Console.outBytes(KeePassXMLExport.export(context.vault))
        }
    }
}
