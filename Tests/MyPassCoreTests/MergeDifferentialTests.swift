import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX
import MyPassTestSupport
import Testing

/// Random but reproducible divergent edits of two copies of a vault, with controlled times: every
/// operation gets its own minute, so no two changes tie (ties, where we keep the losing state in the
/// history, are covered by `MergeInteropTests`). Moves happen first, then the other changes.
struct DivergentPair {
    var local: Vault
    var remote: Vault
    var log: [String] = []

    private struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9e37_79b9_7f4a_7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return z ^ (z >> 31)
        }
    }

    init(base: Vault, seed: UInt64, start: KDBXTime, moves: Int = 6, operations: Int = 24) {
        local = base
        remote = base
        var rng = SplitMix64(state: seed)
        var minute: Int64 = 0
        func now() -> KDBXTime {
            minute += 1
            return KDBXTime(secondsSinceEpoch: start.secondsSinceEpoch + minute * 60)
        }
        for _ in 0..<moves {
            let onLocal = Bool.random(using: &rng)
            if onLocal { Self.move(&local, now(), &rng, &log, "local") } else { Self.move(&remote, now(), &rng, &log, "remote") }
        }
        for step in 0..<operations {
            let onLocal = Bool.random(using: &rng)
            let kind = Int.random(in: 0..<20, using: &rng)
            let time = now()
            let side = onLocal ? "local" : "remote"
            if onLocal {
                Self.change(&local, kind: kind, step: step, time, &rng, &log, side)
            } else {
                Self.change(&remote, kind: kind, step: step, time, &rng, &log, side)
            }
        }
    }

    private static func move(_ vault: inout Vault, _ time: KDBXTime, _ rng: inout SplitMix64,
                             _ log: inout [String], _ side: String) {
        let groups = vault.allGroups
        if Bool.random(using: &rng) {
            let entry = vault.allEntries.randomElement(using: &rng)!
            let target = groups.randomElement(using: &rng)!
            try? vault.moveEntry(entry.uuid, to: target.uuid, now: time)
            log.append("\(side) \(time) move entry \(entry.title) to \(target.name)")
        } else {
            let group = groups.dropFirst().randomElement(using: &rng)!
            let target = groups.randomElement(using: &rng)!
            guard group.group(withUUID: target.uuid) == nil else { return }
            try? vault.moveGroup(group.uuid, to: target.uuid, now: time)
            log.append("\(side) \(time) move group \(group.name) to \(target.name)")
        }
    }

    private static func change(_ vault: inout Vault, kind: Int, step: Int, _ time: KDBXTime,
                               _ rng: inout SplitMix64, _ log: inout [String], _ side: String) {
        let entries = vault.allEntries, groups = vault.allGroups
        switch kind {
        case 0..<7:
            guard let entry = entries.randomElement(using: &rng) else { return }
            let what = Int.random(in: 0..<4, using: &rng)
            _ = try? vault.editEntry(entry.uuid, now: time) { e in
                switch what {
                case 0: e.notes += " \(side) note \(step)"
                case 1: e.userName = "\(side)-user-\(step)"
                case 2: e.tags.append("\(side)\(step)")
                default: try e.addAttachment(named: "\(side)-\(step).txt", data: Array("file \(step % 3)".utf8))
                }
            }
            log.append("\(side) \(time) edit entry \(entry.title) (\(what))")
        case 7..<10:
            var entry = Entry()
            entry.title = "\(side) new \(step)"
            entry.password = ProtectedString("secret \(step)")
            let target = groups.randomElement(using: &rng)!
            _ = try? vault.addEntry(entry, to: target.uuid, now: time)
            log.append("\(side) \(time) add entry to \(target.name)")
        case 10..<12:
            let target = groups.randomElement(using: &rng)!
            _ = try? vault.addGroup(named: "\(side) group \(step)", in: target.uuid, now: time)
            log.append("\(side) \(time) add group to \(target.name)")
        case 12..<14:
            let group = groups.randomElement(using: &rng)!
            _ = try? vault.editGroup(group.uuid, now: time) { $0.notes = "\(side) notes \(step)" }
            log.append("\(side) \(time) edit group \(group.name)")
        case 14..<17:
            guard let entry = entries.randomElement(using: &rng) else { return }
            _ = try? vault.deleteEntry(entry.uuid, now: time)
            log.append("\(side) \(time) delete entry \(entry.title)")
        case 17:
            guard let group = groups.dropFirst().randomElement(using: &rng) else { return }
            _ = try? vault.deleteGroup(group.uuid, now: time)
            log.append("\(side) \(time) delete group \(group.name)")
        default:
            if Bool.random(using: &rng) {
                vault.meta.databaseName = "\(side) name \(step)"
                vault.meta.databaseNameChanged = time
            } else {
                vault.meta.defaultUserName = "\(side) user \(step)"
                vault.meta.defaultUserNameChanged = time
            }
            log.append("\(side) \(time) meta")
        }
    }
}

