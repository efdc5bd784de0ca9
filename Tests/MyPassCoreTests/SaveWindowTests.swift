import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX
import MyPassTestSupport
import Testing

/// Another program saves the vault while `VaultDocument.save` runs (the lock keeps out only other
/// MyPass processes): at every moment of the save, the other program's change and ours both end up
/// in the file, and our side runs no second KDF.
@Suite("Another program saves during our save")
struct SaveWindowTests {
    let now = KDBXTime(unixSeconds: 1_800_000_000)

    /// The moments the issue names, each reached through a seam.
    enum Moment: String, CaseIterable, CustomStringConvertible {
        /// While our KDF runs (the `KeyDerivation` seam, on the save's run).
        case duringKDF
        /// At the first write of the temporary file.
        case duringWrite
        /// When the written file is read back for the check.
        case duringVerification
        /// After the last identity check, just before the exchange or rename: the window that only
        /// an atomic exchange closes.
        case justBeforeReplace
        var description: String { rawValue }
    }

    /// Another program's save: the file read, a group added, the file written beside the vault and
    /// renamed over it, as KeePassXC and KeePass save (no lock). Each call adds a new group.
    final class OtherProgram: @unchecked Sendable {
        let url: URL
        let key: CompositeKey
        private let lock = NSLock()
        private var saves: [String] = []

        init(url: URL, key: CompositeKey) {
            self.url = url
            self.key = key
        }

        var groups: [String] { lock.withLock { saves } }

        /// Reads `source` (the vault by default), adds a group, renames its new version over the vault.
        func save(from source: URL? = nil) {
            do {
                var vault = try KDBXCodec.open([UInt8](try Data(contentsOf: source ?? url)), key: key)
                let name = "Theirs \(groups.count + 1)"
                try vault.addGroup(named: name, in: vault.root.uuid, now: KDBXTime(unixSeconds: Int64(Date().timeIntervalSince1970)))
                let staging = url.deletingLastPathComponent().appendingPathComponent("other-program.tmp")
                try Data(try KDBXCodec.save(vault, key: key)).write(to: staging)
                guard rename(staging.path, url.path) == 0 else { throw CoreError(.io, "rename") }
                lock.withLock { saves.append(name) }
            } catch {
                Issue.record("the other program's save failed: \(error)")
            }
        }
    }

    struct Setup {
        let dir: TempDirectory
        let url: URL
        let faulty: FaultyFileSystem
        let counter: KDFCounter
        let other: OtherProgram
        var document: VaultDocument
    }

    /// A vault, our document of it with a change, and the other program; `onKDF` runs inside each
    /// KDF run with its number (1: our open) and the other program.
    func setUp(exchanges: Bool = true, onKDF: (@Sendable (Int, OtherProgram) -> Void)? = nil) throws -> Setup {
        let dir = try TempDirectory()
        let url = dir.file("v.kdbx")
        try TestVaultFile.write(to: url)
        let faulty = FaultyFileSystem()
        faulty.supportsExchange = exchanges
        let other = OtherProgram(url: url, key: try TestVaultFile.key())
        let counter = KDFCounter()
        let base = counter.derivation
        let derivation = KeyDerivation { (key, kdf, limits, progress) throws(KDBXError) in
            let result = try base.transform(key, kdf, limits, progress)
            onKDF?(counter.count, other)
            return result
        }
        var document = try VaultDocument.open(url.path, key: try TestVaultFile.key(),
                                              options: VaultDocument.Options(fileSystem: faulty, keyDerivation: derivation))
        try document.vault.addGroup(named: "Ours", in: document.vault.root.uuid, now: now)
        return Setup(dir: dir, url: url, faulty: faulty, counter: counter, other: other, document: document)
    }

    /// The groups of the file on disk, below the root.
    func groups(_ url: URL) throws -> Set<String> {
        Set(try KDBXCodec.open([UInt8](try Data(contentsOf: url)), key: try TestVaultFile.key()).root.groups.map(\.name))
    }

    @Test(arguments: Moment.allCases, [true, false])
    func nothingIsLost(_ moment: Moment, exchanges: Bool) throws {
        // Without an exchange, a save that lands between our last check and our rename is lost:
        // the one window the platform leaves open (documented), so it is not tried there.
        if moment == .justBeforeReplace && !exchanges { return }
        let fired = Flag()
        var setup = try setUp(exchanges: exchanges, onKDF: { run, other in
            if moment == .duringKDF, run == 2, fired.set() { other.save() }
        })
        let tempPrefix = ".v.kdbx.mypass-"
        setup.faulty.beforeCall = { [other = setup.other] operation, path in
            let name = String(path.split(separator: "/").last ?? "")
            switch (moment, operation) {
            case (.duringWrite, .write), (.justBeforeReplace, .exchange):
                if fired.set() { other.save() }
            case (.duringVerification, .readFile) where name.hasPrefix(tempPrefix):
                if fired.set() { other.save() }
            default: break
            }
        }
        let report = try setup.document.save()
        #expect(fired.isSet, "the other program never ran")
        let found = try groups(setup.url)
        #expect(found.isSuperset(of: ["Ours"] + setup.other.groups), "\(moment): \(found)")
        #expect(setup.other.groups.count == 1)
        let merged = try #require(report.merged, "\(moment): no merge reported")
        // The log of the merge is relative to the file: our change added to the other program's.
        #expect(merged.contains { $0.hasPrefix("added group Ours") }, "\(merged)")
        // KDF runs: our open, our save, the other program's file (its new seed); none again for ours.
        #expect(setup.counter.count == 3, "\(moment): \(setup.counter.count) KDF runs")
        #expect(setup.dir.contents == ["v.kdbx"], "\(setup.dir.contents)")
        #expect(!setup.document.hasUnsavedChanges)
        // The document knows the file it wrote: a second save has nothing to merge.
        try setup.document.vault.addGroup(named: "Ours again", in: setup.document.vault.root.uuid, now: now)
        #expect(try setup.document.save().merged == nil)
        #expect(try groups(setup.url).isSuperset(of: ["Ours", "Ours again", "Theirs 1"]))
    }

