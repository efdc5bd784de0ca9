import Foundation
import MyPassCore
import MyPassKDBX

/// The current time as a KDBX time stamp (seconds precision).
func currentTime() -> KDBXTime { KDBXTime(unixSeconds: Int64(Date().timeIntervalSince1970)) }

extension Vault {
    /// A new entry as KeePass makes one: the five standard fields, protected as the vault's memory
    /// protection says, and the vault's default user name.
    func newEntry() -> Entry {
        var entry = Entry(uuid: .random())
        for key in Entry.StandardField.all {
            entry.setValue("", for: key, isProtected: meta.memoryProtection.protects(key))
        }
        entry.setValue(meta.defaultUserName, for: Entry.StandardField.userName)
        return entry
    }

    /// Deletes with core's KeePass rules, or for good when `permanently` (the recycle bin is
    /// bypassed for this one deletion and the deleted objects are recorded all the same).
    mutating func delete(permanently: Bool, _ body: (inout Vault) throws(CoreError) -> DeletionOutcome) throws(CoreError) -> DeletionOutcome {
        guard permanently && meta.recycleBinEnabled else { return try body(&self) }
        meta.recycleBinEnabled = false
        defer { meta.recycleBinEnabled = true }
        return try body(&self)
    }
}

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
        try context.save()
        Console.line("Added entry '\(Vault.display(groupPath + [title]))' (\(uuid.hexString)).")
    }
}

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
        let uuid = try context.vault.addGroup(named: name, in: parent.uuid, now: currentTime())
        try context.save()
        Console.line("Added group '\(Vault.display(components))' (\(uuid.hexString)).")
    }
}

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

/// `mypass generate [--length N] [--lower] [--upper] [--digits] [--symbols] [--exclude-similar]`.
enum GenerateCommand {
    static func run(_ parsed: ParsedArguments) throws {
        let password = try GeneratorOptions(parsed).generate()
        password.withRevealedBytes { Console.outBytes(Array($0) + [0x0A]) }
    }
}
