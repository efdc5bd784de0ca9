import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX
import MyPassTestSupport
import Testing

/// History trimming as KeePass does it (`PwEntry.MaintainBackups`): the oldest modification time
/// goes first, sizes by `PwEntry.GetSize`; checked against KeePass doing the same edits.
@Suite("History fidelity: KeePass's trimming rules", .serialized)
struct HistoryFidelityTests {
    static let password = "correct horse battery staple"
    static let fixture = "kdbx/keepass/kdbx4-aes-argon2d.kdbx"
    static let epoch = KDBXTime(year: 2026, month: 1, day: 1)!
    /// The fixed part of `PwEntry.GetSize` in KeePass 2.47, the version kporacle runs here
    /// (2.48 and later: 276, ``Entry/keePassFixedSizeBytes``).
    static let keePass247FixedBytes = 248

    static func at(_ seconds: Int64) -> KDBXTime {
        KDBXTime(secondsSinceEpoch: epoch.secondsSinceEpoch + seconds)
    }

    static func entry(notes: String, modified: KDBXTime) -> Entry {
        var entry = Entry(times: Times(all: modified))
        entry.notes = notes
        return entry
    }

    @Test("the item with the oldest modification time goes, wherever it is; the first of a tie")
    func oldestGoesFirst() {
        var entry = Entry()
        entry.history = [
            Self.entry(notes: "b", modified: Self.at(200)),
            Self.entry(notes: "a", modified: Self.at(100)),
            Self.entry(notes: "c", modified: Self.at(300)),
            Self.entry(notes: "a2", modified: Self.at(100)),
        ]
        let trimmed = entry.trimHistory(maxItems: 3, maxSize: -1)
        #expect(trimmed)
        #expect(entry.history.map(\.notes) == ["b", "c", "a2"])
        entry.trimHistory(maxItems: 1, maxSize: -1)
        #expect(entry.history.map(\.notes) == ["c"])
        let unlimited = entry.trimHistory(maxItems: -1, maxSize: -1)
        #expect(!unlimited)
    }

    @Test("sizes are KeePass's GetSize: UTF-16 units count two bytes, protected values alike")
    func sizeCountsUTF16() {
        var plain = Entry()
        plain.notes = "日本🔑"          // 2 + 2 units (the key emoji is a surrogate pair)
        var secret = Entry()
        secret.setValue("日本🔑", for: "Notes", isProtected: true)
        #expect(plain.approximateSize == 276 + 40 + 2 * (5 + 4))
        #expect(secret.approximateSize == plain.approximateSize)
        plain.customData = [CustomDataItem(key: "k", value: "vv")]
        plain.autoType.associations = [AutoTypeAssociation(window: "w", sequence: "s")]
        #expect(plain.approximateSize == 276 + 40 + 16 + 24 + 2 * (5 + 4 + 3 + 2))
        var withHistory = Entry()
        withHistory.history = [Entry()]
        #expect(withHistory.approximateSize == 276 + 8 + 276)
    }

