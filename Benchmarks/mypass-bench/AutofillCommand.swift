import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX

/// `mypass-bench autofill VAULT`: the AutoFill open (issue 14) beside the full model that
/// `mypass ls` opened before it: peak resident memory of a fresh process per run, time to
/// suggestions, where the memory went, and whether the vault fits a budget.
enum AutofillCommand {
    static let usage = """
    USAGE: mypass-bench autofill VAULT [--password TEXT | --no-password] [--keyfile PATH] [--budget BYTES]
                                 [--service URL] [--runs N] [--json]
           mypass-bench autofill --make OUT --entries N [--history N] [--attachments BYTES] [--changed K]
                                 [--password TEXT]

      Opens VAULT once to derive the key, then runs --runs (default 5) fresh child processes for
      each way of opening and reports medians: the credential index with the cached transformed
      key (what the AutoFill extension does after the first unlock: no KDF), the index with the
      KDF, and the full model (what `mypass ls` did before the index: VaultDocument, flat list)
      with the KDF and with the cached key; and a baseline child that opens no vault (runtime,
      Foundation, a match over no entries). Each child opens, matches --service (default: the
      host of the first entry URL) and reports the time to suggestions (on --clock) and its peak
      resident memory (the child's VmHWM, whole process). Memory is broken down into the KDF's
      Argon2 memory, the largest file buffer and the index's estimated size. --budget (default
      50MB = 50,000,000 bytes; KiB/MiB/GiB suffixes too) says whether the vault fits: with the
      cached key (peak of the cached run) and with the KDF (Argon2 memory + 12 MiB margin, the
      rule `mypass match --budget` enforces).
      --make writes a generated KDBX 4 vault (KeePass's default Argon2d 64 MiB) of N entries with
      --history items each and --attachments bytes of random (incompressible) attachments in
      total. Its UUIDs and content come from a fixed seed, so two vaults made with the same
      --entries share every UUID; --changed K (0...9) then gives entries n with n % 10 == K a new
      password and notes, modified a day later: two copies made with different K are diverged
      copies of one vault (for merging).
    """

