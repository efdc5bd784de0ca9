import Foundation
import MyPassCore
import MyPassKDBX

/// `mypass mkdir VAULT PATH`: the parent group must exist; the name must be new there.
enum MakeGroupCommand {
    static func run(_ parsed: ParsedArguments) throws {
        let components = Vault.pathComponents(parsed.required("path"))
        guard let name = components.last else { throw parsed.usageError("The path must name the new group") }
        var (context, _) = try VaultContext.open(parsed, forWriting: true)
        let parent = try context.vault.resolveGroup(path: Vault.displayPath(Array(components.dropLast()))).group
        if parent.groups.contains(where: { $0.name == name }) {
            throw CLIError.failure("group '\(Vault.displayPath(components))' already exists")
        }
        let uuid = try context.vault.addGroup(named: name, in: parent.uuid, now: currentTime())
        try context.save()
        Console.resultLine("Added group '\(Vault.displayPath(components))' (\(uuid.hexString)).")
    }
}
