import Foundation
import MyPassCore
import MyPassKDBX

/// `mypass add VAULT PATH/TITLE [options]`.
enum AddCommand {
    static func run(_ parsed: ParsedArguments) throws {
        let changes = try EntryChanges(parsed)
        let components = Vault.pathComponents(parsed.required("path"))
        guard let title = components.last else { throw parsed.usageError("The path must end with the new entry's title") }
        if changes.patch.title != nil { throw parsed.usageError("add takes the title from PATH/TITLE, not --title") }
        var (context, prompted) = try VaultContext.open(parsed, readsEntryPassword: changes.readsPassword, forWriting: true)
        let groupPath = Array(components.dropLast())
        let group = try context.vault.resolveGroup(path: Vault.displayPath(groupPath)).group
        let patch = try changes.patch(prompted: prompted)
        let uuid = try context.vault.addEntry(titled: title, to: group.uuid, applying: patch, now: currentTime())
        try context.save()
        Console.line("Added entry '\(Vault.displayPath(groupPath + [title]))' (\(uuid.hexString)).")
    }
}