    static func run(_ args: inout BenchArguments) throws {
        if let out = args.value("make") {
            try make(out, &args)
            return
        }
        guard let path = args.positionals.dropFirst().first else { throw BenchError.usage("autofill needs a VAULT") }
        let runs: Int = try args.integer("runs", default: 5)
        let json = args.flag("json")
        let noPassword = args.flag("no-password")
        var password = args.value("password")
        let keyFilePath = args.value("keyfile")
        let child = args.value("child")
        let service = args.value("service")
        let budgetText = args.value("budget")
        try args.checkAllConsumed()
        if password == nil && !noPassword { password = readLine(strippingNewline: true) ?? "" }
        let keyFile = try keyFilePath.map { [UInt8](try Data(contentsOf: URL(fileURLWithPath: $0))) }
        let key = try CompositeKey(password: password.map { ProtectedString($0) }, keyFileContents: keyFile)
        if let child {
            try runChild(child, path: path, key: key, service: service)
            return
        }
        let budget = try budgetText.map { try parseBudget($0) } ?? 50_000_000

        Progress.say("deriving the key once")
        let first = try CredentialIndex.open(path, key: key)
        let serviceName = service ?? first.index.credentials.lazy.compactMap { credential in
            credential.candidateURLs.lazy.compactMap { ServiceAddress(parsing: $0) }.first.map { $0.host.labels.joined(separator: ".") }
        }.first ?? "github.com"
        let transformedHex = first.cachedKey.transformedKey.withUnsafeBytes { $0.hexString }
        let me = CommandLine.arguments[0].hasPrefix("/") ? CommandLine.arguments[0]
            : FileManager.default.currentDirectoryPath + "/" + CommandLine.arguments[0]
        var childArgs = ["autofill", path, "--service", serviceName, "--clock", Timing.clock.rawValue]
        if let password { childArgs += ["--password", password] } else { childArgs.append("--no-password") }
        if let keyFilePath { childArgs += ["--keyfile", keyFilePath] }

        struct Sample { var peak: UInt64; var seconds: Double; var line: [String] }
        func measure(_ mode: String) throws -> (peak: UInt64, seconds: Double, line: [String]) {
            var samples: [Sample] = []
            for _ in 0..<max(1, runs) {
                let output = try ReferenceTools.run(me, childArgs + ["--child", mode], input: Array((transformedHex + "\n").utf8))
                guard output.status == 0 else { throw BenchError.failure("child \(mode) failed: \(output.stderr)") }
                let words = output.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
                // The child's own VmHWM: wait4's ru_maxrss of a spawned child also counts the
                // parent's resident memory at spawn time (Linux keeps it across exec).
                let peak = words.count > 1 ? UInt64(words[1]) ?? output.peakResidentBytes : output.peakResidentBytes
                samples.append(Sample(peak: peak, seconds: Double(words.first ?? "") ?? .nan, line: words))
            }
            let peaks = samples.map { Double($0.peak) }
            return (UInt64(Timing.medianOf(peaks)), Timing.medianOf(samples.map(\.seconds)), samples.last?.line ?? [])
        }
        let modes = ["baseline", "index-cached", "index-kdf", "full-kdf", "full-cached"]
        var results: [String: (peak: UInt64, seconds: Double, line: [String])] = [:]
        for mode in modes {
            Progress.say("\(runs) fresh processes: \(mode)")
            results[mode] = try measure(mode)
        }
        let mb = 1_000_000.0
        var report = Report(title: "autofill \(path) (\(first.fileBytes) bytes, \(first.index.credentials.count) credentials), medians of \(runs) runs, \(Timing.clock.rawValue) time")
        let cached = results["index-cached"]!, indexKDF = results["index-kdf"]!, today = results["full-kdf"]!, fullCached = results["full-cached"]!
        report.rows.append(Measurement(name: "peak memory, index + cached key", value: Double(cached.peak) / mb, unit: "MB",
                                       higherIsBetter: false, reference: ("full model + KDF, today's ls", Double(today.peak) / mb)))
        report.rows.append(Measurement(name: "peak memory, index + KDF", value: Double(indexKDF.peak) / mb, unit: "MB",
                                       higherIsBetter: false, reference: ("full model + KDF, today's ls", Double(today.peak) / mb)))
        report.rows.append(Measurement(name: "peak memory, full model + cached key", value: Double(fullCached.peak) / mb, unit: "MB",
                                       higherIsBetter: false))
        report.rows.append(Measurement(name: "peak memory, process baseline (no vault)", value: Double(results["baseline"]!.peak) / mb,
                                       unit: "MB", higherIsBetter: false,
                                       note: "runtime, Foundation, a match over no entries (the suffix list is compiled in)"))
        report.rows.append(Measurement(name: "time to suggestions, index + cached key", value: cached.seconds, unit: "s",
                                       higherIsBetter: false, reference: ("full model + KDF, today's ls", today.seconds)))
        report.rows.append(Measurement(name: "time to suggestions, index + KDF", value: indexKDF.seconds, unit: "s",
                                       higherIsBetter: false, reference: ("full model + KDF, today's ls", today.seconds)))
        report.rows.append(Measurement(name: "time, process baseline (no vault)", value: results["baseline"]!.seconds, unit: "s",
                                       higherIsBetter: false, note: "start-up and a match over no entries"))
        report.rows.append(Measurement(name: "time to suggestions, full model + cached key", value: fullCached.seconds, unit: "s",
                                       higherIsBetter: false))
        // Where the memory went (the first open's own account).
        let kdfBytes = first.kdfMemoryBytes
        let words = cached.line
        let indexBytes = Double(first.index.estimatedBytes)
        let bufferBytes = Double(first.largestBufferBytes)
        report.extra["memory: KDF (Argon2, only without the cached key)"] = String(format: "%.1f MB", Double(kdfBytes) / mb)
        report.extra["memory: buffers (largest file piece + 64 KiB chunk + 32 KiB inflate window)"] = String(format: "%.1f MB", (bufferBytes + 98_304) / mb)
        report.extra["memory: index (estimate)"] = String(format: "%.1f MB", indexBytes / mb)
        report.extra["skipped"] = "\(first.index.skipped.historyItems) history items, \(first.index.skipped.attachmentBytes) attachment bytes, \(first.index.skipped.customIconCharacters) icon characters, \(first.index.skipped.fields) fields"
        report.extra["service matched"] = serviceName + " (\(words.count > 2 ? words[2] : "?") suggestions)"
        let fitsCached = cached.peak <= budget
        let fitsKDF = kdfBytes + (12 << 20) <= budget
        report.extra["budget"] = "\(budget) bytes: with the cached key \(fitsCached ? "fits" : "does NOT fit"); with the KDF \(fitsKDF ? "fits" : "refused (Argon2 \(kdfBytes) + 12 MiB margin)")"
        report.print(json: json)
    }

    static func parseBudget(_ text: String) throws(BenchError) -> UInt64 {
        let decimal: [(String, UInt64)] = [("GB", 1_000_000_000), ("MB", 1_000_000), ("KB", 1_000)]
        for (suffix, factor) in decimal where text.hasSuffix(suffix) && !text.hasSuffix("i" + suffix.dropFirst()) {
            if let number = UInt64(text.dropLast(2)) { return number * factor }
        }
        return try parseMemory(text)
    }

