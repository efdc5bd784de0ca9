import Foundation
import MyPassKDBX

/// The current time as a KDBX time stamp (seconds precision).
func currentTime() -> KDBXTime { KDBXTime(unixSeconds: Int64(Date().timeIntervalSince1970)) }

/// `mypass add VAULT PATH/TITLE [options]`.
enum AddCommand {
    static func run(_ parsed: ParsedArguments) throws {
        let changes = try EntryChanges(parsed)
        let components = Vault.pathComponents(parsed.required("path"))
        guard let title = components.last else { throw parsed.usageError("The path must end with the new entry's title") }
        if changes.title != nil { throw parsed.usageError("add takes the title from PATH/TITLE, not --title") }
        var (context, password) = try VaultContext.open(parsed, readsEntryPassword: changes.readsPassword)
        let groupPath = Array(components.dropLast())
        let (group, _) = try context.vault.locateGroup(Vault.display(groupPath))
        let now = currentTime()
        var entry = PendingEditing.newEntry(in: context.vault, now: now)
        entry.title = title
        let meta = context.vault.meta
        try changes.apply(to: &entry, password: password, protects: { meta.memoryProtection.protects($0) })
        try PendingEditing.add(entry, to: group.uuid, in: &context.vault, now: now)
        try context.save()
        Console.line("Added entry '\(Vault.display(groupPath + [title]))' (\(entry.uuid.hexString)).")
    }
}

/// `mypass edit VAULT ENTRY [options]`: the previous state goes into the entry's history.
enum EditCommand {
    static func run(_ parsed: ParsedArguments) throws {
        let changes = try EntryChanges(parsed)
        if changes.isEmpty { throw parsed.usageError("Nothing to change: give at least one option such as --username") }
        var (context, password) = try VaultContext.open(parsed, readsEntryPassword: changes.readsPassword)
        let located = try context.vault.locateEntry(parsed.required("entry"))
        let meta = context.vault.meta
        try PendingEditing.update(located.entry.uuid, in: &context.vault, now: currentTime()) { entry in
            try changes.apply(to: &entry, password: password, protects: { meta.memoryProtection.protects($0) })
        }
        try context.save()
        let title = context.vault.entry(withUUID: located.entry.uuid)?.title ?? located.entry.title
        Console.line("Edited entry '\(Vault.display(located.groupPath + [title]))'.")
    }
}

/// `mypass rm VAULT ENTRY [--permanent]`.
enum RemoveCommand {
    static func run(_ parsed: ParsedArguments) throws {
        var (context, _) = try VaultContext.open(parsed)
        let located = try context.vault.locateEntry(parsed.required("entry"))
        let name = Vault.display(located.groupPath + [located.entry.title])
        let recycled = try PendingEditing.delete(
            located.entry.uuid, permanently: parsed.flag("permanent"), in: &context.vault, now: currentTime())
        try context.save()
        Console.line(recycled ? "Moved entry '\(name)' to the recycle bin." : "Deleted entry '\(name)'.")
    }
}

/// `mypass mv VAULT ENTRY GROUP`.
enum MoveCommand {
    static func run(_ parsed: ParsedArguments) throws {
        var (context, _) = try VaultContext.open(parsed)
        let located = try context.vault.locateEntry(parsed.required("entry"))
        let (group, path) = try context.vault.locateGroup(parsed.required("group"))
        let name = Vault.display(located.groupPath + [located.entry.title])
        if group.uuid == located.groupUUID {
            Console.line("Entry '\(name)' is already in '\(Vault.display(path))'.")
            return
        }
        try PendingEditing.move(located.entry.uuid, to: group.uuid, in: &context.vault, now: currentTime())
        try context.save()
        Console.line("Moved entry '\(name)' to '\(path.isEmpty ? "/" : Vault.display(path))'.")
    }
}

/// `mypass mkdir VAULT PATH`: the parent group must exist; the name must be new there.
enum MakeGroupCommand {
    static func run(_ parsed: ParsedArguments) throws {
        let components = Vault.pathComponents(parsed.required("path"))
        guard let name = components.last else { throw parsed.usageError("The path must name the new group") }
        var (context, _) = try VaultContext.open(parsed)
        let (parent, _) = try context.vault.locateGroup(Vault.display(Array(components.dropLast())))
        if parent.groups.contains(where: { $0.name == name }) {
            throw CLIError.failure("group '\(Vault.display(components))' already exists")
        }
        let group = try PendingEditing.addGroup(named: name, to: parent.uuid, in: &context.vault, now: currentTime())
        try context.save()
        Console.line("Added group '\(Vault.display(components))' (\(group.uuid.hexString)).")
    }
}

/// `mypass rmdir VAULT PATH [--permanent]`: the group and its subtree.
enum RemoveGroupCommand {
    static func run(_ parsed: ParsedArguments) throws {
        var (context, _) = try VaultContext.open(parsed)
        let (group, path) = try context.vault.locateGroup(parsed.required("path"))
        if path.isEmpty { throw CLIError.failure("the root group cannot be deleted") }
        let recycled = try PendingEditing.deleteGroup(
            group.uuid, permanently: parsed.flag("permanent"), in: &context.vault, now: currentTime())
        try context.save()
        let name = Vault.display(path)
        Console.line(recycled ? "Moved group '\(name)' to the recycle bin." : "Deleted group '\(name)'.")
    }
}

/// `mypass generate [--length N] [--lower] [--upper] [--digits] [--symbols] [--exclude-similar]`.
enum GenerateCommand {
    static func run(_ parsed: ParsedArguments) throws {
        let password = try GeneratorOptions(parsed).generate()
        password.withRevealedBytes { Console.outBytes(Array($0) + [0x0A]) }
    }
}
