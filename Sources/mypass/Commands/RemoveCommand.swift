import Foundation
import MyPassCore
import MyPassKDBX

/// `mypass rm VAULT ENTRY [--permanent]`.
enum RemoveCommand {
    static func run(_ parsed: ParsedArguments) throws {
        var (context, _) = try VaultContext.open(parsed, forWriting: true)
        let located = try context.vault.resolveEntry(path: parsed.required("entry"))
        let name = Vault.displayPath(located.path)
        let outcome = try context.vault.deleteEntry(located.entry.uuid, permanently: parsed.flag("permanent"), now: currentTime())
        try context.save()
        if case .movedToRecycleBin = outcome {
            Console.resultLine("Moved entry '\(name)' to the recycle bin.")
        } else {
            Console.resultLine("Deleted entry '\(name)'.")
        }
    }
}
