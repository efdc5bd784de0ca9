import Foundation
import MyPassBytes
import MyPassCrypto
import MyPassHealth
import MyPassKDBX

/// `mypass-bench analyze VAULT --hibp FILE`: HIBP lookups per second, the stages of the health
/// report, and `mypass analyze --hibp` beside `keepassxc-cli analyze --hibp` on the same files.
enum AnalyzeBenchCommand {
    static let usage = """
    USAGE: mypass-bench analyze VAULT --hibp FILE [--password TEXT | --no-password] [--keyfile PATH] [--runs N]
                                [--lookups N] [--make-hibp --size BYTES] [--compare] [--json]

      Times, as medians of --runs runs (default 5): lookups in the HIBP list (--lookups random
      hashes, default 20,000, and every password of the vault), the first decoding of the
      frequency lists, the strength estimates of every password, the whole report after the KDF
      (VaultHealth.analyze), and the whole `mypass analyze --hibp FILE VAULT` process (found beside
      this executable). Peak memory of that process is measured with GNU time (/usr/bin/time)
      when present (wait4's figure would include this process's memory at spawn).
      --make-hibp writes FILE first: sorted random hashes of --size bytes (default 1 GiB) with the
      SHA-1 of every other password of the vault merged in (counts 1 to 999), CRLF lines.
      --compare runs `keepassxc-cli analyze -q --hibp FILE VAULT` alternately with ours, on the
      same files (it reads the whole list; we search it).
    """

