import Foundation
import MyPassCore
import MyPassKDBX

/// `mypass add VAULT PATH/TITLE [options]`.
enum AddCommand {
    static func run(_ parsed: ParsedArguments) throws {
        let changes = try EntryChanges(parsed)
        let components = Vault.pathComponents(parsed.required("path"))
        guard let title = components.last else { throw parsed.usageError("The path must end with the new entry's title") }
        if changes.title != nil { throw parsed.usageError("add takes the title from PATH/TITLE, not --title") }
        var (context, prompted) = try VaultContext.open(parsed, readsEntryPassword: changes.readsPassword)
        let groupPath = Array(components.dropLast())
        let (group, _) = try context.vault.locateGroup(Vault.display(groupPath))
        var entry = context.vault.newEntry()
        entry.title = title
        let meta = context.vault.meta
        changes.apply(to: &entry, password: try changes.newPassword(prompted: prompted), protects: meta.memoryProtection.protects)
        let uuid = try context.vault.addEntry(entry, to: group.uuid, now: currentTime())
        if let expiry = changes.expiry {
            // addEntry stamps every time anew; the expiry is part of what is being added.
            context.vault.root.modifyEntry(withUUID: uuid) { $0.setExpiry(expiry) }
        }
        try context.save()
        Console.line("Added entry '\(Vault.display(groupPath + [title]))' (\(uuid.hexString)).")
    }
}
