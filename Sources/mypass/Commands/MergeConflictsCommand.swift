import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX

/// `mypass merge VAULT --conflicts [OTHER]`: the conflict copies sync engines left beside VAULT
/// (``ConflictCopy``) merged into it with KeePass's Synchronize rules, VAULT saved once through the
/// safe save, then the merged copies removed. Copies whose names an ordinary file could have are
/// merged only when named (OTHER) and never removed; a copy that does not open, or is another
/// vault, is left and named, and the exit status is 1.
enum MergeConflictsCommand {
    /// What became of one copy.
    private struct Outcome {
        let path: String
        let engine: ConflictCopy.Engine?
        var changes: [MergeChange] = []
        var problem: String?
        var removed = false
        var merged: Bool { problem == nil }
    }

    static func run(_ parsed: ParsedArguments) throws {
        if parsed.flag("same-credentials") {
            throw parsed.usageError("--same-credentials goes with OTHER alone: with --conflicts VAULT's key is tried first anyway")
        }
        if parsed.flag("other-no-password") && parsed.value("other-keyfile") == nil {
            throw parsed.usageError("--other-no-password needs --other-keyfile")
        }
        let dryRun = parsed.flag("dry-run"), keep = parsed.flag("keep")
        let named = parsed.positional("other")
        if let named { _ = try VaultContext.readableFile(named, what: "copy") }
        var (context, _) = try VaultContext.open(parsed, forWriting: !dryRun, notesConflictCopies: false)

        // The copies: every one whose name only a sync engine makes, and the one named.
        var candidates: [(path: String, engine: ConflictCopy.Engine?)] = context.document.conflictCopies
            .filter(\.isUnambiguous).map { ($0.path, $0.engine) }
        if let named {
            let real = (try? SystemFileSystem().resolve(URL(fileURLWithPath: named).path)) ?? named
            if !candidates.contains(where: { $0.path == real }) {
                candidates.append((real, context.document.conflictCopies.first { $0.path == real }?.engine))
            }
        }
        for copy in context.document.conflictCopies where !copy.isUnambiguous && !candidates.contains(where: { $0.path == copy.path }) {
            Console.noteLine("Note: '\(copy.name)' may be a conflict copy (\(copy.engine.rawValue)) or an ordinary file; it is merged only when named: mypass merge \(VaultContext.shellQuoted(context.path)) --conflicts \(VaultContext.shellQuoted(copy.path))")
        }
        guard !candidates.isEmpty else {
            if parsed.flag("json") {
                Console.line(json(vault: context.path, dryRun: dryRun, saved: false, outcomes: []).prettyPrinted)
            } else {
                Console.resultLine("No conflict copies of '\(context.path)' to merge.")
            }
            return
        }

        // Each copy with VAULT's key; a copy it does not open with the other key, asked for once.
        var otherKey: CompositeKey?
        var outcomes: [Outcome] = []
        for candidate in candidates {
            var outcome = Outcome(path: candidate.path, engine: candidate.engine)
            let name = VaultContext.displayName(candidate.path)
            do {
                let copy: Vault
                do {
                    copy = try read(candidate.path, key: context.document.key, document: context.document)
                } catch let error as CoreError where error.code == .wrongKey {
                    let canAsk = parsed.value("other-keyfile") != nil || Console.isTerminal(0)
                    guard canAsk else { throw error }
                    if otherKey == nil {
                        otherKey = try MergeCommand.key(path: candidate.path, keyFile: parsed.value("other-keyfile"),
                                                        noPassword: parsed.flag("other-no-password"))
                    }
                    copy = try read(candidate.path, key: otherKey!, document: context.document)
                }
                outcome.changes = try context.document.merge(copy: copy, from: candidate.path).changes
            } catch let error as CoreError {
                outcome.problem = problem(error, name: name)
            } catch let error as CLIError {
                outcome.problem = error.message
            }
            outcomes.append(outcome)
        }

        // One save for all of them; then the merged copies whose names only a sync engine makes go.
        let changed = outcomes.contains { !$0.changes.isEmpty }
        let saves = !dryRun && changed
        if saves { try context.save() }
        var removalFailures: [String] = []
        if !dryRun && !keep {
            for index in outcomes.indices where outcomes[index].merged {
                guard let engine = outcomes[index].engine, engine.isUnambiguous else { continue }
                do {
                    try context.document.removeConflictCopy(ConflictCopy(path: outcomes[index].path, engine: engine))
                    outcomes[index].removed = true
                } catch {
                    removalFailures.append("cannot remove '\(outcomes[index].path)': \(error.reason)")
                }
            }
        }

        if parsed.flag("json") {
            Console.line(json(vault: context.path, dryRun: dryRun, saved: saves, outcomes: outcomes).prettyPrinted)
        } else {
            for outcome in outcomes {
                let name = VaultContext.displayName(outcome.path)
                let kind = outcome.engine.map { " (\($0.rawValue))" } ?? ""
                if let problem = outcome.problem {
                    Console.resultLine("Not merged: '\(name)'\(kind): \(problem); left as it is.")
                    continue
                }
                let count = outcome.changes.count
                Console.resultLine("Merged '\(name)'\(kind): " + (count == 0 ? "no changes" : count == 1 ? "1 change" : "\(count) changes")
                                   + (outcome.removed ? "; removed." : dryRun && outcome.engine?.isUnambiguous == true && !keep
                                      ? "; would be removed." : "."))
                for change in outcome.changes { Console.resultLine("  " + MergeCommand.line(change)) }
            }
            let merged = outcomes.filter(\.merged).count
            let summary = "\(merged) of \(outcomes.count) \(outcomes.count == 1 ? "copy" : "copies") merged"
            if dryRun {
                Console.resultLine("\(summary) (dry run; nothing written, nothing removed).")
            } else if saves {
                Console.resultLine("\(summary); saved '\(context.path)'.")
            } else {
                Console.resultLine("\(summary); nothing to save.")
            }
        }
        let notMerged = outcomes.filter { !$0.merged }.map { "'\($0.path)'" }
        let failures = (notMerged.isEmpty ? [] : ["not merged (see above): " + notMerged.joined(separator: ", ")]) + removalFailures
        if !failures.isEmpty { throw CLIError.failure(failures.joined(separator: "; ")) }
    }

