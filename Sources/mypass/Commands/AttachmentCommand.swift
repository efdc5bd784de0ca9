#if canImport(Glibc)
import Glibc
#endif
import Foundation
import MyPassCore
import MyPassKDBX

/// `mypass attachment ls VAULT ENTRY` and `mypass attachment export|import|rm VAULT ENTRY NAME [FILE]`.
enum AttachmentCommand {
    /// One line per attachment: its name and size (`--json`: an array of {name, size}).
    static func list(_ parsed: ParsedArguments) throws {
        let (context, _) = try VaultContext.open(parsed)
        let located = try context.vault.resolveEntry(path: parsed.required("entry"))
        let attachments = located.entry.attachments
        if parsed.flag("json") {
            Console.line(JSON.array(attachments.map {
                JSON.object([("name", .string($0.name)), ("size", .int($0.data.count))])
            }).prettyPrinted)
            return
        }
        if attachments.isEmpty {
            Console.noteLine("Entry '\(Vault.displayPath(located.path))' has no attachments.")
            return
        }
        Console.out(Text.columns(attachments.map { [$0.name, Text.byteSize($0.data.count)] }))
    }

    /// Writes the attachment to FILE (never over an existing file without `--force`), or to standard output.
    static func export(_ parsed: ParsedArguments) throws {
        let (context, _) = try VaultContext.open(parsed)
        let located = try context.vault.resolveEntry(path: parsed.required("entry"))
        let name = parsed.required("name")
        guard let attachment = located.entry.attachment(named: name) else {
            throw CLIError.failure("entry '\(Vault.displayPath(located.path))' has no attachment '\(name)'")
        }
        guard let file = parsed.positional("file") else {
            Console.outBytes(attachment.data)
            return
        }
        do {
            try attachment.export(toPath: file, replacing: parsed.flag("force"))
        } catch where error.code == .alreadyExists {
            throw CLIError.failure("cannot write '\(file)': \(error.reason); --force replaces it")
        } catch {
            throw CLIError.failure("cannot write '\(file)': \(error.reason)")
        }
        Console.errLine("Wrote \(Text.byteSize(attachment.data.count)) to '\(file)'.")
    }

    /// Attaches FILE under NAME (replacing one with that name); the entry's history keeps the old state.
    static func importFile(_ parsed: ParsedArguments) throws {
        let data = try VaultContext.readFile(parsed.required("file"), what: "file")
        var (context, _) = try VaultContext.open(parsed, forWriting: true)
        let located = try context.vault.resolveEntry(path: parsed.required("entry"))
        let name = parsed.required("name")
        try context.vault.editEntry(located.entry.uuid, now: currentTime()) { entry in
            entry.setAttachment(Attachment(name: name, data: data))
        }
        try context.save()
        Console.resultLine("Attached '\(name)' (\(Text.byteSize(data.count))) to '\(Vault.displayPath(located.path))'.")
    }

    /// Removes attachment NAME; the entry's history keeps the old state.
    static func remove(_ parsed: ParsedArguments) throws {
        var (context, _) = try VaultContext.open(parsed, forWriting: true)
        let located = try context.vault.resolveEntry(path: parsed.required("entry"))
        let name = parsed.required("name")
        let entryName = Vault.displayPath(located.path)
        guard located.entry.attachment(named: name) != nil else {
            throw CLIError.failure("entry '\(entryName)' has no attachment '\(name)'")
        }
        try context.vault.editEntry(located.entry.uuid, now: currentTime()) { entry throws(CoreError) in
            try entry.deleteAttachment(name)
        }
        try context.save()
        Console.resultLine("Removed attachment '\(name)' from '\(entryName)'.")
    }
}
