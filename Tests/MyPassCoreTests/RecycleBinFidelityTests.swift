import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX
import MyPassTestSupport
import Testing

/// The recycle bin as KeePass keeps it (`MainForm.DeleteSelectedEntries`, `DeleteSelectedGroup`,
/// `EnsureRecycleBin`), and files that KeePass and KeePassXC read back without a warning.
@Suite("Recycle bin fidelity: KeePass's times, flags and references", .serialized)
struct RecycleBinFidelityTests {
    static let password = "correct horse battery staple"
    static let t1 = KDBXTime(year: 2026, month: 5, day: 1, hour: 10)!
    static let t2 = KDBXTime(year: 2026, month: 5, day: 2, hour: 11)!

    static func fixture() throws -> Vault {
        let key = try CompositeKey(password: ProtectedString(password), keyFileContents: nil)
        return try KDBXCodec.open(try TestVectors.bytes("kdbx/keepass/kdbx4-aes-argon2d.kdbx"), key: key)
    }

    @Test("deleting an entry to the bin touches the entry, the bin and the root (access time, usage count)")
    func entryDeletionTouchesUpTheTree() throws {
        var vault = try Self.fixture()
        let binUUID = vault.meta.recycleBinUUID
        let entry = try #require(vault.root.allEntries.first { $0.title == "GitHub" })
        let parent = try #require(vault.root.parentOfEntry(entry.uuid))
        let binBefore = try #require(vault.group(withUUID: binUUID))
        let rootBefore = vault.root
        let changedBefore = vault.meta.recycleBinChanged
        #expect(try vault.deleteEntry(entry.uuid, now: Self.t1) == .movedToRecycleBin(binUUID))
        let moved = try #require(vault.entry(withUUID: entry.uuid))
        #expect(moved.times.lastAccess == Self.t1)
        #expect(moved.times.usageCount == entry.times.usageCount + 1)
        #expect(moved.times.locationChanged == Self.t1)
        #expect(moved.times.lastModification == entry.times.lastModification)
        #expect(moved.previousParentGroup == parent.uuid)
        let bin = try #require(vault.group(withUUID: binUUID))
        #expect(bin.times.lastAccess == Self.t1)
        #expect(bin.times.usageCount == binBefore.times.usageCount + 1)
        #expect(bin.times.lastModification == binBefore.times.lastModification)
        #expect(vault.root.times.lastAccess == Self.t1)
        #expect(vault.root.times.usageCount == rootBefore.times.usageCount + 1)
        // The group it left is not touched (KeePass touches the new parents only).
        #expect(vault.group(withUUID: parent.uuid)?.times == parent.times)
        #expect(vault.meta.recycleBinChanged == changedBefore)
    }

    @Test("deleting a group to the bin touches the group, the bin and the root")
    func groupDeletionTouchesUpTheTree() throws {
        var vault = try Self.fixture()
        let binUUID = vault.meta.recycleBinUUID
        let work = try #require(vault.root.groups.first { $0.name == "Work" })
        #expect(try vault.deleteGroup(work.uuid, now: Self.t1) == .movedToRecycleBin(binUUID))
        let moved = try #require(vault.group(withUUID: work.uuid))
        #expect(moved.times.lastAccess == Self.t1)
        #expect(moved.times.usageCount == work.times.usageCount + 1)
        #expect(moved.times.locationChanged == Self.t1)
        #expect(moved.previousParentGroup == vault.root.uuid)
        #expect(vault.group(withUUID: binUUID)?.times.lastAccess == Self.t1)
        #expect(vault.root.times.lastAccess == Self.t1)
    }

    @Test("a new bin is expanded and leaves RecycleBinChanged alone; deleting the bin clears the reference")
    func newBinAndDeletedBin() throws {
        var vault = try Self.fixture()
        let oldBin = vault.meta.recycleBinUUID
        #expect(try vault.deleteGroup(oldBin, now: Self.t1) == .deletedPermanently)
        #expect(vault.meta.recycleBinUUID.isZero)
        #expect(vault.meta.recycleBinChanged == Self.t1)
        #expect(vault.meta.recycleBinEnabled)
        // The next delete creates a bin the way KeePass does.
        let entry = try #require(vault.root.allEntries.first { $0.title == "Sample Entry" })
        guard case .movedToRecycleBin(let newBin) = try vault.deleteEntry(entry.uuid, now: Self.t2) else {
            Issue.record("not recycled")
            return
        }
        let bin = try #require(vault.group(withUUID: newBin))
        #expect(bin.isExpanded)
        #expect(bin.enableAutoType == false && bin.enableSearching == false && bin.iconID == 43)
        #expect(vault.meta.recycleBinUUID == newBin)
        #expect(vault.meta.recycleBinChanged == Self.t1)
        // A group holding the bin, deleted, clears it too.
        let holder = try vault.addGroup(named: "Holder", in: vault.root.uuid, now: Self.t2)
        try vault.moveGroup(newBin, to: holder, now: Self.t2)
        #expect(try vault.deleteGroup(holder, now: Self.t2) == .deletedPermanently)
        #expect(vault.meta.recycleBinUUID.isZero)
    }

