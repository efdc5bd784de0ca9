import Foundation
import MyPassBytes
import MyPassCrypto
import MyPassHealth
import MyPassKDBX
import MyPassTestSupport
import Testing

/// The health report on ``HealthTestVault``: which entries each problem names, in which order,
/// with which details, under each option.
@Suite("Vault health report")
struct VaultHealthTests {
    /// The HIBP list of ``HealthTestVault/breached`` as a file in a fresh directory.
    static func breachList() throws -> (any PwnedPasswordsSource, URL) {
        let scratch = try PwnedPasswordsTests.scratchDirectory()
        let list = PwnedPasswordsTests.List(chosen: HealthTestVault.breached, fillers: 500)
        let path = try PwnedPasswordsTests.write(list.bytes(), in: scratch)
        return (try PwnedPasswords.open(path), scratch)
    }

    static func paths(_ findings: [HealthFinding]) -> [String] {
        findings.map { finding in
            var text = finding.item.path.joined(separator: "/")
            if finding.item.historyVersion != nil { text += " (history)" }
            return text
        }
    }

    static func analyze(_ configure: (inout VaultHealthOptions) -> Void = { _ in }) throws -> VaultHealthReport {
        let (list, scratch) = try breachList()
        defer { try? FileManager.default.removeItem(at: scratch) }
        var options = VaultHealthOptions(now: HealthTestVault.now)
        configure(&options)
        return try VaultHealth.analyze(HealthTestVault.make(), options: options, breachList: list)
    }

