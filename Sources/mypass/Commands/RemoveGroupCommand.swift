import Foundation
import MyPassCore
import MyPassKDBX

/// `mypass rmdir VAULT PATH [--permanent]`: the group and its subtree.
enum RemoveGroupCommand {
    static func run(_ parsed: ParsedArguments) throws {
        var (context, _) = try VaultContext.open(parsed, forWriting: true)
        let located = try context.vault.resolveGroup(path: parsed.required("path"))
        if located.path.isEmpty { throw CLIError.failure("the root group cannot be deleted") }
        let outcome = try context.vault.deleteGroup(located.group.uuid, permanently: parsed.flag("permanent"), now: currentTime())
        try context.save()
        let name = Vault.displayPath(located.path)
        if case .movedToRecycleBin = outcome {
            Console.resultLine("Moved group '\(name)' to the recycle bin.")
        } else {
            Console.resultLine("Deleted group '\(name)'.")
        }
    }
}