/// `VaultMerge` against KeePass 2's own Synchronize (`kporacle merge`, KeePass's `PwDatabase.MergeIn`)
/// on generated divergent pairs made from a KeePass fixture: both merged files, saved and dumped by
/// KeePass, give the same manifest (everything but the `file` section, times included).
@Suite("Merge against KeePass (kporacle)")
struct MergeDifferentialTests {
    static let password = "correct horse battery staple"

    static func baseVault(_ fixture: String = "kdbx4-aes-argon2d") throws -> Vault {
        let key = try CompositeKey(password: ProtectedString(password), keyFileContents: nil)
        var vault = try KDBXCodec.open(try TestVectors.bytes("kdbx/keepass/\(fixture).kdbx"), key: key)
        vault.meta.recycleBinEnabled = false  // deletes leave deleted objects instead of moving
        vault.format.kdf = .aes(rounds: 64)   // cheap to open
        return vault
    }

    static let seeds: [UInt64] = [1, 2, 3, 4, 5, 6, 7, 8]
    /// KDBX 4.0 pairs for every seed, and a few KDBX 3.1 ones.
    static let cases: [(String, UInt64)] = seeds.map { ("kdbx4-aes-argon2d", $0) }
        + [9, 10, 11].map { ("kdbx31-aes-aeskdf", $0) }

    /// The generated pairs, merged, exercise every kind of change (so the comparison with KeePass
    /// covers adds, updates, moves, deletions and meta).
    @Test func pairsCoverEveryKindOfChange() throws {
        let base = try Self.baseVault()
        let start = KDBXTime(year: 2026, month: 12, day: 1)!
        var seen: Set<String> = []
        for seed in Self.seeds {
            let pair = DivergentPair(base: base, seed: seed, start: start)
            let result = try VaultMerge.merge(local: pair.local, remote: pair.remote)
            for change in result.changes { seen.insert("\(change.kind.rawValue) \(change.object.rawValue)") }
        }
        let expected: Set<String> = ["added entry", "added group", "updated entry", "updated group", "moved entry",
                                     "moved group", "deleted entry", "deleted group", "updated meta"]
        #expect(expected.isSubset(of: seen), "missing: \(expected.subtracting(seen).sorted())")
    }

    @Test(arguments: cases)
    func sameManifestAsKeePass(fixture: String, seed: UInt64) throws {
        guard let kporacle = InteropTools.kporacleTests else {
            if let failure = InteropTools.missing("kporacle", test: "sameManifestAsKeePass") {
                Issue.record(Comment(rawValue: failure))
            }
            return
        }
        let base = try Self.baseVault(fixture)
        let start = KDBXTime(year: 2026, month: 12, day: 1)!
        let pair = DivergentPair(base: base, seed: seed, start: start)
        let key = try CompositeKey(password: ProtectedString(Self.password), keyFileContents: nil)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mypass-merge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func write(_ vault: Vault, _ name: String) throws -> URL {
            let url = dir.appendingPathComponent(name)
            try Data(try KDBXCodec.save(vault, key: key)).write(to: url)
            return url
        }
        let localURL = try write(pair.local, "local.kdbx"), remoteURL = try write(pair.remote, "remote.kdbx")

        // Ours merges what the files hold, as `mypass merge` would.
        let local = try KDBXCodec.open([UInt8](try Data(contentsOf: localURL)), key: key)
        let remote = try KDBXCodec.open([UInt8](try Data(contentsOf: remoteURL)), key: key)
        let result = try VaultMerge.merge(local: local, remote: remote)
        let oursURL = try write(result.vault, "ours.kdbx")
        // KeePass's merge of the pair, and ours, both saved by KeePass (its save drops the protection
        // flag of fields its memory protection does not cover, such as UserName), in one run.
        let run = try runProcess(kporacle, ["merge-dump", localURL.path, remoteURL.path, oursURL.path, "--pw", Self.password])
        try #require(run.status == 0, "kporacle merge-dump: \(run.stderrText)")
        let both = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any])
        var theirs = try #require(both["theirs"] as? [String: Any]), ours = try #require(both["ours"] as? [String: Any])
        theirs["file"] = nil
        ours["file"] = nil
        // Our one addition: history items of the same second that KeePass's union by time reduces to
        // one are all kept (the fixture's entries have such items). Those aside, the same result.
        let (_, problems) = MergeInteropTests.removingTieLosers(from: &ours, expected: theirs)
        #expect(problems.isEmpty, "\(fixture) seed \(seed): \(problems.prefix(6).joined(separator: "; "))")
        let differences = manifestDifferences(expected: theirs, actual: ours)
        #expect(differences.isEmpty, """
            \(fixture) seed \(seed): \(differences.prefix(12).joined(separator: "; "))
            operations: \(pair.log.joined(separator: "; "))
            """)
        // And merging again changes nothing.
        let again = try VaultMerge.merge(local: result.vault, remote: remote)
        #expect(again.vault == result.vault, "seed \(seed): a second merge changed the vault")
        #expect(again.changes.isEmpty, "seed \(seed): \(again.changes)")
    }
}
