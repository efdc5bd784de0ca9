import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX
import MyPassTestSupport
import Testing

/// `VaultMerge` against KeePass's own Synchronize (`kporacle merge-dump`, KeePassLib's
/// `PwDatabase.MergeIn`) on pairs that the real clients made: two copies of a fixture changed by
/// `keepassxc-cli` (add, edit, rm, mv, mkdir, rmdir; some edits of the same entry on both copies at
/// once, so that they tie) or by KeePass's own commands (`kporacle diverge`), with real clocks, KDBX
/// 4.0 and 3.1. Both merged files are saved by KeePass and dumped: the manifests must agree, times
/// included, but for our one addition (a state that a tie loses is kept in the entry's history).
@Suite("Merge against KeePass on pairs made by KeePassXC and KeePass")
struct MergeInteropTests {
    static let password = "correct horse battery staple"

    /// Who made the two copies.
    enum Maker: String, Sendable {
        /// KeePass's commands, through `kporacle diverge`.
        case keePass
        /// `keepassxc-cli`, on both copies.
        case keePassXC
        /// `keepassxc-cli`: the local copy only added and edited (it stays at the base's version), the
        /// remote one also removed and moved (KeePassXC then writes KDBX 4.1): the merged vault keeps
        /// the local version.
        case keePassXCLocalKeepsVersion
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var maker: Maker
        var fixture: String
        var seed: UInt64
        var recycleBin: Bool
        var testDescription: String { "\(maker.rawValue) \(fixture) seed \(seed)\(recycleBin ? "" : " no recycle bin")" }
    }

    static let cases: [Case] = [
        Case(maker: .keePass, fixture: "keepass/kdbx4-aes-argon2d", seed: 1, recycleBin: true),
        Case(maker: .keePass, fixture: "keepass/kdbx31-aes-aeskdf", seed: 2, recycleBin: false),
        Case(maker: .keePassXC, fixture: "keepass/kdbx4-aes-argon2d", seed: 3, recycleBin: false),
        Case(maker: .keePassXC, fixture: "keepass/kdbx31-aes-aeskdf", seed: 4, recycleBin: true),
        Case(maker: .keePassXC, fixture: "keepassxc/kxc-import-rich", seed: 5, recycleBin: true),
        Case(maker: .keePassXCLocalKeepsVersion, fixture: "keepass/kdbx31-aes-aeskdf", seed: 6, recycleBin: true),
        Case(maker: .keePassXCLocalKeepsVersion, fixture: "keepassxc/kxc-import-rich", seed: 7, recycleBin: true),
    ]

    static var key: CompositeKey { try! CompositeKey(password: ProtectedString(password), keyFileContents: nil) }

