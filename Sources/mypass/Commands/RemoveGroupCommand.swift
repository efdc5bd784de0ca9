import Foundation
import MyPassCore
import MyPassKDBX

/// `mypass rmdir VAULT PATH [--permanent]`: the group and its subtree.
enum RemoveGroupCommand {
    static func run(_ parsed: ParsedArguments) throws {
        var (context, _) = try VaultContext.open(parsed)
        let (group, path) = try context.vault.locateGroup(parsed.required("path"))
        if path.isEmpty { throw CLIError.failure("the root group cannot be deleted") }
        let outcome = try context.vault.delete(permanently: parsed.flag("permanent")) { vault throws(CoreError) in
            try vault.deleteGroup(group.uuid, now: currentTime())
        }
        try context.save()
        let name = Vault.display(path)
        if case .movedToRecycleBin = outcome {
            Console.line("Moved group '\(name)' to the recycle bin.")
        } else {
            Console.line("Deleted group '\(name)'.")
        }
    }
}