    static func run(_ args: inout BenchArguments) throws {
        guard let path = args.positionals.dropFirst().first else { throw BenchError.usage("analyze needs a VAULT") }
        guard let hibp = args.value("hibp") else { throw BenchError.usage("analyze needs --hibp FILE") }
        let runs: Int = try args.integer("runs", default: 5)
        let lookups: Int = try args.integer("lookups", default: 20_000)
        let size: Int = try args.integer("size", default: 1 << 30)
        let json = args.flag("json"), compare = args.flag("compare"), noPassword = args.flag("no-password")
        let make = args.value("make-hibp") != nil || args.flag("make-hibp")
        var password = args.value("password")
        let keyFilePath = args.value("keyfile")
        try args.checkAllConsumed()
        if password == nil && !noPassword { password = readLine(strippingNewline: true) ?? "" }
        let key = try CompositeKey(password: password.map { ProtectedString($0) },
                                   keyFileContents: try keyFilePath.map { try readInput($0, what: "key file") })
        let file = try readInput(path, what: "vault")
        Progress.say("opening the vault once")
        let vault = try KDBXCodec.open(file, key: key)
        let passwords = vault.allEntries.map(\.password)
        if make {
            Progress.say("writing \(size) bytes of HIBP list to \(hibp)")
            try writeList(hibp, passwords: passwords, minimumBytes: size)
        }
        let listBytes = (try? FileManager.default.attributesOfItem(atPath: hibp)[.size] as? Int) ?? 0
        var report = Report(title: "analyze \(path) (\(passwords.count) entries) with \(hibp) (\(listBytes) bytes), median [min, max] of \(runs) runs, \(Timing.clock.rawValue) time")

        // Lookups: random hashes (almost all absent) and the vault's passwords.
        let list = try PwnedPasswords.open(hibp)
        var state: UInt64 = 7
        let randomHashes = (0..<lookups).map { _ in
            (0..<20).map { _ -> UInt8 in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return UInt8(truncatingIfNeeded: state >> 33)
            }
        }
        Progress.say("\(lookups) random lookups, \(runs) runs")
        let randomSeconds = try Timing.samples(runs: runs) {
            for hash in randomHashes { _ = try hash.withUnsafeBytes { try list.occurrences(ofSHA1: $0) } }
        }
        report.rows.append(Measurement(name: "HIBP lookups of random hashes", readings: randomSeconds.map { Double(lookups) / $0 },
                                       unit: "lookups/s", higherIsBetter: true))
        Progress.say("\(passwords.count) lookups of the vault's passwords, \(runs) runs")
        let vaultSeconds = try Timing.samples(runs: runs) {
            for password in passwords { _ = try list.occurrences(of: password) }
        }
        report.rows.append(Measurement(name: "HIBP lookups of the vault's passwords (SHA-1 included)",
                                       readings: vaultSeconds.map { Double(passwords.count) / $0 }, unit: "lookups/s", higherIsBetter: true))

        // The report's stages in this process.
        let firstEstimate = Timing.seconds { _ = PasswordStrength(configuration: .zxcvbn4).estimate("warm-up") }
        report.rows.append(Measurement(name: "frequency lists: decoding on the first estimate (once per process)", value: firstEstimate,
                                       unit: "s", higherIsBetter: false))
        let estimator = PasswordStrength(configuration: .zxcvbn4)
        let estimateSeconds = Timing.samples(runs: runs) { for password in passwords { _ = estimator.estimate(password) } }
        report.rows.append(Measurement(name: "strength estimates of every password", readings: estimateSeconds.map { Double(passwords.count) / $0 },
                                       unit: "estimates/s", higherIsBetter: true))
        let options = VaultHealthOptions(now: KDBXTime(unixSeconds: Int64(Date().timeIntervalSince1970)))
        var findings = 0
        let analysisSeconds = try Timing.samples(runs: runs) {
            findings = try VaultHealth.analyze(vault, options: options, breachList: list).findings.count
        }
        report.rows.append(Measurement(name: "VaultHealth.analyze (after the KDF: estimates, lookups, reuse)", readings: analysisSeconds,
                                       unit: "s", higherIsBetter: false))
        report.extra["findings"] = String(findings)

        // Whole processes, alternately: ours and keepassxc-cli's.
        let selfPath = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let mypass = URL(fileURLWithPath: selfPath).deletingLastPathComponent().appendingPathComponent("mypass").path
        guard FileManager.default.isExecutableFile(atPath: mypass) else { throw BenchError.failure("no mypass beside \(selfPath)") }
        var ours = ["analyze", path, "--hibp", hibp]
        var theirs = ["analyze", "-q", "--hibp", hibp]
        var input: [UInt8] = Array(((password ?? "") + "\n").utf8)
        if let keyFilePath { ours += ["--keyfile", keyFilePath]; theirs += ["-k", keyFilePath] }
        if noPassword { ours.append("--no-password"); theirs.append("--no-password"); input = [] }
        theirs.append(path)
        let keepassxc = compare ? ReferenceTools.find("keepassxc-cli") : nil
        if compare && keepassxc == nil { report.missingTools.append("keepassxc-cli not found (Debian package keepassxc)") }
        var ourSeconds: [Double] = [], theirSeconds: [Double] = []
        var ourPeak: Double?, theirPeak: Double?
        let time = FileManager.default.isExecutableFile(atPath: "/usr/bin/time") ? "/usr/bin/time" : nil
        for run in 0..<max(1, runs) {
            Progress.say("whole processes, run \(run + 1) of \(runs)")
            let mine = try measured(time, mypass, ours, input: input)
            guard mine.output.status == 0 || mine.output.status == 6 else {
                throw BenchError.failure("mypass analyze failed: \(mine.output.stderr.prefix(300))")
            }
            ourSeconds.append(mine.output.measuredSeconds)
            ourPeak = max(ourPeak ?? 0, mine.peak ?? 0)
            if let keepassxc {
                let other = try measured(time, keepassxc, theirs, input: input)
                guard other.output.status == 0 else { throw BenchError.failure("keepassxc-cli analyze failed: \(other.output.stderr.prefix(300))") }
                theirSeconds.append(other.output.measuredSeconds)
                theirPeak = max(theirPeak ?? 0, other.peak ?? 0)
            }
        }
        var whole = Measurement(name: "whole process: mypass analyze --hibp (start, KDF, open, report, exit)", readings: ourSeconds,
                                unit: "s", higherIsBetter: false)
        if !theirSeconds.isEmpty { whole.setReference("keepassxc-cli analyze --hibp, whole process", readings: theirSeconds) }
        report.rows.append(whole)
        if let ourPeak {
            var peak = Measurement(name: "peak memory, whole process (GNU time)", value: ourPeak / 1e6, unit: "MB", higherIsBetter: false)
            if let theirPeak { peak.reference = ("keepassxc-cli analyze --hibp", theirPeak / 1e6) }
            report.rows.append(peak)
        }
        if let ratio = whole.reference.map({ whole.value / $0.value }) {
            report.extra["time of mypass analyze / keepassxc-cli analyze (medians)"] = String(format: "%.3f", ratio)
        }
        report.extra["vault"] = "KDBX \(vault.format.version), KDF \(OpenCommand.describe(vault.format.kdf))"
        report.print(json: json)
    }