    /// A scratch directory for one test.
    static func directory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mypass-merge-interop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The fixture as the base of a pair: cheap to open (AES-KDF 1000 rounds unless it has Argon2
    /// 1 MiB already), the recycle bin on or off, written by our codec at its own version.
    static func writeBase(_ fixture: String, recycleBin: Bool, to url: URL) throws -> KDBXVersion {
        var vault = try KDBXCodec.open(try TestVectors.bytes("kdbx/\(fixture).kdbx"), key: key)
        if case .aes = vault.format.kdf { vault.format.kdf = .aes(rounds: 1000) }
        vault.meta.recycleBinEnabled = recycleBin
        try Data(try KDBXCodec.save(vault, key: key)).write(to: url)
        return vault.format.version
    }

    static func open(_ url: URL) throws -> Vault {
        try KDBXCodec.open([UInt8](try Data(contentsOf: url)), key: key)
    }

    /// The KDBX version in a file's signature (bytes 8-11).
    static func fileVersion(_ url: URL) throws -> KDBXVersion {
        let bytes = [UInt8](try Data(contentsOf: url).prefix(12))
        return KDBXVersion(major: UInt16(bytes[10]) | UInt16(bytes[11]) << 8, minor: UInt16(bytes[8]) | UInt16(bytes[9]) << 8)
    }

    @Test(arguments: cases)
    func sameAsKeePass(_ testCase: Case) throws {
        guard let kporacle = InteropTools.kporacleTests else {
            if let failure = InteropTools.missing("kporacle", test: "sameAsKeePass") { Issue.record(Comment(rawValue: failure)) }
            return
        }
        let keepassxc = InteropTools.executable(named: "keepassxc-cli")
        if testCase.maker != .keePass && keepassxc == nil {
            if let failure = InteropTools.missing("keepassxc-cli", test: "sameAsKeePass") { Issue.record(Comment(rawValue: failure)) }
            return
        }
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let baseURL = dir.appendingPathComponent("base.kdbx")
        let localURL = dir.appendingPathComponent("local.kdbx"), remoteURL = dir.appendingPathComponent("remote.kdbx")
        let baseVersion = try Self.writeBase(testCase.fixture, recycleBin: testCase.recycleBin, to: baseURL)

        // The pair, made by the client.
        var log: [String] = []
        var tied: Set<KDBXUUID> = []
        switch testCase.maker {
        case .keePass:
            let run = try runProcess(kporacle, ["diverge", baseURL.path, localURL.path, remoteURL.path, "\(testCase.seed)", "14",
                                                "--pw", Self.password])
            try #require(run.status == 0, "kporacle diverge: \(run.stderrText)")
            log = run.stdoutText.split(separator: "\n").map(String.init)
        case .keePassXC, .keePassXCLocalKeepsVersion:
            try FileManager.default.copyItem(at: baseURL, to: localURL)
            try FileManager.default.copyItem(at: baseURL, to: remoteURL)
            var editor = KeePassXCPairEditor(cli: keepassxc!, password: Self.password, local: localURL, remote: remoteURL,
                                             seed: testCase.seed, localKeepsVersion: testCase.maker == .keePassXCLocalKeepsVersion)
            try editor.run(steps: 12)
            log = editor.log
            tied = editor.tied
        }
        let story = log.joined(separator: "; ")

        // Ours, as `mypass merge LOCAL REMOTE` makes it (the local file's format and version rule).
        let local = try Self.open(localURL), remote = try Self.open(remoteURL)
        let result = try VaultMerge.merge(local: local, remote: remote)
        let oursURL = dir.appendingPathComponent("ours.kdbx")
        try Data(try KDBXCodec.save(result.vault, key: Self.key)).write(to: oursURL)

        // No conflict that is only bookkeeping: every tie we log is an object both copies changed.
        if testCase.maker != .keePass {
            let conflicts = result.changes.filter { $0.kind == .conflict && $0.object == .entry }.compactMap(\.uuid)
            #expect(Set(conflicts).isSubset(of: tied), "conflicts on entries not edited on both sides: \(conflicts); \(story)")
        }

        // The version: the local file's, unless the merged content needs more.
        let localVersion = try Self.fileVersion(localURL), oursVersion = try Self.fileVersion(oursURL)
        #expect(oursVersion == max(localVersion, result.vault.requiredVersion, .v3_1), "\(story)")
        if testCase.maker != .keePassXC {
            #expect(localVersion == baseVersion, "\(story)")
            #expect(oursVersion == baseVersion, "the merge raised \(baseVersion) to \(oursVersion); \(story)")
        }

        // KeePass's merge of the same pair, and ours, both saved by KeePass.
        let run = try runProcess(kporacle, ["merge-dump", localURL.path, remoteURL.path, oursURL.path, "--pw", Self.password])
        try #require(run.status == 0, "kporacle merge-dump: \(run.stderrText)")
        let both = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any])
        var theirs = try #require(both["theirs"] as? [String: Any]), ours = try #require(both["ours"] as? [String: Any])
        theirs["file"] = nil
        ours["file"] = nil
        let (kept, problems) = Self.removingTieLosers(from: &ours, expected: theirs)
        #expect(problems.isEmpty, "\(problems.prefix(6).joined(separator: "; ")); \(story)")
        // KeePassXC's `_LAST_MODIFIED` in the database's custom data is the time of its last save
        // (bookkeeping it rewrites on every save): when the two copies were saved in different
        // seconds, which one a merge keeps is not data, and a loaded machine makes them differ.
        let differences = manifestDifferences(expected: theirs, actual: ours) { $0 == "$.meta.customData._LAST_MODIFIED" }
        #expect(differences.isEmpty, "\(differences.prefix(12).joined(separator: "; ")); \(story)")
        let conflicts = result.changes.filter { $0.kind == .conflict && $0.object == .entry }.count
        #expect(kept >= conflicts, "\(kept) tie losers kept, \(conflicts) entry conflicts logged; \(story)")

