import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX

/// `mypass merge VAULT OTHER`: OTHER merged into VAULT with KeePass's Synchronize rules
/// (``VaultMerge``), VAULT saved through the safe save; the change log on stdout.
enum MergeCommand {
    static func run(_ parsed: ParsedArguments) throws {
        if parsed.flag("conflicts") { return try MergeConflictsCommand.run(parsed) }
        if parsed.flag("keep") { throw parsed.usageError("--keep goes with --conflicts") }
        let otherPath = parsed.required("other")
        let sameCredentials = parsed.flag("same-credentials")
        let otherNoPassword = parsed.flag("other-no-password")
        let otherKeyFile = parsed.value("other-keyfile")
        if sameCredentials && (otherNoPassword || otherKeyFile != nil) {
            throw parsed.usageError("--same-credentials cannot be combined with --other-keyfile or --other-no-password")
        }
        if otherNoPassword && otherKeyFile == nil {
            throw parsed.usageError("--other-no-password needs --other-keyfile")
        }
        // Both files must exist before any password is asked for.
        let otherBytes = try VaultContext.readFile(otherPath, what: "vault")
        var (context, _) = try VaultContext.open(parsed, forWriting: !parsed.flag("dry-run"))
        let otherKey = sameCredentials
            ? context.document.key : try key(path: otherPath, keyFile: otherKeyFile, noPassword: otherNoPassword)
        let other: Vault
        do {
            other = try Progress.run("Unlocking \(VaultContext.displayName(otherPath))…") {
                try KDBXCodec.open(otherBytes, key: otherKey)
            }
        } catch let error as KDBXError {
            throw CommandLineTool.map(error, file: otherPath)
        }
        let result: MergeResult
        do {
            result = try VaultMerge.merge(local: context.vault, remote: other)
        } catch {
            throw CLIError.failure("cannot merge '\(otherPath)' into '\(context.path)': \(error)")
        }
        let dryRun = parsed.flag("dry-run")
        let saves = !dryRun && result.changedLocal
        if saves {
            context.vault = result.vault
            try context.save()
        }
        if parsed.flag("json") {
            Console.line(json(result, vault: context.path, other: otherPath, dryRun: dryRun, saved: saves).prettyPrinted)
            return
        }
        for change in result.changes { Console.resultLine(line(change)) }
        let count = result.changes.count
        let summary = count == 0 ? "No changes" : count == 1 ? "1 change" : "\(count) changes"
        if dryRun {
            Console.resultLine("\(summary) (dry run; nothing written).")
        } else if saves {
            Console.resultLine("\(summary); saved '\(context.path)'.")
        } else {
            Console.resultLine("\(summary); nothing saved.")
        }
    }

    /// OTHER's composite key: its password (read after VAULT's, by the same rules) unless
    /// `noPassword`, and its key file.
    static func key(path: String, keyFile: String?, noPassword: Bool) throws -> CompositeKey {
        var contents = try keyFile.map { try VaultContext.readFile($0, what: "key file") }
        defer { if contents != nil { wipe(&contents!) } }
        let name = VaultContext.displayName(path)
        let password = noPassword ? nil : try SecretReader.readSecret(
            prompt: "Password for \(name): ", what: "password for '\(name)'",
            missingHint: "the line after VAULT's password; --same-credentials opens OTHER with VAULT's key, --other-keyfile with --other-no-password with a key file alone")
        do {
            return try CompositeKey(password: password, keyFileContents: contents)
        } catch {
            throw CommandLineTool.map(error, file: path)
        }
    }

    /// `added    entry  Work/GitHub  0123…cdef  (note)`.
    static func line(_ change: MergeChange) -> String {
        func pad(_ text: String, _ width: Int) -> String {
            text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
        }
        var text = pad(change.kind.rawValue, 9) + pad(change.object.rawValue, 11)
        text += change.path.isEmpty ? (change.object == .meta ? change.note : "-") : Vault.displayPath(change.path)
        if let uuid = change.uuid { text += "  " + uuid.hexString }
        if !change.note.isEmpty && change.object != .meta { text += "  (" + change.note + ")" }
        return text
    }

    private static func json(_ result: MergeResult, vault: String, other: String, dryRun: Bool, saved: Bool) -> JSON {
        .object([
            ("vault", .string(vault)),
            ("other", .string(other)),
            ("dryRun", .bool(dryRun)),
            ("saved", .bool(saved)),
            ("changes", .array(result.changes.map { change in
                .object([
                    ("kind", .string(change.kind.rawValue)),
                    ("object", .string(change.object.rawValue)),
                    ("uuid", .string(change.uuid?.hexString)),
                    ("path", .array(change.path.map { .string($0) })),
                    ("note", .string(change.note)),
                ])
            })),
        ])
    }
}
