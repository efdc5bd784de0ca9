import Foundation
import MyPassBytes
import MyPassCrypto
import MyPassKDBX
import MyPassTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A vault in a real sync folder: two Syncthing instances on this machine play two devices
/// (``SyncthingPair``: loopback only, scripted through the REST API, started and stopped here).
/// Each scenario ends with both devices holding byte-identical vaults that contain every change,
/// and that KeePass (`kporacle`) and KeePassXC open.
@Suite("A vault in a Syncthing folder shared by two devices")
struct SyncthingTests {
    static let fixture = "kdbx/keepass/kdbx4-aes-argon2d.kdbx"
    static let password = "correct horse battery staple"
    static var stdin: String { password + "\n" }

    /// The tools, or nil (a visible skip, or a failure when interop is required).
    static func tools(_ test: String) -> (syncthing: URL, curl: URL, keepassxc: URL)? {
        guard let pair = SyncthingPair.tools(test: test) else { return nil }
        guard let keepassxc = InteropTools.executable(named: "keepassxc-cli") else {
            if let message = InteropTools.missing("keepassxc-cli", test: test) { Issue.record(Comment(rawValue: message)) }
            return nil
        }
        return (pair.syncthing, pair.curl, keepassxc)
    }

    /// `mypass ARGS --no-agent` with the password on stdin.
    @discardableResult
    static func mypass(_ arguments: [String], stdin: String = Self.stdin) throws -> ProcessResult {
        try CLI.run(arguments + ["--no-agent"], stdin: stdin)
    }

    static func keepassxc(_ tool: URL, _ arguments: [String]) throws -> ProcessResult {
        try runProcess(tool, arguments, stdin: Array(stdin.utf8))
    }

    static func vault(_ url: URL) throws -> Vault {
        try KDBXCodec.open([UInt8](try Data(contentsOf: url)),
                           key: try CompositeKey(password: ProtectedString(password), keyFileContents: nil))
    }

    /// The conflict copies in a device's folder.
    static func conflictCopies(_ pair: SyncthingPair, _ index: Int) throws -> [String] {
        try pair.files(index).keys.filter { $0.contains(".sync-conflict-") }.sorted()
    }

    /// The vault at `url` holds every title of `titles` and every notes value of `notes` (title:
    /// values), in the entry's current state or its history: the changes lost otherwise.
    static func lost(in url: URL, titles: Set<String>, notes: [String: [String]]) throws -> [String] {
        let vault = try vault(url)
        var byTitle: [String: Entry] = [:]
        for entry in vault.allEntries { byTitle[entry.title] = entry }
        var lost = titles.filter { byTitle[$0] == nil }.sorted().map { "entry \($0)" }
        for (title, values) in notes.sorted(by: { $0.key < $1.key }) {
            let entry = byTitle[title]
            let seen = Set(([entry?.notes] + (entry?.history.map(\.notes) ?? [])).compactMap { $0 })
            lost += values.filter { !seen.contains($0) }.map { "notes \($0) of \(title)" }
        }
        return lost
    }

    /// Both devices hold the same single vault; KeePass and KeePassXC open it.
    static func checkFinal(_ pair: SyncthingPair, keepassxc tool: URL) throws {
        let files = try pair.files(0)
        #expect(try files == pair.files(1))
        #expect(files.keys.sorted() == ["v.kdbx"], "\(files.keys.sorted())")
        for index in 0..<2 {
            let url = pair.devices[index].folder.appendingPathComponent("v.kdbx")
            let listed = try keepassxc(tool, ["ls", "-R", url.path])
            #expect(listed.status == 0, "keepassxc-cli ls on \(pair.devices[index].name): \(listed.stderrText)")
        }
        let url = pair.devices[0].folder.appendingPathComponent("v.kdbx")
        if let dump = try Interop.kporacleDump(url.path, password: password, test: "syncthing") {
            #expect((dump["entries"] as? [Any])?.isEmpty == false)
        }
    }

