import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX

/// `mypass import VAULT FILE --from FORMAT [--create]`: another manager's export, parsed by Core's
/// ``VaultImport`` before any prompt, added as a new group (or made into a new vault) and saved
/// through the safe save.
enum ImportCommand {
    static func run(_ parsed: ParsedArguments) throws {
        let path = parsed.required("vault"), file = parsed.required("file")
        guard let fromText = parsed.value("from") else {
            throw parsed.usageError("Missing '--from keepass-xml|keepassxc-csv|bitwarden-json'")
        }
        guard let format = VaultImport.Format(rawValue: fromText) else {
            throw parsed.usageError("The value '\(fromText)' is invalid for '--from': expected keepass-xml, keepassxc-csv or bitwarden-json")
        }
        let create = parsed.flag("create")
        if !create {
            for option in ["generate-keyfile", "name"] + FileSettingsOptions.specs.map(\.long) where parsed.value(option) != nil {
                throw parsed.usageError("--\(option) is for a new vault: add --create")
            }
        } else if parsed.value("group") != nil {
            throw parsed.usageError("--group is for importing into an existing vault (without --create)")
        }

        // The file is read and checked first: a bad file changes nothing and asks nothing.
        var bytes = try VaultContext.readFile(file, what: "import file", maxBytes: VaultImport.maxFileBytes)
        defer { wipe(&bytes) }
        let contents: VaultImport.Contents
        do {
            contents = try VaultImport.read(bytes, format: format, now: currentTime())
        } catch {
            throw CLIError.failure("cannot import '\(file)': " + [error.location, error.reason.isEmpty ? error.description : error.reason]
                .compactMap { $0 }.joined(separator: ": "))
        }
        let entryCount = contents.root.entryCount

        if create {
            let request = try CreateCommand.prepare(parsed, path: path)
            let vault: Vault
            do {
                vault = try Progress.run("Calibrating the KDF…") { () throws(CoreError) -> Vault in
                    try Vault.imported(contents, settings: request.settings, now: currentTime())
                }
            } catch let error as CoreError {
                throw CLIError.failure("cannot create '\(path)': \(error.reason.isEmpty ? error.description : error.reason)")
            }
            try CreateCommand.write(vault, request, path: path)
            Console.resultLine("Imported \(entryCount) \(entryCount == 1 ? "entry" : "entries") from '\(file)'.")
            return
        }

        let groupName = parsed.value("group") ?? NewVaultSettings.name(forPath: file)
        var (context, _) = try VaultContext.open(parsed, forWriting: true)
        do {
            try context.vault.addImported(contents, asGroupNamed: groupName, now: currentTime())
        } catch {
            throw CLIError.failure("cannot import '\(file)' into '\(path)': \(error.reason.isEmpty ? error.description : error.reason)")
        }
        try context.save()
        Console.resultLine("Imported \(entryCount) \(entryCount == 1 ? "entry" : "entries") from '\(file)' into group '\(groupName)' of '\(path)'.")
    }
}
