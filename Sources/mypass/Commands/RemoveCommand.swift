import Foundation
import MyPassCore
import MyPassKDBX

/// `mypass rm VAULT ENTRY [--permanent]`.
enum RemoveCommand {
    static func run(_ parsed: ParsedArguments) throws {
        var (context, _) = try VaultContext.open(parsed)
        let located = try context.vault.locateEntry(parsed.required("entry"))
        let name = Vault.display(located.groupPath + [located.entry.title])
        let outcome = try context.vault.delete(permanently: parsed.flag("permanent")) { vault throws(CoreError) in
            try vault.deleteEntry(located.entry.uuid, now: currentTime())
        }
        try context.save()
        if case .movedToRecycleBin = outcome {
            Console.line("Moved entry '\(name)' to the recycle bin.")
        } else {
            Console.line("Deleted entry '\(name)'.")
        }
    }
}
