import MyPassKDBX

/// What is wrong with a vault's passwords: the findings of ``VaultHealth/analyze(_:options:breachList:)``
/// grouped by problem, the worst problem first and the worst case first within each, with counts.
///
/// Nothing in a report is secret: entries are named by path and UUID, a weak password by its score,
/// bits and the kind of pattern found (never the matched text or a dictionary rank), a reused one
/// by the other entries that share it. An app shows it as it is; `mypass analyze` prints it.
public struct VaultHealthReport: Sendable, Equatable {
    /// Every finding: grouped by ``HealthProblem`` in ``HealthProblem/allCases`` order (worst
    /// first), each group ordered worst first (see ``HealthProblem``).
    public var findings: [HealthFinding]
    /// The current entries looked at (recycled ones only when asked).
    public var entriesChecked: Int
    /// The passwords looked at: one per entry, plus one per history item when asked.
    public var passwordsChecked: Int
    /// Whether a breach list was searched (without one, nothing is reported as breached).
    public var breachListSearched: Bool
    /// The options the report was made with.
    public var options: VaultHealthOptions

    /// The findings of one problem, in report order.
    public func findings(_ problem: HealthProblem) -> [HealthFinding] {
        findings.filter { $0.problem == problem }
    }

    /// How many findings each problem has (problems without one are absent).
    public var counts: [HealthProblem: Int] {
        findings.reduce(into: [:]) { $0[$1.problem, default: 0] += 1 }
    }

    /// The number of distinct passwords shared by several entries.
    public var reuseGroupCount: Int {
        Set(findings.compactMap { finding -> Int? in
            if case .reused(let group, _) = finding.detail { return group }
            return nil
        }).count
    }

    /// The entries with at least one finding (by UUID).
    public var entriesWithProblems: Int { Set(findings.map(\.item.entryUUID)).count }

    /// Whether nothing was found.
    public var isHealthy: Bool { findings.isEmpty }
}

/// The problems a report names, worst first: ``allCases`` is the report's order.
public enum HealthProblem: String, Sendable, Equatable, CaseIterable {
    /// The password is in the breach list. Ordered by count, highest first.
    case breached
    /// The entry has a user name or URL but no password. Ordered by path.
    case empty
    /// The password's score is below the minimum. Ordered by guesses, fewest first.
    case weak
    /// Another entry has the same password. Ordered by how many share it, most first.
    case reused
    /// The entry has expired. Ordered by expiry, longest expired first.
    case expired
    /// The entry expires soon. Ordered by expiry, soonest first.
    case expiring
    /// The password has not changed for longer than the limit. Ordered by age, oldest first.
    case old

    /// A heading for the problem (`Breached passwords`).
    public var title: String {
        switch self {
        case .breached: return "Breached passwords"
        case .empty: return "Empty passwords"
        case .weak: return "Weak passwords"
        case .reused: return "Reused passwords"
        case .expired: return "Expired entries"
        case .expiring: return "Entries expiring soon"
        case .old: return "Old passwords"
        }
    }
}

/// A password the report looked at: an entry's current one, or one of its history items'.
public struct HealthItem: Sendable, Equatable, Hashable {
    /// The entry's UUID (history items share it).
    public var entryUUID: KDBXUUID
    /// The names of the groups below the root holding the entry, then its title (`["Work", "GitHub"]`).
    public var path: [String]
    /// Whether the entry is in the recycle bin.
    public var isRecycled: Bool
    /// For a history item: when that version was saved (its last modification time); nil for the
    /// current entry.
    public var historyVersion: KDBXTime?

    /// An item with its parts.
    public init(entryUUID: KDBXUUID, path: [String], isRecycled: Bool = false, historyVersion: KDBXTime? = nil) {
        self.entryUUID = entryUUID
        self.path = path
        self.isRecycled = isRecycled
        self.historyVersion = historyVersion
    }
}

/// One problem of one item.
public struct HealthFinding: Sendable, Equatable {
    /// The password concerned.
    public var item: HealthItem
    /// The problem's details.
    public var detail: Detail

    /// The details of each problem.
    public enum Detail: Sendable, Equatable {
        /// Seen `count` times in the breach list.
        case breached(count: Int64)
        /// No password, where a login (user name or URL) expects one.
        case empty
        /// The strength estimate: zxcvbn score, log10 of the guesses, bits (log2), and the
        /// main pattern found as words free of the password (``StrengthMatch/kindDescription``).
        case weak(score: Int, guessesLog10: Double, entropyBits: Double, pattern: String)
        /// Shared with `others`; `group` numbers the distinct shared passwords from 1, in report order.
        case reused(group: Int, others: [HealthItem])
        /// Expired at `expiry`.
        case expired(expiry: KDBXTime)
        /// Expires at `expiry`, `daysLeft` whole days from now.
        case expiring(expiry: KDBXTime, daysLeft: Int)
        /// The password was last changed at `changed`, `ageDays` whole days ago (from the history:
        /// the first version with today's password; the creation time if it never changed).
        case old(changed: KDBXTime, ageDays: Int)
    }

    /// The problem this finding is about.
    public var problem: HealthProblem {
        switch detail {
        case .breached: return .breached
        case .empty: return .empty
        case .weak: return .weak
        case .reused: return .reused
        case .expired: return .expired
        case .expiring: return .expiring
        case .old: return .old
        }
    }
}

/// What ``VaultHealth/analyze(_:options:breachList:)`` looks at and its thresholds.
public struct VaultHealthOptions: Sendable, Equatable {
    /// The time expiry and age are measured from.
    public var now: KDBXTime
    /// Also look at the entries in the recycle bin.
    public var includeRecycleBin = false
    /// Also look at every history item's password (breached, empty, weak, reused with another
    /// entry); expiry and age concern current entries only.
    public var includeHistory = false
    /// A password is weak below this zxcvbn score (0-4; 3: fewer than about 10^8 guesses is weak).
    public var minimumScore = 3
    /// An entry expiring within this many days is reported (0: expired ones only).
    public var expiringWithinDays = 30
    /// Report a password not changed for longer than this many days; nil: never.
    public var olderThanDays: Int?
    /// The strength estimator's assumptions.
    public var strength: PasswordStrength.Configuration

    /// Options with the defaults above, the estimator's years set from `now`.
    public init(now: KDBXTime) {
        self.now = now
        strength = .current(year: now.components.year)
    }
}