    @Test("the default report: breached by count, empty, weak by guesses, reused by group size, expired, expiring")
    func defaultReport() throws {
        let report = try Self.analyze()
        #expect(report.entriesChecked == 17 && report.passwordsChecked == 17)
        #expect(Self.paths(report.findings(.breached)) == [
            "Work/Jira", "Personal/Forum", "Work/Legacy", "Work/Email", "Work/PIN", "Personal/Ünïcødé ✓", "Personal/Long",
        ])
        #expect(report.findings(.breached).map { finding -> Int64 in
            if case .breached(let count) = finding.detail { return count }
            return -1
        } == [2_418_984, 980_123, 980_123, 1_234, 5, 3, 1])
        #expect(Self.paths(report.findings(.empty)) == ["Personal/Router"])
        // PIN ("abc") has QualityCheck off: breached, but not weak; the reference is nobody's password.
        let weak = report.findings(.weak)
        #expect(Self.paths(weak) == ["Personal/Forum", "Work/Legacy", "Work/Jira", "Work/Email"])
        guard case .weak(let score, let log10, let bits, let pattern) = weak[2].detail else { Issue.record("no weak detail"); return }
        #expect(score == 0 && abs(log10 - 2.2788) < 1e-3 && abs(bits - 7.5699) < 1e-3)
        #expect(pattern == "dictionary word (common passwords)")
        // Reused: the three-way password first, then the two-way one; each item names the others.
        let reused = report.findings(.reused)
        #expect(Self.paths(reused) == ["Personal/Bank", "Personal/Shop", "Shared/Team/Wiki", "Personal/Forum", "Work/Legacy"])
        #expect(report.reuseGroupCount == 2)
        guard case .reused(let group, let others) = reused[0].detail, case .reused(let group2, let others2) = reused[4].detail else {
            Issue.record("no reuse detail")
            return
        }
        #expect(group == 1 && others.map { $0.path.joined(separator: "/") } == ["Personal/Shop", "Shared/Team/Wiki"])
        #expect(group2 == 2 && others2.map { $0.path.joined(separator: "/") } == ["Personal/Forum"])
        #expect(report.findings(.expired).map(\.detail) == [.expired(expiry: KDBXTime(year: 2024, month: 1, day: 1)!)])
        #expect(report.findings(.expiring).map(\.detail) == [.expiring(expiry: KDBXTime(year: 2026, month: 6, day: 11)!, daysLeft: 10)])
        #expect(report.findings(.old).isEmpty, "no --older-than")
        // Grouped in the problems' order.
        let order = report.findings.map(\.problem)
        #expect(order == order.sorted { HealthProblem.allCases.firstIndex(of: $0)! < HealthProblem.allCases.firstIndex(of: $1)! })
        #expect(report.entriesWithProblems == 12)
        #expect(!report.isHealthy)
    }

    @Test("old passwords: the change time comes from the history; expiring within 0 days reports expired ones only")
    func oldAndExpiring() throws {
        let report = try Self.analyze {
            $0.olderThanDays = 365
            $0.expiringWithinDays = 0
        }
        #expect(report.findings(.expiring).isEmpty)
        let old = report.findings(.old)
        // Every password set in 2020 (creation) is over 365 days old; Old Server's since 2019-03-01.
        #expect(Self.paths(old).first == "Work/Old Server")
        #expect(old.first?.detail == .old(changed: KDBXTime(year: 2019, month: 3, day: 1)!, ageDays: 2649))
        // No empty, reference or note entry is "old".
        #expect(!Self.paths(old).contains("Personal/Router") && !Self.paths(old).contains("Work/Mirror of GitHub"))
        #expect(!Self.paths(old).contains("Notes/Server note"))
        #expect(VaultHealth.passwordChangeTime(HealthTestVault.make().root.groups[0].entries[0]) == KDBXTime(year: 2020, month: 1, day: 1)!)
    }

    @Test("history items and the recycle bin only when asked; an entry's own history is no reuse")
    func historyAndRecycleBin() throws {
        let report = try Self.analyze {
            $0.includeHistory = true
            $0.includeRecycleBin = true
        }
        #expect(report.entriesChecked == 18)
        #expect(report.passwordsChecked == 21)
        let breached = Self.paths(report.findings(.breached))
        #expect(breached.contains("Recycle Bin/Deleted") && breached.contains("Work/GitHub (history)"))
        #expect(breached.contains("Work/Old Server (history)"))
        let deleted = report.findings.first { $0.item.path == ["Recycle Bin", "Deleted"] }!
        #expect(deleted.item.isRecycled)
        // Deleted shares Jira's password; Old Server's history shares its current password: no reuse.
        #expect(Self.paths(report.findings(.reused)).contains("Recycle Bin/Deleted"))
        #expect(!Self.paths(report.findings(.reused)).contains { $0.hasPrefix("Work/Old Server") })
        let history = report.findings(.weak).first { $0.item.path == ["Work", "GitHub"] }
        #expect(history?.item.historyVersion == KDBXTime(year: 2020, month: 1, day: 1)!)
        #expect(report.findings(.expired).count == 1, "history items have no expiry finding")
    }

    @Test("a healthy vault, and one without a breach list: nothing breached, the rest as before")
    func healthyAndNoList() throws {
        var vault = Vault.new(name: "Fine", now: HealthTestVault.now)
        var entry = Entry(times: Times(all: HealthTestVault.now))
        entry.setValue("Site", for: Entry.StandardField.title)
        entry.setValue("sam", for: Entry.StandardField.userName)
        entry.setValue("Zq8!vR2#nW5@xT7&Lm", for: Entry.StandardField.password, isProtected: true)
        vault.root.entries = [entry]
        let (list, scratch) = try Self.breachList()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let report = try VaultHealth.analyze(vault, options: VaultHealthOptions(now: HealthTestVault.now), breachList: list)
        #expect(report.isHealthy && report.findings.isEmpty && report.entriesChecked == 1)
        let unlisted = try VaultHealth.analyze(HealthTestVault.make(), options: VaultHealthOptions(now: HealthTestVault.now))
        #expect(unlisted.findings(.breached).isEmpty && !unlisted.breachListSearched)
        #expect(unlisted.findings(.weak).count == 4)
    }

    @Test("the minimum score moves the weak line: 1 keeps the score-0 passwords, 0 none")
    func minimumScore() throws {
        // Scores: password1 and qwertyuiop 0, Summer2024! 2, every other password 4.
        let lenient = try Self.analyze { $0.minimumScore = 1 }
        #expect(Self.paths(lenient.findings(.weak)) == ["Personal/Forum", "Work/Legacy", "Work/Jira"])
        #expect(try Self.analyze { $0.minimumScore = 0 }.findings(.weak).isEmpty)
        #expect(try Self.analyze { $0.minimumScore = 4 }.findings(.weak).count == 4)
    }

    @Test("a damaged breach list ends the analysis with its error, never a report that says nothing is breached")
    func damagedList() throws {
        let scratch = try PwnedPasswordsTests.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        var lines = PwnedPasswordsTests.List(chosen: HealthTestVault.breached, fillers: 3_000).bytes()
            .split(separator: 0x0A).map(Array.init)
        // Corrupt the line after password1's, so that the lookup reads it.
        let target = hexString(SHA1.hash(Array("password1".utf8))).uppercased()
        let index = lines.firstIndex { String(decoding: $0, as: UTF8.self).hasPrefix(target) }!
        lines[index + 1][5] = UInt8(ascii: "x")
        let path = try PwnedPasswordsTests.write(Array(lines.joined(separator: [0x0A])) + [0x0A], in: scratch)
        let list = try PwnedPasswords.open(path)
        #expect(throws: HealthError(.malformedBreachList, "")) {
            try VaultHealth.analyze(HealthTestVault.make(), options: VaultHealthOptions(now: HealthTestVault.now), breachList: list)
        }
    }
}
