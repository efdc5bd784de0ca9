#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MyPassBytes
import MyPassCore
import MyPassHealth
import MyPassKDBX

/// A test-only command (`MYPASS_TEST_MEMORY_CHECK=1 mypass __memory-check VAULT --keyfile PATH`),
/// in the spirit of CVE-2023-32784: it unlocks VAULT the way every command does (password on
/// standard input, key file, ``VaultContext/open(_:readsEntryPassword:forWriting:usesAgent:)``),
/// reads every entry and reveals each protected value, scans its own readable memory for the
/// needles, locks (drops the document, the key and every revealed value), and scans again.
///
/// The needles come masked in `MYPASS_TEST_MEMORY_NEEDLES` (`name=MASK:MASKEDHEX;…`, MASK one
/// hex byte XORed into every byte), so neither the environment nor this process holds them in
/// the clear. Output, one line each: `dumpable D core SOFT HARD`, `entries N`, then
/// `unlocked NAME COUNT` and `locked NAME COUNT` for every needle. Linux only; the command does
/// not exist unless the variable is set, and it is not in the help.
///
/// With `MYPASS_TEST_MEMORY_ANALYZE=HIBP-FILE` it also runs the health report against that breach
/// list while unlocked and scans once more (`analyzed`, after `findings N`).
///
/// With `MYPASS_TEST_MEMORY_SAVE=1` it also edits the first entry's notes and saves while
/// unlocked, scanning three times more: `writing NAME COUNT` inside the save at its second write
/// to the temporary file (the XML writer, deflate and the cipher at work), `saving NAME COUNT` when
/// the new file is written and checked and about to be renamed over the vault (every buffer of the
/// writer and of the check has been used and released by then), and `saved NAME COUNT` after the
/// save returned, the model still open.
enum MemoryCheck {
    static let commandName = "__memory-check"

    static var isEnabled: Bool {
        guard let value = getenv("MYPASS_TEST_MEMORY_CHECK") else { return false }
        return String(cString: value) == "1"
    }

    static func run(_ arguments: [String]) throws {
        #if os(Linux)
        let needles = try parseNeedles()
        let core = ProcessHardening.coreLimits()
        Console.line("dumpable \(ProcessHardening.isDumpable()) core \(core.soft) \(core.hard)")
        guard case .run(let parsed) = try ArgumentParser.parse(arguments, for: CommandSpecs.ls) else {
            throw CLIError.failure("usage: \(commandName) VAULT [--keyfile PATH] [--no-password]")
        }
        try unlockedScan(parsed, needles)
        // Locked: the document, the key and every revealed value are gone with the scope above.
        report("locked", needles)
        #else
        throw CLIError.failure("\(commandName) runs on Linux only")
        #endif
    }

    #if os(Linux)
    /// Unlocks, reads every entry, and scans while the vault is open.
    @inline(never)
    private static func unlockedScan(_ parsed: ParsedArguments, _ needles: [ProcessMemoryScan.Needle]) throws {
        var (context, _) = try VaultContext.open(parsed, usesAgent: false)
        var entries = 0, revealedBytes = 0
        for entry in context.vault.allEntries {
            entries += 1
            for field in entry.fields where field.isProtected {
                field.protectedValue.withRevealedBytes { revealedBytes += $0.count }
            }
        }
        Console.line("entries \(entries) revealed \(revealedBytes)")
        report("unlocked", needles)
        if let value = getenv("MYPASS_TEST_MEMORY_ANALYZE") {
            try analyze(context.vault, breachListPath: String(cString: value), needles)
        }
        if let value = getenv("MYPASS_TEST_MEMORY_SAVE"), String(cString: value) == "1" {
            try editAndSave(&context, needles)
        }
        withExtendedLifetime(context) {}
    }

    /// Runs the health report (every password estimated, looked up in the breach list at
    /// `breachListPath` and compared for reuse), then scans (`analyzed`): what the analysis leaves.
    @inline(never)
    private static func analyze(_ vault: Vault, breachListPath: String, _ needles: [ProcessMemoryScan.Needle]) throws {
        let list = try AnalyzeCommand.openBreachList(breachListPath)
        let health = try VaultHealth.analyze(vault, options: VaultHealthOptions(now: currentTime()), breachList: list)
        Console.line("findings \(health.findings.count)")
        report("analyzed", needles)
    }

    /// Edits the first entry's notes and saves through the document's safe save, scanning at the
    /// second write (`writing`), at the rename (`saving`) and after the save (`saved`).
    @inline(never)
    private static func editAndSave(_ context: inout VaultContext, _ needles: [ProcessMemoryScan.Needle]) throws {
        guard let first = context.vault.allEntries.first else { throw CLIError.failure("the vault has no entry to edit") }
        var patch = EntryPatch()
        patch.notes = "edited by \(commandName)"
        _ = try context.vault.editEntry(first.uuid, applying: patch, now: currentTime())
        context.document.options.fileSystem = ScanningFileSystem(base: context.document.options.fileSystem,
                                                                 atSecondWrite: { report("writing", needles) },
                                                                 beforeRename: { report("saving", needles) })
        try context.save()
        report("saved", needles)
    }

