import Foundation
import MyPassCore
import MyPassKDBX

/// `mypass add VAULT PATH/TITLE [options]`.
enum AddCommand {
    static func run(_ parsed: ParsedArguments) throws {
        let changes = try EntryChanges(parsed)
        let (groupPath, title) = try splitPath(parsed)
        if changes.patch.title != nil { throw parsed.usageError("add takes the title from PATH/TITLE, not --title") }
        var (context, prompted) = try VaultContext.open(parsed, readsEntryPassword: changes.readsPassword, forWriting: true)
        let group = try context.vault.resolveGroup(path: Vault.displayPath(groupPath)).group
        let patch = try changes.patch(prompted: prompted)
        let uuid = try context.vault.addEntry(titled: title, to: group.uuid, applying: patch, now: currentTime())
        try context.save()
        let finalTitle = context.vault.entry(withUUID: uuid)?.title ?? title
        Console.resultLine("Added entry '\(Vault.displayPath(groupPath + [finalTitle]))' (\(uuid.hexString)).")
    }

    /// PATH/TITLE as group path and title; an empty title (`Work/`) is a usage error.
    static func splitPath(_ parsed: ParsedArguments) throws(CLIError) -> (groupPath: [String], title: String) {
        do {
            return try Vault.entryPathComponents(parsed.required("path"))
        } catch {
            throw parsed.usageError("The path '\(parsed.required("path"))' must end with the new entry's title (Work/GitHub)")
        }
    }
}
