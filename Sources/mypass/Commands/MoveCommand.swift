import Foundation
import MyPassCore
import MyPassKDBX

/// `mypass mv VAULT ENTRY GROUP`.
enum MoveCommand {
    static func run(_ parsed: ParsedArguments) throws {
        var (context, _) = try VaultContext.open(parsed)
        let located = try context.vault.locateEntry(parsed.required("entry"))
        let (group, path) = try context.vault.locateGroup(parsed.required("group"))
        let name = Vault.display(located.groupPath + [located.entry.title])
        let target = path.isEmpty ? "/" : Vault.display(path)
        if group.uuid == located.groupUUID {
            Console.line("Entry '\(name)' is already in '\(target)'; nothing saved.")
            return
        }
        try context.vault.moveEntry(located.entry.uuid, to: group.uuid, now: currentTime())
        try context.save()
        Console.line("Moved entry '\(name)' to '\(target)'.")
    }
}