    @Test("the link paused, both devices change the vault (mypass and keepassxc-cli, then mypass on both); Syncthing's conflict copy is merged on one device and the result reaches the other")
    func pausedLinkConflictMerged() throws {
        guard let tools = Self.tools("pausedLinkConflictMerged") else { return }
        let scratch = try Scratch()
        let pair = try SyncthingPair(root: scratch.url, syncthing: tools.syncthing, curl: tools.curl)
        defer { pair.stop() }
        let a = pair.devices[0].folder.appendingPathComponent("v.kdbx"), b = pair.devices[1].folder.appendingPathComponent("v.kdbx")
        try FileManager.default.copyItem(at: TestVectors.url(Self.fixture), to: a)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: a.path)
        try pair.waitInSync()

        // Round 1: mypass on A, keepassxc-cli on B, the link paused.
        try pair.setLinkPaused(true)
        #expect(try Self.mypass(["add", a.path, "From A", "--username", "a"]).status == 0)
        #expect(try Self.keepassxc(tools.keepassxc, ["add", "-u", "b", b.path, "From B"]).status == 0)
        try pair.scan(0)
        try pair.scan(1)
        try pair.setLinkPaused(false)
        try pair.waitInSync()
        let copies = try Self.conflictCopies(pair, 0)
        #expect(copies.count == 1, "\(copies)")
        // Every open names the copy; the merge on A takes it in and removes it; B gets the result.
        let listed = try Self.mypass(["ls", a.path])
        #expect(listed.stderrText.contains("(Syncthing); merge it with: mypass merge \(a.path) --conflicts"), "\(listed.stderrText)")
        let merged = try Self.mypass(["merge", a.path, "--conflicts"])
        #expect(merged.status == 0, "\(merged.stdoutText) \(merged.stderrText)")
        try pair.waitInSync()
        #expect(try Self.conflictCopies(pair, 1).isEmpty)
        #expect(try Self.lost(in: b, titles: ["From A", "From B"], notes: [:]).isEmpty)

