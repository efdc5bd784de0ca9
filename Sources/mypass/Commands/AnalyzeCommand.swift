import MyPassCore
import MyPassHealth
import MyPassKDBX

/// `mypass analyze VAULT [--hibp FILE] [--older-than DAYS] [--expiring-within DAYS] [--min-score N]
/// [--include-recycle-bin] [--include-history] [--json]`: the vault's health report (core's
/// ``VaultHealth``), a summary first, then the entries grouped by problem, worst first. Exit 0
/// when nothing is found, 6 (``ExitCode/problemsFound``) when something is.
enum AnalyzeCommand {
    static func run(_ parsed: ParsedArguments) throws {
        var options = VaultHealthOptions(now: KDBXTime(unixSeconds: try TOTPCommand.time(parsed)))
        options.includeRecycleBin = parsed.flag("include-recycle-bin")
        options.includeHistory = parsed.flag("include-history")
        options.olderThanDays = try parsed.integer("older-than", in: 1...365_000)
        options.expiringWithinDays = try parsed.integer("expiring-within", in: 0...365_000) ?? options.expiringWithinDays
        options.minimumScore = try parsed.integer("min-score", in: 0...4) ?? options.minimumScore
        // The breach list is opened (and its first, last and sample lines checked) before the
        // password is asked: a wrong path or a damaged file costs no KDF.
        let hibpPath = parsed.value("hibp")
        let breachList = try hibpPath.map { path in try openBreachList(path) }
        let (context, _) = try VaultContext.open(parsed)
        let report: VaultHealthReport
        do {
            report = try VaultHealth.analyze(context.vault, options: options, breachList: breachList)
        } catch {
            throw breachListError(error)
        }
        if parsed.flag("json") {
            Console.line(json(report, vault: context.path, hibp: hibpPath).prettyPrinted)
        } else {
            Console.out(text(report, vault: context.path, hibp: hibpPath))
        }
        // Something found: the report is out, the exit code says so (no error line).
        if !report.isHealthy { throw CLIError(.problemsFound, "") }
    }

    static func openBreachList(_ path: String) throws -> any PwnedPasswordsSource {
        do {
            return try PwnedPasswords.open(path)
        } catch {
            throw breachListError(error)
        }
    }

    /// A breach list's error as the CLI reports it: a damaged list is a corrupted file (exit 4),
    /// a missing or unreadable one a failure (exit 1).
    static func breachListError(_ error: HealthError) -> CLIError {
        let code: ExitCode = error.code == .io ? .failure : .corruptedOrUnsupported
        return CLIError(code, "HIBP list \(error.description)")
    }

    // MARK: Text

    static func text(_ report: VaultHealthReport, vault: String, hibp: String?) -> String {
        let options = report.options
        var out = "Analysed \(count(report.entriesChecked, "entry", "entries"))"
        if report.passwordsChecked != report.entriesChecked {
            out += " (\(count(report.passwordsChecked, "password", "passwords")) with the history)"
        }
        out += " of \(Text.oneLine(vault))"
        out += hibp.map { " against \(Text.oneLine($0))" } ?? " (no HIBP list: --hibp FILE also looks for breached passwords)"
        out += ".\n"
        let counts = report.counts
        var summary: [String] = []
        for problem in HealthProblem.allCases {
            let n = counts[problem] ?? 0
            switch problem {
            case .breached where hibp == nil: continue
            case .old where options.olderThanDays == nil: continue
            case .expiring where options.expiringWithinDays == 0: continue
            case .breached: summary.append("\(n) breached")
            case .empty: summary.append("\(n) empty")
            case .weak: summary.append("\(n) weak (score below \(options.minimumScore))")
            case .reused: summary.append(n == 0 ? "0 reused" : "\(n) reused (\(count(report.reuseGroupCount, "password", "passwords")))")
            case .expired: summary.append("\(n) expired")
            case .expiring: summary.append("\(n) expiring within \(count(options.expiringWithinDays, "day", "days"))")
            case .old: summary.append("\(n) unchanged for over \(count(options.olderThanDays ?? 0, "day", "days"))")
            }
        }
        out += "Summary: " + summary.joined(separator: ", ") + ".\n"
        guard !report.isHealthy else { return out + "No problems found.\n" }
        out += "\(count(report.entriesWithProblems, "entry has", "entries have")) problems.\n"
        for problem in HealthProblem.allCases {
            let findings = report.findings(problem)
            guard !findings.isEmpty else { continue }
            if problem == .reused {
                out += "\n\(problem.title) (\(count(findings.count, "entry", "entries")), \(count(report.reuseGroupCount, "password", "passwords"))):\n"
                out += reusedText(findings)
                continue
            }
            out += "\n\(problem.title) (\(findings.count)):\n"
            out += Text.columns(findings.map { ["  " + name($0.item), detail($0)] })
        }
        return out
    }

