import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX
import MyPassTestSupport
import Testing

/// A timer that answers from a model instead of timing: Argon2 costs `fixed + perIteration × I`
/// seconds, AES-KDF `rounds / roundsPerSecond`.
private func modelTimer(fixed: Double = 0.05, perIteration: Double = 0.2, roundsPerSecond: Double = 2_000_000) -> KDFCalibration.Timer {
    { settings throws(CoreError) in
        switch settings {
        case .argon2(let argon2): return fixed + perIteration * Double(argon2.iterations)
        case .aes(let rounds): return Double(rounds) / roundsPerSecond
        }
    }
}

@Suite("Vault lifecycle: calibration, new vaults, key and settings changes")
struct LifecycleTests {
    let now = KDBXTime(unixSeconds: 1_800_000_000)
    let later = KDBXTime(unixSeconds: 1_800_000_600)
    static let cheapKDF = KDFSettings.aes(rounds: 100)

    func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

    @Test("Calibration: Argon2 iterations from the 1- and 3-iteration times, AES rounds from a grown probe")
    func calibrationRule() throws {
        let argon2 = try KDFCalibration.calibrate(.argon2(.keePassDefault), targetSeconds: 1, timer: modelTimer())
        // per iteration 0.2 s, fixed 0.05 s: (1 - 0.05) / 0.2 = 4.75, rounded to 5.
        #expect(argon2 == .argon2(Argon2Settings(variant: .argon2d, memoryBytes: 64 << 20, iterations: 5, parallelism: 2)))
        let aes = try KDFCalibration.calibrate(.aes(rounds: 1), targetSeconds: 1, timer: modelTimer())
        // 100,000 rounds take 0.05 s < 0.2 s, 400,000 take 0.2 s: 400,000 × 1 / 0.2.
        #expect(aes == .aes(rounds: 2_000_000))
        #expect(KDFCalibration.argon2Iterations(oneIteration: 5, threeIterations: 6, targetSeconds: 1) == 1)
        #expect(KDFCalibration.aesRounds(probe: 100, probeSeconds: 0, targetSeconds: 1) == 2_000_000_000)
        #expect(throws: CoreError(.invalidOperation)) { try KDFCalibration.calibrate(.aes(rounds: 1), targetSeconds: 0) }
        // A 1-iteration time as slow as the 3-iteration one (load from other programs): the model
        // asks for 100,000 iterations; 64 MiB times that is more than a vault may cost to open
        // (64 GiB), so the iterations stop at 1,024, which `create` accepts.
        let loaded = try KDFCalibration.calibrate(.argon2(.keePassDefault), targetSeconds: 1, timer: modelTimer(fixed: 0.5, perIteration: 0))
        #expect(loaded == .argon2(Argon2Settings(variant: .argon2d, memoryBytes: 64 << 20, iterations: 1024, parallelism: 2)))
        try VaultSettingsChange.validate(loaded)
        let created = try NewVaultSettings(name: "v").makeVault(now: now, timer: modelTimer(fixed: 0.5, perIteration: 0))
        #expect(created.format.kdf == loaded)
    }

    @Test("Calibration with the real KDF and a short target gives a usable cost (no timing asserted)")
    func calibrationMeasures() throws {
        let small = KDFSettings.argon2(Argon2Settings(variant: .argon2id, memoryBytes: 64 << 10, iterations: 1, parallelism: 1))
        guard case .argon2(let argon2) = try KDFCalibration.calibrate(small, targetSeconds: 0.01) else {
            Issue.record("not Argon2")
            return
        }
        #expect(argon2.iterations >= 1 && argon2.memoryBytes == 64 << 10 && argon2.variant == .argon2id)
        guard case .aes(let rounds) = try KDFCalibration.calibrate(.aes(rounds: 1), targetSeconds: 0.01) else {
            Issue.record("not AES")
            return
        }
        #expect(rounds >= 1)
    }

