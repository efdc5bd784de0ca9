import Foundation
import MyPassCore
import MyPassKDBX

/// `mypass edit VAULT ENTRY [options]`: the previous state goes into the entry's history.
enum EditCommand {
    static func run(_ parsed: ParsedArguments) throws {
        let changes = try EntryChanges(parsed)
        if changes.isEmpty { throw parsed.usageError("Nothing to change: give at least one option such as --username") }
        var (context, prompted) = try VaultContext.open(parsed, readsEntryPassword: changes.readsPassword)
        let located = try context.vault.locateEntry(parsed.required("entry"))
        let meta = context.vault.meta
        let password = try changes.newPassword(prompted: prompted)
        let changed = try context.vault.editEntry(located.entry.uuid, now: currentTime()) { entry in
            changes.apply(to: &entry, password: password, protects: meta.memoryProtection.protects)
        }
        let title = context.vault.entry(withUUID: located.entry.uuid)?.title ?? located.entry.title
        let name = Vault.display(located.groupPath + [title])
        guard changed else {
            Console.line("Entry '\(name)' already has these values; nothing saved.")
            return
        }
        try context.save()
        Console.line("Edited entry '\(name)'.")
    }
}