    @Test("approximateSize equals KeePass 2.47's PwEntry.GetSize (with its fixed part) for every entry and history item",
          arguments: ["kdbx/keepass/kdbx4-aes-argon2d.kdbx", "kdbx/keepassxc/kxc-edited-argon2id.kdbx"])
    func sizesMatchKeePass(_ fixture: String) throws {
        guard let kporacle = InteropTools.kporacleTests else {
            if let failure = InteropTools.missing("kporacle (Tests/Tools)", test: "sizesMatchKeePass") {
                Issue.record(Comment(rawValue: failure))
            }
            return
        }
        let password = Self.password
        let key = try CompositeKey(password: ProtectedString(password), keyFileContents: nil)
        let vault = try KDBXCodec.open(try TestVectors.bytes(fixture), key: key)
        let result = try runProcess(kporacle, ["sizes", TestVectors.url(fixture).path, "--pw", password])
        #expect(result.status == 0, "kporacle sizes: \(result.stderrText)")
        var mine: [String] = []
        vault.root.forEachGroup { group, _ in
            for entry in group.entries {
                let size = entry.approximateSize(fixedBytes: Self.keePass247FixedBytes)
                mine.append("\(entry.uuid.hexString) \(size)")
                #expect(entry.approximateSize == size + 28 * (1 + entry.history.count))
                for item in entry.history {
                    mine.append("  \(item.uuid.hexString) \(item.approximateSize(fixedBytes: Self.keePass247FixedBytes))")
                }
            }
        }
        let theirs = result.stdoutText.split(separator: "\n").map(String.init)
        #expect(theirs.count == mine.count)
        for (k, m) in zip(theirs, mine) { #expect(k == m, "KeePass \(k) vs MyPass \(m)") }
    }

    /// One edit: new notes at a time, optionally with new limits first.
    struct Edit {
        var notes: String
        var seconds: Int64
        var maxItems: Int?
        var maxSize: Int64?
    }

    /// (notes, modification time) of each history item, in order.
    static func history(_ entry: Entry) -> [String] {
        entry.history.map { "\($0.notes) @ \($0.times.lastModification.iso8601)" }
    }

    static func keePassHistory(_ manifest: Any, uuid: KDBXUUID) -> [String]? {
        guard let root = manifest as? [String: Any], let entries = root["entries"] as? [[String: Any]],
              let entry = entries.first(where: { ($0["uuid"] as? String) == uuid.hexString }),
              let history = entry["history"] as? [[String: Any]] else { return nil }
        return history.map { item in
            let fields = item["fields"] as? [String: Any]
            let notes = (fields?["Notes"] as? [String: Any])?["value"] as? String ?? ""
            let time = (item["times"] as? [String: Any])?["lastModification"] as? String ?? ""
            return "\(notes) @ \(time)"
        }
    }

    @Test("edits with out-of-order times and item and size limits leave the history KeePass leaves")
    func matchesKeePass() throws {
        guard let kporacle = InteropTools.kporacleTests else {
            if let failure = InteropTools.missing("kporacle (Tests/Tools)", test: "history matchesKeePass") {
                Issue.record(Comment(rawValue: failure))
            }
            return
        }
        let key = try CompositeKey(password: ProtectedString(Self.password), keyFileContents: nil)
        var vault = try KDBXCodec.open(try TestVectors.bytes(Self.fixture), key: key)
        let target = try #require(vault.root.allEntries.first { $0.title == "GitHub" })
        let uuid = target.uuid
        #expect(target.history.count == 2)

        let edits = [
            Edit(notes: "e1", seconds: 3000), Edit(notes: "e2", seconds: 1000),
            Edit(notes: "e3", seconds: 2000), Edit(notes: "e4", seconds: 500, maxItems: 4),
        ]
        // Then a size limit that keeps exactly the three newest items of what will be there
        // (KeePass's estimate must agree to the byte), and one byte less, which keeps two.
        func apply(_ edit: Edit, to vault: inout Vault) throws {
            if let maxItems = edit.maxItems { vault.meta.historyMaxItems = maxItems }
            if let maxSize = edit.maxSize { vault.meta.historyMaxSize = maxSize }
            try vault.editEntry(uuid, now: Self.at(edit.seconds)) { $0.notes = edit.notes }
        }
        for edit in edits { try apply(edit, to: &vault) }
        var probe = vault
        try apply(Edit(notes: "e5", seconds: 4000), to: &probe)
        let newestThree = try #require(probe.entry(withUUID: uuid)).history
            .sorted { $0.times.lastModification > $1.times.lastModification }.prefix(3)
        let keepThree = Int64(newestThree.reduce(0) { $0 + $1.approximateSize(fixedBytes: Self.keePass247FixedBytes) })
        let sizeEdits = [Edit(notes: "e5", seconds: 4000, maxSize: keepThree), Edit(notes: "e5", seconds: 4000, maxSize: keepThree - 1)]

        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("mypass-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        func keePassEdit(_ input: URL, _ edit: Edit, _ output: URL) throws {
            var arguments = ["edit", input.path, output.path, "--pw", Self.password, "--entry", uuid.hexString,
                             "--set", "Notes", edit.notes, "--at", String(edit.seconds)]
            if let maxItems = edit.maxItems { arguments += ["--max-items", String(maxItems)] }
            if let maxSize = edit.maxSize { arguments += ["--max-size", String(maxSize)] }
            let result = try runProcess(kporacle, arguments)
            #expect(result.status == 0, "kporacle edit: \(result.stderrText)")
        }
        var current = TestVectors.url(Self.fixture)
        for (index, edit) in edits.enumerated() {
            let next = scratch.appendingPathComponent("step\(index).kdbx")
            try keePassEdit(current, edit, next)
            current = next
        }
        for (index, edit) in sizeEdits.enumerated() {
            // editEntry trims with KeePass 2.48's estimate; trim again as KeePass 2.47 (here) does.
            var ours = vault
            try apply(Edit(notes: edit.notes, seconds: edit.seconds), to: &ours)
            let maxItems = ours.meta.historyMaxItems
            ours.root.modifyEntry(withUUID: uuid) { entry in
                entry.trimHistory(maxItems: maxItems, maxSize: edit.maxSize!,
                                  fixedEntryBytes: Self.keePass247FixedBytes)
            }
            let output = scratch.appendingPathComponent("size\(index).kdbx")
            try keePassEdit(current, edit, output)
            let dump = try runProcess(kporacle, ["dump", output.path, "--pw", Self.password])
            #expect(dump.status == 0, "kporacle dump: \(dump.stderrText)")
            let theirs = Self.keePassHistory(try parseJSON(dump.stdoutText), uuid: uuid)
            let mine = Self.history(try #require(ours.entry(withUUID: uuid)))
            #expect(mine.count == 3 - index)
            #expect(theirs == mine, "limit \(edit.maxSize!): KeePass \(theirs ?? []) vs MyPass \(mine)")
        }
        // After the item limit alone, too (from the last step before the size edits).
        let dump = try runProcess(kporacle, ["dump", current.path, "--pw", Self.password])
        let theirs = Self.keePassHistory(try parseJSON(dump.stdoutText), uuid: uuid)
        let mine = Self.history(try #require(vault.entry(withUUID: uuid)))
        #expect(mine.count == 4)
        #expect(theirs == mine, "KeePass \(theirs ?? []) vs MyPass \(mine)")
    }
}