    /// A sync client replacing the file the way Syncthing does (the old file removed, the new one
    /// renamed into place a moment later) just before our exchange: the save finds the path empty,
    /// waits for the new version and merges it.
    @Test func fileMissingForAnInstant() throws {
        var setup = try setUp()
        let fired = Flag(), done = Flag()
        setup.faulty.beforeCall = { [url = setup.url, other = setup.other] operation, _ in
            guard operation == .exchange, fired.set() else { return }
            let aside = url.deletingLastPathComponent().appendingPathComponent("syncing")
            _ = rename(url.path, aside.path)
            Thread.detachNewThread {
                usleep(300_000)
                other.save(from: aside)
                _ = unlink(aside.path)
                _ = done.set()
            }
        }
        let report = try setup.document.save()
        #expect(fired.isSet && done.isSet)
        let found = try groups(setup.url)
        #expect(found.isSuperset(of: ["Ours", "Theirs 1"]), "\(found)")
        #expect(report.merged != nil)
        #expect(setup.dir.contents == ["v.kdbx"], "\(setup.dir.contents)")
    }

    /// The other program saves at every file-system call of our save in turn (and inside the KDF):
    /// each change of both sides is in the file afterwards.
    @Test(arguments: [true, false])
    func atEveryCall(exchanges: Bool) throws {
        var dry = try setUp(exchanges: exchanges)
        dry.faulty.startRecording()
        try dry.document.save()
        let calls = dry.faulty.callLog
        let exchange = try #require(calls.firstIndex(of: .exchange))
        var lost: [String] = []
        // Every call up to the replacement: the exchange included; without one, up to the last
        // identity check (a save between it and the rename is the window the platform leaves).
        for k in 0..<(exchanges ? exchange + 1 : exchange) {
            var run = try setUp(exchanges: exchanges)
            let counter = Counter()
            run.faulty.beforeCall = { [other = run.other] _, _ in
                if counter.next() == k { other.save() }
            }
            try run.document.save()
            let found = try groups(run.url)
            for name in ["Ours"] + run.other.groups where !found.contains(name) { lost.append("call \(k) (\(calls[k])): \(name)") }
            #expect(run.other.groups.count == 1, "call \(k)")
            #expect(run.dir.contents == ["v.kdbx"], "call \(k): \(run.dir.contents)")
        }
        #expect(lost.isEmpty, "\(lost)")
    }

    /// KeePassXC (`keepassxc-cli add`, a real other writer with its own read, KDF and write) saves at
    /// every moment of our save in turn, inside the KDF included; the changes lost are counted.
    @Test func keePassXCAtEveryMoment() throws {
        guard let keepassxc = InteropTools.executable(named: "keepassxc-cli") else {
            if let failure = InteropTools.missing("keepassxc-cli", test: "keePassXCAtEveryMoment") {
                Issue.record(Comment(rawValue: failure))
            }
            return
        }
        @Sendable func keePassXCAdd(_ url: URL, _ title: String) -> Bool {
            let run = try? runProcess(keepassxc, ["add", "-u", "kx", url.path, title], stdin: Array("correct horse\n".utf8))
            return run?.status == 0
        }
        var dry = try setUp()
        dry.faulty.startRecording()
        try dry.document.save()
        let calls = dry.faulty.callLog.count
        var lost: [String] = []
        var rounds = 0
        // Every call of the save up to and including the exchange, and inside the save's KDF.
        let exchange = try #require(dry.faulty.callLog.firstIndex(of: .exchange))
        for k in -1...exchange {
            let added = Flag()
            let title = "KeePassXC \(k)"
            var run: Setup
            if k == -1 {
                run = try setUp(onKDF: { number, other in
                    if number == 2, added.set(), !keePassXCAdd(other.url, title) { added.clear() }
                })
            } else {
                run = try setUp()
                let counter = Counter()
                run.faulty.beforeCall = { [url = run.url] _, _ in
                    if counter.next() == k, added.set() { if !keePassXCAdd(url, title) { added.clear() } }
                }
            }
            try run.document.save()
            rounds += 1
            let vault = try KDBXCodec.open([UInt8](try Data(contentsOf: run.url)), key: try TestVaultFile.key())
            if !vault.root.groups.contains(where: { $0.name == "Ours" }) { lost.append("\(k): ours") }
            if added.isSet && !vault.allEntries.contains(where: { $0.title == title }) { lost.append("\(k): KeePassXC's") }
            #expect(added.isSet, "keepassxc-cli add failed at call \(k)")
            #expect(run.dir.contents == ["v.kdbx"], "call \(k): \(run.dir.contents)")
        }
        #expect(rounds == exchange + 2 && calls > exchange)
        #expect(lost.isEmpty, "lost changes: \(lost)")
    }
}

/// A flag set once, from any thread.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    /// Sets it; `true` when it was not set before.
    func set() -> Bool { lock.withLock { defer { value = true }; return !value } }
    func clear() { lock.withLock { value = false } }
    var isSet: Bool { lock.withLock { value } }
}

/// Counts calls, from any thread.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = -1
    /// The number of this call (0 first).
    func next() -> Int { lock.withLock { value += 1; return value } }
}