    /// Saves `vault` to a temporary file with a cheap KDF.
    static func save(_ vault: Vault, in dir: URL, _ name: String) throws -> URL {
        var fast = vault
        fast.format.kdf = .argon2(Argon2Settings(variant: .argon2d, memoryBytes: 1 << 20, iterations: 1, parallelism: 1))
        let key = try CompositeKey(password: ProtectedString(password), keyFileContents: nil)
        let url = dir.appendingPathComponent(name)
        try Data(try KDBXCodec.save(fast, key: key)).write(to: url)
        return url
    }

    @Test("KeePassXC and KeePass read the recycle-bin cases back without a warning, as we wrote them")
    func clientsReadThemBack() throws {
        let cli = InteropTools.executable(named: "keepassxc-cli")
        let kporacle = InteropTools.kporacle
        if cli == nil, let failure = InteropTools.missing("keepassxc-cli", test: "recycle bin clientsReadThemBack") {
            Issue.record(Comment(rawValue: failure))
        }
        if kporacle == nil, let failure = InteropTools.missing("kporacle", test: "recycle bin clientsReadThemBack") {
            Issue.record(Comment(rawValue: failure))
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mypass-bin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }

        var deletedBin = try Self.fixture()
        try deletedBin.deleteGroup(deletedBin.meta.recycleBinUUID, now: Self.t1)
        var newBin = deletedBin
        let sample = try #require(newBin.root.allEntries.first { $0.title == "Sample Entry" })
        guard case .movedToRecycleBin(let newBinUUID) = try newBin.deleteEntry(sample.uuid, now: Self.t2) else {
            Issue.record("not recycled")
            return
        }
        let cases = [("deleted-bin.kdbx", deletedBin, nil as KDBXUUID?), ("new-bin.kdbx", newBin, newBinUUID)]
        for (name, vault, binUUID) in cases {
            let url = try Self.save(vault, in: dir, name)
            if let cli {
                let result = try runProcess(cli, ["ls", "-R", url.path], stdin: Array((Self.password + "\n").utf8))
                #expect(result.status == 0, "\(name): \(result.stderrText)")
                let warnings = result.stderrText.split(separator: "\n").filter { !$0.hasPrefix("Enter password") }
                #expect(warnings.isEmpty, "\(name): keepassxc-cli said \(warnings)")
            }
            if let kporacle {
                let result = try runProcess(kporacle, ["dump", url.path, "--pw", Self.password])
                #expect(result.status == 0, "\(name): \(result.stderrText)")
                #expect(result.stderrText.isEmpty, "\(name): \(result.stderrText)")
                let manifest = try #require(try parseJSON(result.stdoutText) as? [String: Any])
                let meta = try #require(manifest["meta"] as? [String: Any])
                let groups = try #require(manifest["groups"] as? [[String: Any]])
                if let binUUID {
                    #expect(meta["recycleBinUUID"] as? String == binUUID.hexString)
                    let bin = try #require(groups.first { $0["uuid"] as? String == binUUID.hexString })
                    #expect(bin["isExpanded"] as? Bool == true)
                    let entries = try #require(manifest["entries"] as? [[String: Any]])
                    let recycled = try #require(entries.first { $0["uuid"] as? String == sample.uuid.hexString })
                    let times = try #require(recycled["times"] as? [String: Any])
                    #expect(times["lastAccess"] as? String == Self.t2.iso8601)
                    #expect(times["usageCount"] as? Int == Int(sample.times.usageCount) + 1)
                    #expect(recycled["path"] as? [String] == ["Recycle Bin"])
                } else {
                    #expect(meta["recycleBinUUID"] is NSNull, "\(name): \(meta["recycleBinUUID"] ?? "")")
                }
            }
        }
    }
}
