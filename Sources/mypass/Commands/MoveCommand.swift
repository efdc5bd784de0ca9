import Foundation
import MyPassCore
import MyPassKDBX

/// `mypass mv VAULT ENTRY GROUP`.
enum MoveCommand {
    static func run(_ parsed: ParsedArguments) throws {
        var (context, _) = try VaultContext.open(parsed, forWriting: true)
        let located = try context.vault.resolveEntry(path: parsed.required("entry"))
        let target = try context.vault.resolveGroup(path: parsed.required("group"))
        let name = Vault.displayPath(located.path)
        let targetName = target.path.isEmpty ? "/" : Vault.displayPath(target.path)
        if target.group.uuid == located.groupUUID {
            Console.resultLine("Entry '\(name)' is already in '\(targetName)'; nothing saved.")
            return
        }
        // Moving onto a sibling's title would make a path that names two entries.
        try context.vault.checkTitle(located.entry.title, in: target.group.uuid, excluding: located.entry.uuid)
        try context.vault.moveEntry(located.entry.uuid, to: target.group.uuid, now: currentTime())
        try context.save()
        Console.resultLine("Moved entry '\(name)' to '\(targetName)'.")
    }
}
