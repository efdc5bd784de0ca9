import MyPassBytes
import MyPassCrypto
import MyPassKDBX

/// The vault health report: what KeePassXC's health check and HIBP report, Bitwarden's vault
/// health reports and 1Password's Watchtower tell about a vault's passwords.
public enum VaultHealth {
    /// Looks at every current entry (the recycle bin and history items only when `options` asks)
    /// and reports breached, empty, weak, reused, expired, expiring and old passwords.
    ///
    /// - Every entry with a password, a user name or a URL is looked at; an entry with none of them
    ///   (a note) has no password problem. A password that is a field reference (`{REF:...}`) is
    ///   the referenced entry's, looked at there; the breach list is searched for every password,
    ///   references and empty ones included, as `keepassxc-cli analyze --hibp` does.
    /// - Weak: below `options.minimumScore`, unless the entry's `QualityCheck` is off (KeePass's
    ///   per-entry switch for the quality estimate).
    /// - Reused: passwords are compared by HMAC-SHA-256 under a random key drawn for this call (in
    ///   wiping storage, dropped before returning) over the password's bytes, revealed one at a
    ///   time in wiped scratch buffers; no copy of a password outlives the comparison. Each distinct
    ///   password is estimated and searched once.
    /// - Cost: one strength estimate and one breach list lookup per distinct password (tens of
    ///   microseconds and about 30 small reads on the full HIBP list), plus decoding the frequency
    ///   lists on first use.
    ///
    /// - Throws: ``HealthError`` from the breach list (damaged or unreadable where it was read); no
    ///   partial report is returned then.
    public static func analyze(
        _ vault: Vault, options: VaultHealthOptions, breachList: (any PwnedPasswordsSource)? = nil
    ) throws(HealthError) -> VaultHealthReport {
        let candidates = collect(vault, options: options)
        var key = SecureBytes(zeroedCount: 32)
        key.withUnsafeMutableBytes { SecureRandom.fill($0) }
        defer { key.removeAll() }

        // One fingerprint per password; the first item with it stands for it in the lookups.
        var fingerprints: [Fingerprint] = []
        var representative: [Fingerprint: Int] = [:]
        for (index, candidate) in candidates.enumerated() {
            let fingerprint = candidate.password.withRevealedBytes { bytes in
                var mac = HMAC<SHA256>(key: key)
                mac.update(bytes)
                var tag = mac.finalize()
                defer { wipe(&tag) }
                return Fingerprint(tag)
            }
            fingerprints.append(fingerprint)
            if representative[fingerprint] == nil { representative[fingerprint] = index }
        }

        var breachCounts: [Fingerprint: Int64] = [:]
        if let breachList {
            for (fingerprint, index) in representative {
                let count = try breachList.occurrences(of: candidates[index].password)
                if count > 0 { breachCounts[fingerprint] = count }
            }
        }

        let estimator = PasswordStrength(configuration: options.strength)
        var estimates: [Fingerprint: StrengthEstimate] = [:]
        var findings: [HealthFinding] = []
        var weak: [(HealthFinding, Double)] = []
        var reuse: [Fingerprint: [Int]] = [:]
        for (index, candidate) in candidates.enumerated() {
            let fingerprint = fingerprints[index]
            if let count = breachCounts[fingerprint] {
                findings.append(HealthFinding(item: candidate.item, detail: .breached(count: count)))
            }
            guard candidate.kind == .password else {
                if candidate.kind == .empty { findings.append(HealthFinding(item: candidate.item, detail: .empty)) }
                continue
            }
            reuse[fingerprint, default: []].append(index)
            guard candidate.qualityCheck else { continue }
            let estimate = estimates[fingerprint] ?? estimator.estimate(candidate.password)
            estimates[fingerprint] = estimate
            if estimate.score < options.minimumScore {
                let detail = HealthFinding.Detail.weak(
                    score: estimate.score, guessesLog10: estimate.guessesLog10, entropyBits: estimate.entropyBits,
                    pattern: estimate.mainMatch?.kindDescription ?? "nothing")
                weak.append((HealthFinding(item: candidate.item, detail: detail), estimate.guesses))
            }
        }

        // Breached: the most seen first; empty: by path.
        func breachCount(_ finding: HealthFinding) -> Int64 {
            if case .breached(let count) = finding.detail { return count }
            return 0
        }
        findings.sort { a, b in
            let x = breachCount(a), y = breachCount(b)
            return x != y ? x > y : Self.isBefore(a.item, b.item)
        }
        findings += weak.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : Self.isBefore($0.0.item, $1.0.item) }.map(\.0)
        findings += reusedFindings(reuse, candidates)
        findings += timeFindings(candidates, options: options)
        // Grouped by problem in report order (the sort is stable within each group).
        let order = Dictionary(uniqueKeysWithValues: HealthProblem.allCases.enumerated().map { ($1, $0) })
        findings = findings.enumerated().sorted {
            let a = order[$0.element.problem]!, b = order[$1.element.problem]!
            return a != b ? a < b : $0.offset < $1.offset
        }.map(\.element)