    /// One scan; `/proc/self/mem` is opened while the process is briefly dumpable again (a
    /// non-dumpable process's `/proc/self` files belong to root).
    private static func report(_ phase: String, _ needles: [ProcessMemoryScan.Needle]) {
        ProcessHardening.setDumpable(true)
        let scan = ProcessMemoryScan.scan(needles, afterOpening: { ProcessHardening.setDumpable(false) })
        ProcessHardening.setDumpable(false)
        for (index, needle) in needles.enumerated() {
            Console.line("\(phase) \(needle.name) \(scan.map { String($0.counts[index]) } ?? "unreadable")")
        }
        // Readable memory the scan could not read (0 expected): a skipped range is not a clean one.
        Console.line("\(phase) unreadable-bytes \(scan.map { String($0.unreadableBytes) } ?? "all")")
    }

    private static func parseNeedles() throws(CLIError) -> [ProcessMemoryScan.Needle] {
        guard let raw = getenv("MYPASS_TEST_MEMORY_NEEDLES") else { throw .failure("MYPASS_TEST_MEMORY_NEEDLES is not set") }
        var needles: [ProcessMemoryScan.Needle] = []
        for item in String(cString: raw).split(separator: ";") {
            let parts = item.split(separator: "=", maxSplits: 1)
            let value = parts.count == 2 ? parts[1].split(separator: ":") : []
            guard value.count == 2, let mask = [UInt8](hex: value[0]), mask.count == 1,
                  let masked = [UInt8](hex: value[1]), !masked.isEmpty else {
                throw .failure("a needle is not name=MASK:MASKEDHEX")
            }
            needles.append(ProcessMemoryScan.Needle(name: String(parts[0]), masked: masked, mask: mask[0]))
        }
        return needles
    }
    #endif
}

#if os(Linux)
/// A file system that runs `atSecondWrite` before the second write and `beforeRename` before each
/// rename, and otherwise does what `base` does (one thread only: the memory check's).
private final class ScanningFileSystem: VaultFileSystem, @unchecked Sendable {
    let base: any VaultFileSystem
    let atSecondWrite: () -> Void
    let beforeRename: () -> Void
    private var writes = 0

    init(base: any VaultFileSystem, atSecondWrite: @escaping () -> Void, beforeRename: @escaping () -> Void) {
        self.base = base
        self.atSecondWrite = atSecondWrite
        self.beforeRename = beforeRename
    }

    func resolve(_ path: String) throws(CoreError) -> String { try base.resolve(path) }
    func status(_ path: String) throws(CoreError) -> VaultFileStatus? { try base.status(path) }
    func isWritable(_ path: String) -> Bool { base.isWritable(path) }
    func readFile(_ path: String, maxBytes: Int) throws(CoreError) -> [UInt8] { try base.readFile(path, maxBytes: maxBytes) }
    func openForReading(_ path: String) throws(CoreError) -> VaultFileHandle { try base.openForReading(path) }
    func read(_ handle: VaultFileHandle, into buffer: UnsafeMutableRawBufferPointer) throws(CoreError) -> Int {
        try base.read(handle, into: buffer)
    }
    func lock(_ path: String, timeoutSeconds: Double) throws(CoreError) -> VaultFileHandle {
        try base.lock(path, timeoutSeconds: timeoutSeconds)
    }
    func status(of handle: VaultFileHandle) throws(CoreError) -> VaultFileStatus { try base.status(of: handle) }
    func createExclusive(_ path: String, permissions: UInt32, owner: (userID: UInt32, groupID: UInt32)?) throws(CoreError) -> VaultFileHandle {
        try base.createExclusive(path, permissions: permissions, owner: owner)
    }
    func write(_ handle: VaultFileHandle, _ bytes: UnsafeRawBufferPointer) throws(CoreError) {
        writes += 1
        if writes == 2 { atSecondWrite() }
        try base.write(handle, bytes)
    }
    func synchronize(_ handle: VaultFileHandle) throws(CoreError) { try base.synchronize(handle) }
    func close(_ handle: VaultFileHandle) { base.close(handle) }
    func rename(_ source: String, to destination: String) throws(CoreError) {
        beforeRename()
        try base.rename(source, to: destination)
    }
    func link(_ source: String, to destination: String) throws(CoreError) { try base.link(source, to: destination) }
    func synchronizeDirectory(_ path: String) throws(CoreError) { try base.synchronizeDirectory(path) }
    func remove(_ path: String) throws(CoreError) { try base.remove(path) }
    func contentsOfDirectory(_ path: String) throws(CoreError) -> [String] { try base.contentsOfDirectory(path) }
}
#endif