    /// A copy read and decoded with `key` (one KDF run), with the progress line.
    private static func read(_ path: String, key: CompositeKey, document: VaultDocument) throws -> Vault {
        try Progress.runKDF("Unlocking \(VaultContext.displayName(path))…") { progress throws(CoreError) -> Vault in
            try VaultDocument.readCopy(at: path, key: key, options: document.options, progress: progress)
        }
    }

    /// Why a copy was not merged, in words.
    private static func problem(_ error: CoreError, name: String) -> String {
        switch error.code {
        case .wrongKey: return "it does not open with the vault's key (give its key with --other-keyfile, or run in a terminal to be asked)"
        case .codec: return "it is damaged or not a vault (\(error.reason))"
        case .invalidOperation: return error.reason
        case .cancelled: return "interrupted"
        default: return error.reason.isEmpty ? error.description : error.reason
        }
    }

    private static func json(vault: String, dryRun: Bool, saved: Bool, outcomes: [Outcome]) -> JSON {
        .object([
            ("vault", .string(vault)),
            ("dryRun", .bool(dryRun)),
            ("saved", .bool(saved)),
            ("copies", .array(outcomes.map { outcome in
                .object([
                    ("path", .string(outcome.path)),
                    ("engine", .string(outcome.engine?.rawValue)),
                    ("merged", .bool(outcome.merged)),
                    ("removed", .bool(outcome.removed)),
                    ("problem", .string(outcome.problem)),
                    ("changes", .array(outcome.changes.map { change in
                        .object([
                            ("kind", .string(change.kind.rawValue)),
                            ("object", .string(change.object.rawValue)),
                            ("uuid", .string(change.uuid?.hexString)),
                            ("path", .array(change.path.map { .string($0) })),
                            ("note", .string(change.note)),
                        ])
                    })),
                ])
            })),
        ])
    }
}