        // Round 2: mypass on both devices; the merge on B this time.
        try pair.setLinkPaused(true)
        #expect(try Self.mypass(["edit", a.path, "From B", "--notes", "changed on A"]).status == 0)
        #expect(try Self.mypass(["edit", b.path, "From A", "--notes", "changed on B"]).status == 0)
        #expect(try Self.mypass(["add", b.path, "From B again"]).status == 0)
        try pair.scan(0)
        try pair.scan(1)
        try pair.setLinkPaused(false)
        try pair.waitInSync()
        #expect(try Self.conflictCopies(pair, 1).count == 1)
        #expect(try Self.mypass(["merge", b.path, "--conflicts"]).status == 0)
        try pair.waitInSync()
        let lost = try Self.lost(in: a, titles: ["From A", "From B", "From B again"],
                                 notes: ["From B": ["changed on A"], "From A": ["changed on B"]])
        #expect(lost.isEmpty, "lost: \(lost); \(pair.log)")
        try Self.checkFinal(pair, keepassxc: tools.keepassxc)
    }

    @Test("mypass saves on one device while Syncthing replaces the file with the other device's version: the save sees it, merges, nothing is lost")
    func saveWhileSyncthingReplaces() throws {
        guard let tools = Self.tools("saveWhileSyncthingReplaces") else { return }
        let scratch = try Scratch()
        let pair = try SyncthingPair(root: scratch.url, syncthing: tools.syncthing, curl: tools.curl)
        defer { pair.stop() }
        let a = pair.devices[0].folder.appendingPathComponent("v.kdbx"), b = pair.devices[1].folder.appendingPathComponent("v.kdbx")
        try FileManager.default.copyItem(at: TestVectors.url(Self.fixture), to: a)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: a.path)
        // A large attachment makes the write of a save long enough to be caught in the act.
        var random = [UInt8](repeating: 0, count: 6 << 20)
        for index in stride(from: 0, to: random.count, by: 8) {
            let word = UInt64.random(in: .min ... .max)
            for byte in 0..<8 { random[index + byte] = UInt8(truncatingIfNeeded: word >> (8 * UInt64(byte))) }
        }
        let attachment = try scratch.write("big.bin", random)
        #expect(try Self.mypass(["add", a.path, "Big", "--attach", attachment]).status == 0)
        try pair.waitInSync()

        var titles: Set<String> = ["Big"]
        var caught = false
        for attempt in 0..<4 where !caught {
            // A's save starts; as soon as its temporary file exists, A is frozen mid-save.
            let before = try FileManager.default.attributesOfItem(atPath: a.path)[.systemFileNumber] as? Int
            let process = Process()
            process.executableURL = CLI.binary
            process.arguments = ["add", a.path, "From A \(attempt)", "--no-agent"]
            let input = Pipe(), errors = scratch.path("stderr-\(attempt)")
            _ = FileManager.default.createFile(atPath: errors, contents: nil)
            process.standardInput = input
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
            try process.run()
            input.fileHandleForWriting.write(Data(Self.stdin.utf8))
            try input.fileHandleForWriting.close()
            let folder = pair.devices[0].folder.path
            let deadline = Date().addingTimeInterval(60)
            var stopped = false
            while process.isRunning && Date() < deadline {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
                if names.contains(where: { $0.hasPrefix(".v.kdbx.mypass-") && $0.hasSuffix(".tmp") }) {
                    kill(process.processIdentifier, SIGSTOP)
                    stopped = true
                    break
                }
                usleep(1_000)
            }
            let inode = try FileManager.default.attributesOfItem(atPath: a.path)[.systemFileNumber] as? Int
            if stopped && inode == before {
                // B changes the vault; Syncthing brings B's version to A while A's save is frozen.
                let title = "From B \(attempt)"
                #expect(try Self.keepassxc(tools.keepassxc, ["add", "-u", "b", b.path, title]).status == 0)
                titles.insert(title)
                try pair.scan(1)
                let wanted = try pair.files(1)["v.kdbx"]
                try pair.waitUntil("Syncthing replaced A's file with B's version", seconds: 60) {
                    try pair.files(0)["v.kdbx"] == wanted
                }
            }
            if stopped { kill(process.processIdentifier, SIGCONT) }
            while process.isRunning && Date() < deadline.addingTimeInterval(30) { usleep(20_000) }
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            let stderr = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            #expect(process.terminationStatus == 0, "attempt \(attempt): \(stderr)")
            titles.insert("From A \(attempt)")
            if stopped && inode == before {
                #expect(stderr.contains("changed on disk since it was opened"), "attempt \(attempt): \(stderr)")
                caught = stderr.contains("changed on disk since it was opened")
            }
            pair.note("attempt \(attempt): stopped \(stopped), in time \(inode == before)")
            try pair.waitInSync()
            // A merge on save leaves no conflict: A's new version includes B's.
            #expect(try Self.conflictCopies(pair, 0).isEmpty || !caught)
            for index in 0..<2 where try !Self.conflictCopies(pair, index).isEmpty {
                #expect(try Self.mypass(["merge", pair.devices[index].folder.appendingPathComponent("v.kdbx").path, "--conflicts"]).status == 0)
                try pair.waitInSync()
            }
        }
        #expect(caught, "no save was caught while Syncthing replaced the file: \(pair.log)")
        let lost = try Self.lost(in: b, titles: titles, notes: [:])
        #expect(lost.isEmpty, "lost: \(lost)")
        try Self.checkFinal(pair, keepassxc: tools.keepassxc)
    }

    @Test("20 rounds of random edits on both devices, at once or one after the other, with the link paused and resumed at random: no change is lost")
    func randomRounds() throws {
        guard let tools = Self.tools("randomRounds") else { return }
        let scratch = try Scratch()
        let pair = try SyncthingPair(root: scratch.url, syncthing: tools.syncthing, curl: tools.curl)
        defer { pair.stop() }
        let urls = pair.devices.map { $0.folder.appendingPathComponent("v.kdbx") }
        try FileManager.default.copyItem(at: TestVectors.url(Self.fixture), to: urls[0])
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: urls[0].path)
        try pair.waitInSync()

        var rng = SplitMix64(state: 0x5EED_0034)
        var titles: Set<String> = [], notes: [String: [String]] = [:]
        var paused = false
        var knownCopies: Set<String> = []
        let results = LockedLog()
        /// Settles the devices while the link is up. Syncthing names a conflict copy by the second
        /// and the device, and a second conflict of the same second and device replaces the first
        /// copy (its `moveForConflict` renames over it): Syncthing's own loss, which MyPass cannot
        /// prevent, so a new conflict copy is given the rest of its second before the next round.
        func settle() throws {
            try pair.waitInSync()
            let copies = Set(try Self.conflictCopies(pair, 0))
            if !copies.subtracting(knownCopies).isEmpty { usleep(1_050_000) }
            knownCopies = copies
        }
        for round in 0..<20 {
            if Int.random(in: 0..<4, using: &rng) == 0 {
                paused.toggle()
                try pair.setLinkPaused(paused)
                if !paused { try settle() }
            }
            let sides = [[0], [1], [0, 1]].randomElement(using: &rng)!
            // Each side's change: an added entry, or notes on an entry it has (by KeePassXC when
            // the link is paused, now and then). With both sides, the second starts a little later,
            // so that it may run while Syncthing brings it the first side's change.
            var plans: [(side: Int, arguments: [String], keepassxc: Bool, title: String, notes: String?)] = []
            for side in sides {
                let name = "r\(round)-\(pair.devices[side].name)"
                let known = try Set(Self.vault(urls[side]).allEntries.map(\.title)).intersection(titles).sorted()
                if let target = known.randomElement(using: &rng), Bool.random(using: &rng) {
                    plans.append((side, ["edit", urls[side].path, target, "--notes", name], false, target, name))
                } else if paused && Int.random(in: 0..<3, using: &rng) == 0 {
                    plans.append((side, ["add", "-u", name, urls[side].path, name], true, name, nil))
                } else {
                    plans.append((side, ["add", urls[side].path, name, "--username", name], false, name, nil))
                }
            }
            let keepassxc = tools.keepassxc, frozen = plans, delay = UInt32.random(in: 0...400_000, using: &rng)
            let scanFirst = pair
            DispatchQueue.concurrentPerform(iterations: frozen.count) { index in
                let plan = frozen[index]
                if index == 1 { usleep(delay) }
                let run = plan.keepassxc ? try? Self.keepassxc(keepassxc, plan.arguments) : try? Self.mypass(plan.arguments)
                if index == 0 && frozen.count == 2 { try? scanFirst.scan(plan.side) }
                results.set(index, run?.status == 0, run?.stderrText ?? "did not run")
            }
            for (index, plan) in plans.enumerated() {
                let (succeeded, stderr) = results.get(index)
                #expect(succeeded, "round \(round): \(plan.arguments.first ?? "") failed: \(stderr)")
                guard succeeded else { continue }
                if let value = plan.notes { notes[plan.title, default: []].append(value) } else { titles.insert(plan.title) }
                pair.note("round \(round) \(pair.devices[plan.side].name): \(plan.arguments[0]) \(plan.title)")
            }
            for side in sides { try pair.scan(side) }
            if !paused { try settle() }
        }
        if paused { try pair.setLinkPaused(false) }
        try settle()
        // The conflict copies Syncthing made, merged on one device and then the other, until none is left.
        var merges = 0
        for pass in 0..<6 {
            let side = pass % 2
            guard try !Self.conflictCopies(pair, side).isEmpty else { break }
            let merged = try Self.mypass(["merge", urls[side].path, "--conflicts"])
            #expect(merged.status == 0, "\(merged.stdoutText) \(merged.stderrText)")
            merges += 1
            try pair.waitInSync()
        }
        pair.note("conflict merges: \(merges)")
        let lost = try Self.lost(in: urls[1], titles: titles, notes: notes)
        #expect(lost.isEmpty, "lost changes: \(lost); \(pair.log.suffix(30))")
        print("syncthing random rounds: \(titles.count) entries added, \(notes.values.map(\.count).reduce(0, +)) notes edits, \(merges) conflict merges, \(lost.count) lost")
        try Self.checkFinal(pair, keepassxc: tools.keepassxc)
    }
}

/// A reproducible random source for the rounds.
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

/// Results of concurrent runs, by index.
final class LockedLog: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int: (Bool, String)] = [:]
    func set(_ index: Int, _ succeeded: Bool, _ text: String) { lock.withLock { values[index] = (succeeded, text) } }
    func get(_ index: Int) -> (Bool, String) { lock.withLock { values[index] ?? (false, "no result") } }
}