    @Test("A new vault has KeePass 2's defaults: KDBX 4.0, AES-256, Argon2d 64 MiB × 2 lanes, gzip, a root named after it")
    func newVaultDefaults() throws {
        let settings = NewVaultSettings(name: NewVaultSettings.name(forPath: "/tmp/My Vault.kdbx"))
        let vault = try settings.makeVault(now: now, timer: modelTimer())
        #expect(vault.format == VaultFormat(version: .v4_0, cipher: .aes256,
                                            kdf: .argon2(Argon2Settings(variant: .argon2d, memoryBytes: 64 << 20, iterations: 5, parallelism: 2)),
                                            compression: .gzip, innerStream: .chacha20))
        #expect(vault.root.name == "My Vault" && vault.meta.databaseName == "My Vault" && vault.root.iconID == 49)
        #expect(vault.root.groups.isEmpty && vault.root.entries.isEmpty)
        #expect(vault.meta.recycleBinEnabled && vault.meta.recycleBinUUID.isZero)
        #expect(vault.meta.masterKeyChanged == now && vault.meta.historyMaxItems == 10 && vault.meta.historyMaxSize == 6 << 20)
        #expect(NewVaultSettings.name(forPath: "a/b/.hidden") == ".hidden")
    }

    @Test("A new vault refuses KDBX 3.1 with Argon2, a version MyPass does not write, an empty name and out-of-range KDF costs")
    func newVaultRefusals() throws {
        var settings = NewVaultSettings(name: "v", unlockSeconds: nil)
        settings.version = .v3_1
        #expect(throws: CoreError(.invalidOperation)) { try settings.makeVault(now: now) }
        settings.version = .v3_0
        settings.kdf = .aes(rounds: 10)
        #expect(throws: CoreError(.invalidOperation)) { try settings.makeVault(now: now) }
        settings = NewVaultSettings(name: "", unlockSeconds: nil)
        #expect(throws: CoreError(.invalidOperation)) { try settings.makeVault(now: now) }
        for kdf: KDFSettings in [
            .aes(rounds: 0),
            .argon2(Argon2Settings(variant: .argon2d, memoryBytes: 1000, iterations: 1, parallelism: 1)),
            .argon2(Argon2Settings(variant: .argon2d, memoryBytes: 8 << 10, iterations: 1, parallelism: 2)),
            .argon2(Argon2Settings(variant: .argon2d, memoryBytes: 2 << 30, iterations: 1, parallelism: 1)),
            .argon2(Argon2Settings(variant: .argon2d, memoryBytes: 1 << 20, iterations: 0, parallelism: 1)),
            .argon2(Argon2Settings(variant: .argon2d, memoryBytes: 1 << 20, iterations: 1, parallelism: 0)),
        ] {
            #expect(throws: CoreError(.invalidOperation)) { try VaultSettingsChange.validate(kdf) }
        }
    }

    @Test("create writes the vault through the safe save, it opens with the key, and nothing else is left in the directory")
    func createWritesAndReopens() throws {
        let dir = try TempDirectory()
        let url = dir.file("new.kdbx")
        let settings = NewVaultSettings(name: "new", kdf: Self.cheapKDF, unlockSeconds: nil, version: .v4_1)
        let key = try TestVaultFile.key()
        let (document, report) = try VaultDocument.create(url.path, vault: try settings.makeVault(now: now), key: key)
        #expect(report.version == .v4_1 && report.raisedFrom == nil && report.merged == nil)
        #expect(!document.hasUnsavedChanges)
        #expect(dir.contents == ["new.kdbx"])
        #expect(try #require(try SystemFileSystem().status(url.path)).permissions == 0o600)
        let reread = try VaultDocument.open(url.path, key: key)
        #expect(reread.vault.root.name == "new" && reread.vault.format.version == .v4_1 && reread.vault.format.kdf == Self.cheapKDF)
        #expect(throws: CoreError(.wrongKey)) { try VaultDocument.open(url.path, key: try TestVaultFile.key("other")) }
    }

    @Test("create refuses an existing file, a directory and a dangling symbolic link, and touches none of them")
    func createRefusesExisting() throws {
        let dir = try TempDirectory()
        let url = dir.file("v.kdbx")
        try TestVaultFile.write(to: url)
        let before = try bytes(url)
        let vault = try NewVaultSettings(name: "v", kdf: Self.cheapKDF, unlockSeconds: nil).makeVault(now: now)
        #expect(throws: CoreError(.alreadyExists)) { try VaultDocument.create(url.path, vault: vault, key: try TestVaultFile.key()) }
        #expect(try bytes(url) == before)
        try FileManager.default.createDirectory(at: dir.file("d.kdbx"), withIntermediateDirectories: false)
        #expect(throws: CoreError(.alreadyExists)) { try VaultDocument.create(dir.file("d.kdbx").path, vault: vault, key: try TestVaultFile.key()) }
        try FileManager.default.createSymbolicLink(atPath: dir.file("l.kdbx").path, withDestinationPath: "missing.kdbx")
        #expect(throws: CoreError(.alreadyExists)) { try VaultDocument.create(dir.file("l.kdbx").path, vault: vault, key: try TestVaultFile.key()) }
        #expect(dir.contents == ["d.kdbx", "l.kdbx", "v.kdbx"])
    }

    @Test("A create that is cancelled in the KDF leaves no file at all")
    func createCancelledLeavesNothing() throws {
        let dir = try TempDirectory()
        let vault = try NewVaultSettings(name: "v", kdf: .aes(rounds: 200_000), unlockSeconds: nil).makeVault(now: now)
        #expect(throws: CoreError(.cancelled)) {
            try VaultDocument.create(dir.file("v.kdbx").path, vault: vault, key: try TestVaultFile.key(), progress: { _ in false })
        }
        #expect(dir.contents.isEmpty)
    }

    @Test("A create failing at any file operation leaves nothing at the path and no staging file",
          arguments: [FaultyFileSystem.Operation.createExclusive, .lock, .write, .synchronize, .readFile, .exchange, .link])
    func createFailureLeavesNothing(_ operation: FaultyFileSystem.Operation) throws {
        let dir = try TempDirectory()
        let vault = try NewVaultSettings(name: "v", kdf: Self.cheapKDF, unlockSeconds: nil).makeVault(now: now)
        let faulty = FaultyFileSystem()
        faulty.fail(operation)
        #expect(throws: CoreError(.io)) {
            try VaultDocument.create(dir.file("v.kdbx").path, vault: vault, key: try TestVaultFile.key(),
                                     options: VaultDocument.Options(fileSystem: faulty))
        }
        #expect(faulty.count(operation) == 1)
        #expect(dir.contents.isEmpty)
    }

    @Test("A create whose name another program takes during the save leaves that file untouched, and nothing else")
    func createLosesTheRace() throws {
        let dir = try TempDirectory()
        let vault = try NewVaultSettings(name: "v", kdf: Self.cheapKDF, unlockSeconds: nil).makeVault(now: now)
        let faulty = FaultyFileSystem()
        faulty.beforeLink = { destination in _ = FileManager.default.createFile(atPath: destination, contents: Data("theirs".utf8)) }
        #expect(throws: CoreError(.alreadyExists)) {
            try VaultDocument.create(dir.file("v.kdbx").path, vault: vault, key: try TestVaultFile.key(),
                                     options: VaultDocument.Options(fileSystem: faulty))
        }
        #expect(dir.contents == ["v.kdbx"])
        #expect(try bytes(dir.file("v.kdbx")) == Array("theirs".utf8))
    }

    @Test("The staging files of a killed create are removed by the next create of that vault; other dot files stay")
    func createRemovesStaleStaging() throws {
        let dir = try TempDirectory()
        let stale = [".v.kdbx.mypass-0123456789abcdef.tmp", "..v.kdbx.mypass-0123456789abcdef.tmp.mypass-fedcba9876543210.tmp"]
        let foreign = [".v.kdbx.mypass-0123.tmp", ".w.kdbx.mypass-0123456789abcdef.tmp"]
        for name in stale + foreign { _ = FileManager.default.createFile(atPath: dir.file(name).path, contents: Data()) }
        let vault = try NewVaultSettings(name: "v", kdf: Self.cheapKDF, unlockSeconds: nil).makeVault(now: now)
        let (document, report) = try VaultDocument.create(dir.file("v.kdbx").path, vault: vault, key: try TestVaultFile.key())
        #expect(report.warnings.isEmpty)
        #expect(document.removedStaleFiles.map { String($0.split(separator: "/").last!) } == stale.sorted())
        #expect(dir.contents == (foreign + ["v.kdbx"]).sorted())
        #expect(document.identity.path.hasSuffix("/v.kdbx"))
        // The document saves again in place (its identity is the published file's).
        var reopened = document
        try reopened.edit { vault in vault.meta.databaseName = "renamed" }
        try reopened.save()
        let reread = try VaultDocument.open(dir.file("v.kdbx").path, key: try TestVaultFile.key())
        #expect(reread.vault.meta.databaseName == "renamed")
    }

    @Test("changeKey: after the save the old key is refused and the new one opens it; MasterKeyChanged is set; no merge")
    func changeKey() throws {
        let dir = try TempDirectory()
        let url = dir.file("v.kdbx")
        try TestVaultFile.write(to: url)
        var document = try VaultDocument.open(url.path, key: try TestVaultFile.key())
        document.vault.meta.masterKeyChangeForceOnce = true
        let keyFile = KeyFile.xmlVersion2(key: SecureBytes([UInt8](repeating: 7, count: 32)))
        let newKey = try CompositeKey(password: "new password", keyFileContents: keyFile)
        document.changeKey(to: newKey, now: later)
        #expect(document.hasUnsavedChanges)
        let report = try document.save()
        #expect(report.merged == nil)
        #expect(throws: CoreError(.wrongKey)) { try VaultDocument.open(url.path, key: try TestVaultFile.key()) }
        let reread = try VaultDocument.open(url.path, key: newKey)
        #expect(reread.vault.meta.masterKeyChanged == later && !reread.vault.meta.masterKeyChangeForceOnce)
        #expect(reread.vault.root == document.vault.root)
    }

    @Test("changeKey with the file changed on disk meanwhile: the other version is read with the old key and merged, then saved with the new key")
    func changeKeyMergesWithTheOldKey() throws {
        let dir = try TempDirectory()
        let url = dir.file("v.kdbx")
        try TestVaultFile.write(to: url)
        var ours = try VaultDocument.open(url.path, key: try TestVaultFile.key())
        var theirs = try VaultDocument.open(url.path, key: try TestVaultFile.key())
        try theirs.vault.addGroup(named: "Added elsewhere", in: theirs.vault.root.uuid, now: now)
        try theirs.save()
        let newKey = try TestVaultFile.key("brand new")
        ours.changeKey(to: newKey, now: later)
        let report = try ours.save()
        #expect(report.merged != nil)
        #expect(throws: CoreError(.wrongKey)) { try VaultDocument.open(url.path, key: try TestVaultFile.key()) }
        let reread = try VaultDocument.open(url.path, key: newKey)
        #expect(reread.vault.root.groups.contains { $0.name == "Added elsewhere" })
        #expect(reread.vault.meta.masterKeyChanged == later)
    }

    @Test("Settings: KDF, cipher, version, compression and meta change together; the file reads back with them")
    func settingsChangeAndReadBack() throws {
        let dir = try TempDirectory()
        let url = dir.file("v.kdbx")
        try TestVaultFile.write(to: url)
        var document = try VaultDocument.open(url.path, key: try TestVaultFile.key())
        var change = VaultSettingsChange()
        change.kdf = .argon2(Argon2Settings(variant: .argon2id, memoryBytes: 256 << 10, iterations: 2, parallelism: 1))
        change.cipher = .chacha20
        change.version = .v4_1
        change.compression = PayloadCompression.none
        change.name = "Renamed"
        change.description = "About it"
        change.recycleBinEnabled = false
        change.historyMaxItems = 3
        change.historyMaxSize = -1
        try document.vault.applySettings(change, now: later)
        #expect(document.vault.meta.settingsChanged == later && document.vault.meta.databaseNameChanged == later)
        #expect(document.vault.meta.databaseDescriptionChanged == later)
        try document.save()
        let reread = try VaultDocument.open(url.path, key: try TestVaultFile.key())
        var format = reread.vault.format
        #expect(format.kdfItems["$UUID"] != nil && format.kdfItems["S"] == .bytes([]))  // the dictionary as read, seed left out
        format.kdfItems = VariantDictionary()
        #expect(format == VaultFormat(version: .v4_1, cipher: .chacha20, kdf: change.kdf!, compression: .none, innerStream: .chacha20))
        #expect(reread.vault.meta.databaseName == "Renamed" && reread.vault.meta.databaseDescription == "About it")
        #expect(!reread.vault.meta.recycleBinEnabled && reread.vault.meta.historyMaxItems == 3 && reread.vault.meta.historyMaxSize == -1)
        #expect(VaultSettingsChange().isEmpty && !change.isEmpty)
    }

    @Test("Settings refusals: 3.1 with Argon2, a version below the content's, history limits below -1; nothing changes")
    func settingsRefusals() throws {
        var vault = SampleVault().vault
        vault.format = VaultFormat(version: .v4_0, kdf: .argon2(.keePassDefault))
        let before = vault
        var change = VaultSettingsChange()
        change.version = .v3_1
        #expect(throws: CoreError(.invalidOperation)) { try vault.applySettings(change, now: later) }
        change.kdf = .aes(rounds: 1000)
        try vault.applySettings(change, now: later)
        #expect(vault.format.version == .v3_1 && vault.format.innerStream == .salsa20)
        vault = before
        vault.root.groups[0].tags = ["needs 4.1"]
        change = VaultSettingsChange()
        change.version = .v4_0
        #expect(throws: CoreError(.invalidOperation)) { try vault.applySettings(change, now: later) }
        change = VaultSettingsChange()
        change.historyMaxItems = -2
        #expect(throws: CoreError(.invalidOperation)) { try vault.applySettings(change, now: later) }
        vault = before
        change = VaultSettingsChange()
        try vault.applySettings(change, now: later)
        #expect(vault == before)
    }

    @Test("A lower history limit trims every entry's history, oldest first (KeePass's MaintainBackups)")
    func historyTrim() throws {
        var vault = SampleVault().vault
        let github = try #require(vault.allEntries.first { $0.title == "GitHub" })
        _ = vault.root.modifyEntry(withUUID: github.uuid) { entry in
            for n in 0..<5 {
                var old = entry
                old.history = []
                old.notes = "version \(n)"
                entry.history.append(old)
            }
        }
        var change = VaultSettingsChange()
        change.historyMaxItems = 2
        try vault.applySettings(change, now: later)
        let trimmed = try #require(vault.entry(withUUID: github.uuid))
        #expect(trimmed.history.map(\.notes) == ["version 3", "version 4"])
    }
}