    /// Runs a tool, under GNU time when `time` is given (its `%M` is the child's own peak: GNU time
    /// forks, so the child inherits time's few hundred KiB, not this process's memory).
    static func measured(_ time: String?, _ tool: String, _ arguments: [String], input: [UInt8])
        throws -> (output: ReferenceTools.Output, peak: Double?)
    {
        guard let time else { return (try ReferenceTools.run(tool, arguments, input: input), nil) }
        var output = try ReferenceTools.run(time, ["-f", "peak-kib %M", tool] + arguments, input: input)
        var lines = output.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        guard let index = lines.lastIndex(where: { $0.hasPrefix("peak-kib ") }), let kib = Double(lines[index].dropFirst(9)) else {
            return (output, nil)
        }
        lines.remove(at: index)
        output.stderr = lines.joined(separator: "\n")
        return (output, kib * 1024)
    }

    /// A sorted HIBP list of at least `minimumBytes`: random hashes in ascending order with every
    /// other password's SHA-1 merged in.
    static func writeList(_ path: String, passwords: [ProtectedString], minimumBytes: Int) throws {
        var chosen: [[UInt8]] = []
        for (index, password) in passwords.enumerated() where index % 2 == 0 {
            chosen.append(password.withRevealedBytes { bytes in
                var hash = SHA1()
                hash.update(bytes)
                return hash.finalize()
            })
        }
        chosen.sort { $0.lexicographicallyPrecedes($1) }
        guard let file = fopen(path, "wb") else { throw BenchError.failure("cannot write \(path)") }
        defer { fclose(file) }
        let hex = Array("0123456789ABCDEF".utf8)
        var buffer = [UInt8](repeating: 0, count: 8 << 20)
        var used = 0, total = 0
        var state: UInt64 = 0x5EED
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state ^ (state >> 29)
        }
        func emit(_ digest: [UInt8]) throws {
            if used > buffer.count - 64 {
                guard fwrite(buffer, 1, used, file) == used else { throw BenchError.failure("cannot write \(path)") }
                total += used
                used = 0
            }
            for byte in digest {
                buffer[used] = hex[Int(byte >> 4)]
                buffer[used + 1] = hex[Int(byte & 15)]
                used += 2
            }
            let count = 1 + Int(next() % 999)
            let text = Array(":\(count)\r\n".utf8)
            for byte in text { buffer[used] = byte; used += 1 }
        }
        let lines = UInt64(minimumBytes / 46 + 1)
        let step = UInt64.max / (lines + lines / 9) * 2
        var high: UInt64 = 0
        var nextChosen = 0
        while total + used < minimumBytes {
            let (sum, overflow) = high.addingReportingOverflow(1 + next() % step)
            guard !overflow else { break }
            high = sum
            var digest = (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * UInt64($0))) }
            for _ in 0..<12 { digest.append(UInt8(truncatingIfNeeded: next() >> 24)) }
            while nextChosen < chosen.count, !digest.lexicographicallyPrecedes(chosen[nextChosen]) {
                if chosen[nextChosen] != digest { try emit(chosen[nextChosen]) }
                nextChosen += 1
            }
            try emit(digest)
        }
        for digest in chosen[nextChosen...] { try emit(digest) }
        guard fwrite(buffer, 1, used, file) == used else { throw BenchError.failure("cannot write \(path)") }
    }
}