        return VaultHealthReport(
            findings: findings, entriesChecked: candidates.filter { $0.item.historyVersion == nil }.count,
            passwordsChecked: candidates.count, breachListSearched: breachList != nil, options: options)
    }

    // MARK: The passwords looked at

    /// A password the report looks at, with what the checks need.
    struct Candidate {
        enum Kind { case password, empty, none }
        var item: HealthItem
        var password: ProtectedString
        /// `.password` for a real password; `.empty` for a login without one; `.none` for a note
        /// or a field reference (looked up in the breach list only).
        var kind: Kind
        var qualityCheck: Bool
        /// The current entry (nil for a history item): expiry and password age.
        var entry: Entry?
    }

    /// The current entries (and, when asked, the recycle bin's and every history item), pre-order.
    static func collect(_ vault: Vault, options: VaultHealthOptions) -> [Candidate] {
        var out: [Candidate] = []
        let bin = vault.meta.recycleBinUUID
        func walk(_ group: Group, path: [String], recycled: Bool) {
            let inBin = recycled || (!bin.isZero && group.uuid == bin)
            if !inBin || options.includeRecycleBin {
                for entry in group.entries {
                    let item = HealthItem(entryUUID: entry.uuid, path: path + [entry.title], isRecycled: inBin)
                    out.append(candidate(entry, item: item, current: true))
                    guard options.includeHistory else { continue }
                    for version in entry.history {
                        var old = item
                        old.historyVersion = version.times.lastModification
                        out.append(candidate(version, item: old, current: false))
                    }
                }
            }
            for child in group.groups { walk(child, path: path + [child.name], recycled: inBin) }
        }
        walk(vault.root, path: [], recycled: false)
        return out
    }

    private static func candidate(_ entry: Entry, item: HealthItem, current: Bool) -> Candidate {
        let password = entry.password
        let kind: Candidate.Kind
        if password.isEmpty {
            kind = entry.userName.isEmpty && entry.url.isEmpty ? .none : .empty
        } else {
            kind = isFieldReference(password) ? .none : .password
        }
        return Candidate(item: item, password: password, kind: kind, qualityCheck: entry.qualityCheck, entry: current ? entry : nil)
    }

    /// Whether the value starts with `{REF:` (any case): KeePass's field reference.
    private static func isFieldReference(_ value: ProtectedString) -> Bool {
        value.withRevealedBytes { bytes in
            func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
            let prefix = Array("{ref:".utf8)
            return bytes.count >= prefix.count && prefix.indices.allSatisfy { lower(bytes[$0]) == prefix[$0] }
        }
    }

    // MARK: Findings

    /// Reused passwords: each set of items of two or more entries sharing one, most entries first.
    private static func reusedFindings(_ reuse: [Fingerprint: [Int]], _ candidates: [Candidate]) -> [HealthFinding] {
        let groups = reuse.values
            .filter { Set($0.map { candidates[$0].item.entryUUID }).count > 1 }
            .map { $0.sorted { isBefore(candidates[$0].item, candidates[$1].item) } }
            .sorted { a, b in
                let x = Set(a.map { candidates[$0].item.entryUUID }).count, y = Set(b.map { candidates[$0].item.entryUUID }).count
                return x != y ? x > y : isBefore(candidates[a[0]].item, candidates[b[0]].item)
            }
        var out: [HealthFinding] = []
        for (number, group) in groups.enumerated() {
            for index in group {
                let item = candidates[index].item
                let others = group.map { candidates[$0].item }.filter { $0.entryUUID != item.entryUUID }
                out.append(HealthFinding(item: item, detail: .reused(group: number + 1, others: others)))
            }
        }
        return out
    }

    /// Expired, expiring and old: current entries only.
    private static func timeFindings(_ candidates: [Candidate], options: VaultHealthOptions) -> [HealthFinding] {
        let day: Int64 = 86_400
        let now = options.now.secondsSinceEpoch
        var expired: [HealthFinding] = [], expiring: [HealthFinding] = [], old: [HealthFinding] = []
        for candidate in candidates {
            guard let entry = candidate.entry else { continue }
            let times = entry.times
            if times.expires {
                let expiry = times.expiry.secondsSinceEpoch
                if expiry <= now {
                    expired.append(HealthFinding(item: candidate.item, detail: .expired(expiry: times.expiry)))
                } else if expiry - now <= Int64(options.expiringWithinDays) * day {
                    expiring.append(HealthFinding(item: candidate.item, detail: .expiring(expiry: times.expiry, daysLeft: Int((expiry - now) / day))))
                }
            }
            if let limit = options.olderThanDays, candidate.kind == .password {
                let changed = passwordChangeTime(entry)
                let age = now - changed.secondsSinceEpoch
                if age > Int64(limit) * day {
                    old.append(HealthFinding(item: candidate.item, detail: .old(changed: changed, ageDays: Int(age / day))))
                }
            }
        }
        func time(_ finding: HealthFinding) -> Int64 {
            switch finding.detail {
            case .expired(let expiry), .expiring(let expiry, _): return expiry.secondsSinceEpoch
            case .old(let changed, _): return changed.secondsSinceEpoch
            default: return 0
            }
        }
        let byTime: (HealthFinding, HealthFinding) -> Bool = { time($0) != time($1) ? time($0) < time($1) : isBefore($0.item, $1.item) }
        return expired.sorted(by: byTime) + expiring.sorted(by: byTime) + old.sorted(by: byTime)
    }

    /// When the entry's password was last set: the last modification of the first version, going
    /// back through the history, that has today's password; the entry's creation if every version has it.
    public static func passwordChangeTime(_ entry: Entry) -> KDBXTime {
        let current = entry.password
        var first = entry.times.lastModification
        for version in entry.history.reversed() {
            guard version.password == current else { return first }
            first = version.times.lastModification
        }
        return entry.times.creation
    }

    /// Report order of items: by path, the current entry before its history (oldest version first).
    static func isBefore(_ a: HealthItem, _ b: HealthItem) -> Bool {
        if a.path != b.path { return a.path.lexicographicallyPrecedes(b.path) }
        switch (a.historyVersion, b.historyVersion) {
        case (nil, .some): return true
        case (.some(let x), .some(let y)): return x < y
        default: return false
        }
    }
}

/// A keyed hash of a password (HMAC-SHA-256, 32 bytes) as a dictionary key.
struct Fingerprint: Hashable {
    private let words: (UInt64, UInt64, UInt64, UInt64)

    init(_ tag: [UInt8]) {
        func word(_ offset: Int) -> UInt64 {
            (0..<8).reduce(UInt64(0)) { $0 << 8 | UInt64(tag[offset + $1]) }
        }
        words = (word(0), word(8), word(16), word(24))
    }

    static func == (a: Fingerprint, b: Fingerprint) -> Bool { a.words == b.words }

    func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }
}