    /// One measured open in a fresh process: prints `seconds peakBytes suggestions indexBytes bufferBytes`.
    static func runChild(_ mode: String, path: String, key: CompositeKey, service: String?) throws {
        let cached = mode.hasSuffix("-cached")
        var transformed: SecureBytes?
        if cached {
            guard var bytes = [UInt8](hex: readLine(strippingNewline: true) ?? "") else {
                throw BenchError.failure("no transformed key on standard input")
            }
            defer { wipe(&bytes) }
            transformed = SecureBytes(bytes)
        }
        var suggestions = 0, indexBytes = 0, bufferBytes = 0
        let seconds = try Timing.seconds {
            var cachedKey: CachedTransformedKey?
            if let transformed {
                var source = try FileSource(path: path)
                let header = try KDBXCredentialReader(source: &source)
                cachedKey = CachedTransformedKey(transformedKey: transformed, kdf: header.header.kdf)
            }
            if mode == "baseline" {
                suggestions = CredentialMatcher().match(serviceIdentifier: service ?? "github.com", in: [SimpleCredentialCandidate]()).suggested.count
            } else if mode.hasPrefix("index") {
                let opened = try CredentialIndex.open(path, key: key, cachedKey: cachedKey)
                suggestions = CredentialMatcher().match(serviceIdentifier: service ?? "github.com", in: opened.index.credentials).suggested.count
                indexBytes = opened.index.estimatedBytes
                bufferBytes = opened.largestBufferBytes
            } else {
                let document = try VaultDocument.open(path, key: key, cachedKey: cachedKey)
                let entries = EntryList.displayedEntries(document.vault.flatEntries, filter: GroupFilter(), searchText: "")
                suggestions = CredentialMatcher().match(serviceIdentifier: service ?? "github.com", in: entries).suggested.count
            }
        }
        print("\(seconds) \(Timing.peakResidentBytes() ?? 0) \(suggestions) \(indexBytes) \(bufferBytes)")
    }

    /// A file read 64 KiB at a time, for reading the header alone.
    struct FileSource: KDBXByteSource {
        let handle: FileHandle
        init(path: String) throws {
            guard let handle = FileHandle(forReadingAtPath: path) else { throw BenchError.failure("cannot open \(path)") }
            self.handle = handle
        }
        mutating func read(upTo count: Int) throws(KDBXError) -> [UInt8] {
            do { return [UInt8](try handle.read(upToCount: count) ?? Data()) } catch {
                throw KDBXError(.io, "read failed")
            }
        }
    }

    /// Writes a generated vault: `--entries` entries over a few groups, `--history` items each,
    /// `--attachments` bytes of random attachments spread over the entries, KeePass's default KDF.
    static func make(_ out: String, _ args: inout BenchArguments) throws {
        let count: Int = try args.integer("entries", default: 5_000)
        let history: Int = try args.integer("history", default: 0)
        let attachmentBytes: Int = try args.integer("attachments", default: 0)
        let password = args.value("password") ?? "bench"
        let changed: Int = try args.integer("changed", default: -1)
        try args.checkAllConsumed()
        var state: UInt64 = 14
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 11
        }
        func uuid() -> KDBXUUID { KDBXUUID(high: next() | 1, low: next()) }
        var vault = Vault.new(name: "Generated", now: .minimum)
        vault.root.uuid = uuid()
        var groups = (0..<10).map { Group(uuid: uuid(), name: "Group \($0)", times: Times(all: .minimum)) }
        let changeTime = KDBXTime(year: 2025, month: 1, day: 2)!
        let perEntry = count > 0 ? attachmentBytes / count : 0
        for n in 0..<count {
            var entry = Entry(uuid: uuid(), times: Times(all: .minimum))
            entry.title = "Site \(n)"
            entry.userName = "user\(n)@example.com"
            entry.url = "https://login.site\(n % 997).example.com/path"
            entry.password = ProtectedString("pw-\(next())")
            entry.notes = "Notes for entry \(n): " + String(repeating: "lorem ipsum ", count: Int(next() % 8))
            entry.tags = n % 4 == 0 ? ["work"] : []
            for h in 0..<history {
                var old = entry
                old.password = ProtectedString("old-\(h)-\(next())")
                entry.history.append(old)
            }
            if perEntry > 0 {
                // Incompressible, as most attachments are (images, PDFs, archives): 6 bytes of each
                // 53-bit output (taking 8 left every 8th byte zero, which deflate compresses).
                var data = [UInt8](repeating: 0, count: perEntry)
                for i in stride(from: 0, to: perEntry, by: 6) {
                    var word = next()
                    for j in i..<min(i + 6, perEntry) { data[j] = UInt8(truncatingIfNeeded: word); word >>= 8 }
                }
                entry.attachments = [Attachment(name: "file\(n).bin", data: data)]
            }
            if changed >= 0, n % 10 == changed {
                entry.password = ProtectedString("changed-\(changed)-\(n)")
                entry.notes += " (changed in copy \(changed))"
                entry.times.lastModification = changeTime
            }
            groups[n % groups.count].entries.append(entry)
        }
        vault.root.groups = groups
        let key = try CompositeKey(password: ProtectedString(password), keyFileContents: nil)
        let bytes = try KDBXCodec.save(vault, key: key)
        try Data(bytes).write(to: URL(fileURLWithPath: out))
        print("wrote \(out): \(bytes.count) bytes, \(count) entries, \(history) history items each, \(perEntry * count) attachment bytes")
    }
}