        // Merging again changes nothing.
        let again = try VaultMerge.merge(local: result.vault, remote: remote)
        #expect(again.changes.isEmpty, "\(again.changes); \(story)")
    }

    /// Our one addition to KeePass's merge keeps states that a tie loses in an entry's history: the
    /// local state of a tie, and a history item that another item of the same second replaces in
    /// KeePass's union by time. Removes such items from `ours` (an entry manifest's history items
    /// missing from `expected`'s, each of them sharing its modification time with another state of
    /// the entry), so that the rest can be compared with KeePass's result.
    /// - Returns: how many items were removed, and what is not such an item.
    static func removingTieLosers(from ours: inout [String: Any], expected theirs: [String: Any]) -> (Int, [String]) {
        guard var entries = ours["entries"] as? [[String: Any]], let expected = theirs["entries"] as? [[String: Any]],
              entries.count == expected.count
        else { return (0, []) }
        var removed = 0
        var problems: [String] = []
        for index in entries.indices {
            guard let history = entries[index]["history"] as? [[String: Any]],
                  let wanted = expected[index]["history"] as? [[String: Any]], history.count > wanted.count
            else { continue }
            func time(_ item: [String: Any]) -> String? { (item["times"] as? [String: Any])?["lastModification"] as? String }
            var kept: [[String: Any]] = []
            var next = 0
            for item in history {
                if next < wanted.count, NSDictionary(dictionary: item).isEqual(to: wanted[next]) {
                    kept.append(item)
                    next += 1
                    continue
                }
                let others = history.filter { !NSDictionary(dictionary: $0).isEqual(to: item) }.compactMap(time)
                    + [time(entries[index])].compactMap { $0 }
                if let when = time(item), others.contains(when) {
                    removed += 1
                } else {
                    problems.append("entry \(entries[index]["uuid"] ?? "?"): history item of \(time(item) ?? "?") is not in KeePass's result")
                    kept.append(item)
                }
            }
            entries[index]["history"] = kept
        }
        ours["entries"] = entries
        return (removed, problems)
    }

    /// The issue's case: one `keepassxc-cli add` on a copy of a KeePassXC vault whose groups and
    /// entries have custom data (so KeePassXC rewrites its `_LAST_MODIFIED` items on save). Merged,
    /// it is one added entry and its group's new modification time: no conflict, no history item.
    @Test func oneKeePassXCAddIsNoConflict() throws {
        guard let keepassxc = InteropTools.executable(named: "keepassxc-cli") else {
            if let failure = InteropTools.missing("keepassxc-cli", test: "oneKeePassXCAddIsNoConflict") {
                Issue.record(Comment(rawValue: failure))
            }
            return
        }
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let localURL = dir.appendingPathComponent("local.kdbx"), remoteURL = dir.appendingPathComponent("remote.kdbx")
        _ = try Self.writeBase("keepassxc/kxc-import-rich", recycleBin: true, to: localURL)
        // The local copy as KeePassXC saved it too (its own bookkeeping stamps), then the remote one.
        let touch = try runProcess(keepassxc, ["mkdir", localURL.path, "Local group"], stdin: Array("\(Self.password)\n".utf8))
        try #require(touch.status == 0, "\(touch.stderrText)")
        try FileManager.default.copyItem(at: localURL, to: remoteURL)
        Thread.sleep(forTimeInterval: 1.1)  // KeePassXC's stamps have whole seconds
        let add = try runProcess(keepassxc, ["add", "-u", "new", remoteURL.path, "Added"], stdin: Array("\(Self.password)\n".utf8))
        try #require(add.status == 0, "\(add.stderrText)")
        let local = try Self.open(localURL), remote = try Self.open(remoteURL)
        #expect(local.allEntries.contains { !$0.customData.isEmpty })
        #expect(remote.allEntries.map(\.customData) != local.allEntries.map(\.customData), "no bookkeeping rewritten")
        let result = try VaultMerge.merge(local: local, remote: remote)
        #expect(result.changes.map { "\($0.kind.rawValue) \($0.object.rawValue) \($0.path.joined(separator: "/"))" }
            == ["updated group ", "added entry Added"])
        func historyItems(_ vault: Vault) -> Int { vault.allEntries.reduce(0) { $0 + $1.history.count } }
        #expect(historyItems(result.vault) == historyItems(local))
    }
}

/// Random `keepassxc-cli` changes to two copies of a vault, with real clocks: add, edit (user name,
/// URL, notes, title), rm, mv, mkdir, rmdir, on one copy or on both at once (the same entry edited
/// on both copies by two processes started together: a tie, most of the time).
struct KeePassXCPairEditor {
    let cli: URL
    let password: String
    let local: URL
    let remote: URL
    /// The local copy only gets adds and edits (KeePassXC keeps its version then).
    let localKeepsVersion: Bool
    private var rng: SplitMix64
    private(set) var log: [String] = []
    /// Entries edited on both copies at once.
    private(set) var tied: Set<KDBXUUID> = []

    init(cli: URL, password: String, local: URL, remote: URL, seed: UInt64, localKeepsVersion: Bool) {
        self.cli = cli
        self.password = password
        self.local = local
        self.remote = remote
        self.localKeepsVersion = localKeepsVersion
        rng = SplitMix64(state: seed)
    }

    struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9e37_79b9_7f4a_7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return z ^ (z >> 31)
        }
    }

    /// The entries (by keepassxc-cli path) and groups (by path; "" for the root) of a copy outside
    /// the recycle bin, each with a path that names it alone.
    private func targets(_ url: URL) throws -> (entries: [(path: String, uuid: KDBXUUID)], groups: [String]) {
        let vault = try MergeInteropTests.open(url)
        let bin = vault.meta.recycleBinEnabled ? vault.meta.recycleBinUUID : nil
        var entries: [(String, KDBXUUID)] = [], groups: [String] = []
        var seen: [String: Int] = [:]
        func visit(_ group: Group, path: [String]) {
            if group.uuid == bin { return }
            if path.allSatisfy({ !$0.contains("/") && !$0.isEmpty }) {
                let groupPath = path.joined(separator: "/")
                groups.append(groupPath)
                for entry in group.entries where !entry.title.contains("/") && !entry.title.isEmpty {
                    let full = path.isEmpty ? entry.title : groupPath + "/" + entry.title
                    seen[full, default: 0] += 1
                    entries.append((full, entry.uuid))
                }
            }
            for child in group.groups { visit(child, path: path + [child.name]) }
        }
        visit(vault.root, path: [])
        return (entries.filter { seen[$0.0] == 1 }, groups)
    }

    private func keepassxc(_ arguments: [String]) throws -> Bool {
        try runProcess(cli, arguments, stdin: Array("\(password)\n".utf8)).status == 0
    }

    mutating func run(steps: Int) throws {
        for step in 0..<steps {
            if Int.random(in: 0..<4, using: &rng) == 0 {
                let onLocal = Set(try targets(local).entries.map(\.path))
                let common = try targets(remote).entries.filter { onLocal.contains($0.path) }
                if let target = common.randomElement(using: &rng) {
                    let option = ["-u", "--url", "--notes"].randomElement(using: &rng)!
                    let local = self.local, remote = self.remote, cli = self.cli, password = self.password
                    let results = LockedResults()
                    DispatchQueue.concurrentPerform(iterations: 2) { side in
                        let file = side == 0 ? local : remote
                        let run = try? runProcess(cli, ["edit", option, "\(side == 0 ? "local" : "remote") \(step)", file.path, target.path],
                                                  stdin: Array("\(password)\n".utf8))
                        results.set(side, run?.status == 0)
                    }
                    tied.insert(target.uuid)
                    log.append("both: edit \(option) \(target.path) \(results.all ? "" : "FAILED")")
                    continue
                }
            }
            let onLocal = Bool.random(using: &rng)
            let file = onLocal ? local : remote
            let (entries, groups) = try targets(file)
            var kinds = ["add", "edit", "edit", "mkdir"]
            if !(onLocal && localKeepsVersion) { kinds += ["rm", "mv", "rmdir"] }
            let kind = kinds.randomElement(using: &rng)!
            let name = "\(onLocal ? "l" : "r")\(step)"
            var arguments: [String]
            switch kind {
            case "add":
                let group = groups.randomElement(using: &rng)!
                arguments = ["add", "-u", name, "--url", "https://\(name).example/", file.path, group.isEmpty ? name : group + "/" + name]
            case "edit" where !entries.isEmpty:
                let option = ["-u", "--url", "--notes", "-t"].randomElement(using: &rng)!
                let entry = entries.randomElement(using: &rng)!
                let value = option == "-t" ? String(entry.path.split(separator: "/").last!) + "~" + name : name
                arguments = ["edit", option, value, file.path, entry.path]
            case "rm" where !entries.isEmpty:
                arguments = ["rm", file.path, entries.randomElement(using: &rng)!.path]
            case "mv" where !entries.isEmpty:
                let group = groups.randomElement(using: &rng)!
                arguments = ["mv", file.path, entries.randomElement(using: &rng)!.path, group.isEmpty ? "/" : group]
            case "rmdir" where groups.count > 1:
                arguments = ["rmdir", file.path, groups.dropFirst().randomElement(using: &rng)!]
            default:
                let group = groups.randomElement(using: &rng)!
                arguments = ["mkdir", file.path, group.isEmpty ? name + "G" : group + "/" + name + "G"]
            }
            let succeeded = try keepassxc(arguments)
            log.append("\(onLocal ? "local" : "remote"): \(arguments.filter { $0 != file.path }.joined(separator: " "))\(succeeded ? "" : " FAILED")")
        }
    }
}

/// Results of concurrent runs, by index.
private final class LockedResults: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int: Bool] = [:]
    func set(_ index: Int, _ value: Bool) { lock.withLock { values[index] = value } }
    var all: Bool { lock.withLock { values.values.allSatisfy { $0 } && values.count == 2 } }
}