    /// Reused passwords as groups: `  1. Work/GitHub, Personal/Dropbox`.
    private static func reusedText(_ findings: [HealthFinding]) -> String {
        var groups: [(Int, [HealthItem])] = []
        for finding in findings {
            guard case .reused(let group, _) = finding.detail else { continue }
            if groups.last?.0 == group {
                groups[groups.count - 1].1.append(finding.item)
            } else {
                groups.append((group, [finding.item]))
            }
        }
        return groups.map { group, items in
            "  \(group). " + Text.oneLine(items.map(name).joined(separator: ", ")) + "\n"
        }.joined()
    }

    /// An item as `ls --paths` names it, with `(history, TIME)` or `(recycled)` when it is one.
    static func name(_ item: HealthItem) -> String {
        var text = Vault.displayPath(item.path)
        if let version = item.historyVersion { text += " (history, \(Text.time(version)))" }
        if item.isRecycled { text += " (recycled)" }
        return text
    }

    private static func detail(_ finding: HealthFinding) -> String {
        switch finding.detail {
        case .breached(let count): return "seen \(count) time\(count == 1 ? "" : "s")"
        case .empty: return "no password"
        case .weak(let score, _, let bits, let pattern):
            return "score \(score) (\(StrengthEstimate.scoreName(score))), \(oneDecimal(bits)) bits: \(pattern)"
        case .reused: return ""
        case .expired(let expiry): return "expired \(Text.time(expiry))"
        case .expiring(let expiry, let days):
            return "expires \(Text.time(expiry)), " + (days == 0 ? "within a day" : "in \(count(days, "day", "days"))")
        case .old(let changed, let days): return "unchanged since \(Text.time(changed)) (\(count(days, "day", "days")))"
        }
    }

    // MARK: JSON

    static func json(_ report: VaultHealthReport, vault: String, hibp: String?) -> JSON {
        let counts = report.counts
        var summary: [(String, JSON)] = HealthProblem.allCases.map { ($0.rawValue, .int(counts[$0] ?? 0)) }
        summary.append(("reusedPasswords", .int(report.reuseGroupCount)))
        summary.append(("entriesWithProblems", .int(report.entriesWithProblems)))
        let options = report.options
        return .object([
            ("vault", .string(vault)),
            ("hibp", .string(hibp)),
            ("entriesChecked", .int(report.entriesChecked)),
            ("passwordsChecked", .int(report.passwordsChecked)),
            ("options", .object([
                ("includeRecycleBin", .bool(options.includeRecycleBin)),
                ("includeHistory", .bool(options.includeHistory)),
                ("minimumScore", .int(options.minimumScore)),
                ("expiringWithinDays", .int(options.expiringWithinDays)),
                ("olderThanDays", options.olderThanDays.map { .int($0) } ?? .null),
            ])),
            ("summary", .object(summary)),
            ("findings", .array(report.findings.map(json))),
        ])
    }

    /// `{problem, path, uuid, title, history, recycled, ...details}`.
    private static func json(_ finding: HealthFinding) -> JSON {
        var members: [(String, JSON)] = [("problem", .string(finding.problem.rawValue))]
        members += itemMembers(finding.item)
        switch finding.detail {
        case .breached(let count):
            members.append(("breachCount", .int(Int(clamping: count))))
        case .empty:
            break
        case .weak(let score, let log10, let bits, let pattern):
            members += [("score", .int(score)), ("entropyBits", .decimal(bits, places: 3)),
                        ("guessesLog10", .decimal(log10, places: 3)), ("pattern", .string(pattern))]
        case .reused(let group, let others):
            members += [("reuseGroup", .int(group)), ("sharedWith", .array(others.map { .object(itemMembers($0)) }))]
        case .expired(let expiry):
            members.append(("expiry", .string(Text.time(expiry))))
        case .expiring(let expiry, let days):
            members += [("expiry", .string(Text.time(expiry))), ("daysLeft", .int(days))]
        case .old(let changed, let days):
            members += [("passwordChanged", .string(Text.time(changed))), ("ageDays", .int(days))]
        }
        return .object(members)
    }

    private static func itemMembers(_ item: HealthItem) -> [(String, JSON)] {
        [
            ("path", .string(Vault.displayPath(item.path))),
            ("uuid", .string(item.entryUUID.hexString)),
            ("history", item.historyVersion.map { .string(Text.time($0)) } ?? .null),
            ("recycled", .bool(item.isRecycled)),
        ]
    }

    // MARK: Words

    static func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }

    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(abs(tenths % 10))"
    }
}
