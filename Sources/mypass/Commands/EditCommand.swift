import Foundation
import MyPassCore
import MyPassKDBX

/// `mypass edit VAULT ENTRY [options]`: the previous state goes into the entry's history.
enum EditCommand {
    static func run(_ parsed: ParsedArguments) throws {
        let changes = try EntryChanges(parsed)
        if changes.isEmpty { throw parsed.usageError("Nothing to change: give at least one option such as --username") }
        var (context, prompted) = try VaultContext.open(parsed, readsEntryPassword: changes.readsPassword, forWriting: true)
        let located = try context.vault.resolveEntry(path: parsed.required("entry"))
        let changed = try context.vault.editEntry(located.entry.uuid, applying: try changes.patch(prompted: prompted),
                                                  now: currentTime())
        let title = context.vault.entry(withUUID: located.entry.uuid)?.title ?? located.entry.title
        let name = Vault.displayPath(located.groupPath + [title])
        guard changed else {
            Console.resultLine("Entry '\(name)' already has these values; nothing saved.")
            return
        }
        try context.save()
        Console.resultLine("Edited entry '\(name)'.")
    }
}
