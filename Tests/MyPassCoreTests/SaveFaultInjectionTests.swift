import Foundation
import MyPassCore
import MyPassKDBX
import Testing

/// The safe save with a failure injected at each of its file-system calls in turn: a dry run
/// lists the calls, then for every k a fresh save fails at call k. A failure up to the atomic
/// replacement (the exchange, or the rename where the platform has none) leaves the original
/// byte-identical and the save refused with a typed error; a failure after it (the directory flush,
/// the removal of the replaced file) is at most a warning on a completed save. Never a temporary
/// file left.
@Suite("Fault injection: a failure at every file-system call of a save")
struct SaveFaultInjectionTests {
    let now = KDBXTime(unixSeconds: 1_800_000_000)

    enum Scenario: String, CaseIterable, CustomStringConvertible {
        /// A save of our change.
        case plain
        /// A save after another program saved the file (reads it again and merges).
        case changedOnDisk
        var description: String { rawValue }
    }

    struct Run {
        let dir: TempDirectory
        let url: URL
        let faulty: FaultyFileSystem
        var document: VaultDocument
        let before: [UInt8]
    }

    func prepare(_ scenario: Scenario) throws -> Run {
        let dir = try TempDirectory()
        let url = dir.file("v.kdbx")
        try TestVaultFile.write(to: url)
        let faulty = FaultyFileSystem()
        var document = try VaultDocument.open(url.path, key: try TestVaultFile.key(), options: VaultDocument.Options(fileSystem: faulty))
        if scenario == .changedOnDisk {
            var theirs = try VaultDocument.open(url.path, key: try TestVaultFile.key())
            try theirs.vault.addGroup(named: "Theirs", in: theirs.vault.root.uuid, now: now)
            try theirs.save()
        }
        try document.vault.addGroup(named: "Ours", in: document.vault.root.uuid, now: now)
        return Run(dir: dir, url: url, faulty: faulty, document: document, before: [UInt8](try Data(contentsOf: url)))
    }

    @Test(arguments: Scenario.allCases, [true, false])
    func everyCallFailsInTurn(_ scenario: Scenario, exchanges: Bool) throws {
        var dry = try prepare(scenario)
        dry.faulty.supportsExchange = exchanges
        dry.faulty.startRecording()
        try dry.document.save()
        let calls = dry.faulty.callLog
        let rename = try #require(calls.firstIndex(of: exchanges ? .exchange : .rename))
        #expect(calls.count >= 10, "\(calls)")
        #expect(Set(calls).isSuperset(of: [.resolve, .lock, .createExclusive, .write, .synchronize, .readFile, .synchronizeDirectory,
                                           exchanges ? .exchange : .rename]))

        var refused = 0
        for k in calls.indices {
            var run = try prepare(scenario)
            run.faulty.supportsExchange = exchanges
            run.faulty.failCall(k)
            let result: Result<VaultDocument.SaveReport, CoreError>
            do throws(CoreError) { result = .success(try run.document.save()) } catch { result = .failure(error) }
            switch result {
            case .success(let report):
                #expect(k > rename, "call \(k) (\(calls[k])) failed but the save went on")
                #expect(report.warnings.count <= 1, "call \(k) (\(calls[k])): \(report.warnings)")
                #expect(exchanges || report.warnings.count == 1, "call \(k) (\(calls[k]))")
                let saved = try KDBXCodec.open([UInt8](try Data(contentsOf: run.url)), key: try TestVaultFile.key())
                #expect(saved.root.groups.contains { $0.name == "Ours" })
            case .failure(let error):
                refused += 1
                #expect(k <= rename, "call \(k) (\(calls[k])) after the rename failed the save: \(error)")
                #expect(error.code == .io || (error.code == .readOnly && calls[k] == .isWritable), "call \(k) (\(calls[k])): \(error)")
                #expect([UInt8](try Data(contentsOf: run.url)) == run.before, "call \(k) (\(calls[k])) changed the original")
                #expect(run.document.hasUnsavedChanges)
            }
            // After an exchange the replaced file is beside the vault until it is removed: a failed
            // removal leaves it, named in a warning, for the next open to remove.
            let left = run.dir.contents.filter { $0 != "v.kdbx" }
            if case .success(let report) = result, calls[k] == .remove, left.count == 1 {
                #expect(report.warnings.first?.hasSuffix(left[0]) == true, "\(report.warnings)")
                #expect(try VaultDocument.open(run.url.path, key: try TestVaultFile.key()).removedStaleFiles.count == 1)
            }
            #expect(run.dir.contents == ["v.kdbx"], "call \(k) (\(calls[k])) left \(run.dir.contents)")
            #expect(Array(run.faulty.callLog.prefix(k)) == Array(calls.prefix(k)), "the calls before the failure are the dry run's")
        }
        #expect(refused == rename + 1)
    }

    @Test("a failed save whose temporary file cannot be removed names that file in its error; the next open removes it and says so")
    func failedRemovalIsNamed() throws {
        var dry = try prepare(.plain)
        dry.faulty.startRecording()
        try dry.document.save()
        let firstWrite = try #require(dry.faulty.callLog.firstIndex(of: .write))

        var run = try prepare(.plain)
        run.faulty.fail(.remove)
        run.faulty.failCall(firstWrite)
        let failure: CoreError
        do throws(CoreError) {
            try run.document.save()
            Issue.record("the save went on after a failed write")
            return
        } catch {
            failure = error
        }
        let left = run.dir.contents.filter { $0 != "v.kdbx" }
        try #require(left.count == 1, "\(run.dir.contents)")
        #expect(left[0].hasPrefix(".v.kdbx.mypass-") && left[0].hasSuffix(".tmp"))
        #expect(failure.code == .io)
        #expect(failure.reason.hasPrefix("injected failure: write; the temporary file /"), "\(failure.reason)")
        #expect(failure.reason.hasSuffix("/\(left[0]) could not be removed (injected failure: remove); the next open of the vault removes it"),
                "\(failure.reason)")
        #expect([UInt8](try Data(contentsOf: run.url)) == run.before)
        #expect(run.document.hasUnsavedChanges)

        let reopened = try VaultDocument.open(run.url.path, key: try TestVaultFile.key())
        #expect(reopened.removedStaleFiles.map { String($0.split(separator: "/").last!) } == left)
        #expect(reopened.staleFilesLeft.isEmpty)
        #expect(run.dir.contents == ["v.kdbx"])
    }
}
