import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX

/// `mypass-bench open VAULT`: opening broken into stages, a full save, and peak memory, beside
/// keepassxc-cli opening (`ls -R`) and saving (`mkdir`) the same vault.
enum OpenCommand {
    static let usage = """
    USAGE: mypass-bench open VAULT [--password TEXT | --no-password] [--keyfile PATH] [--runs N] [--compare] [--json]

      Times each stage of opening VAULT with KDBXReader (header and KDF, decrypt and MAC, inflate,
      inner header and XML parse with model build), the streamed open that KDBXCodec.open does
      (the same stages fused), a full save (KDBXCodec.save: KDF, XML, deflate, encrypt), and
      open + save of a copy as a changing mypass command does it (VaultDocument.open, then save:
      every KDF run the CLI makes, one to open and one to save), each as the median, min and max
      of --runs runs (default 5). Peak memory is measured in a fresh child process that opens and
      saves a copy the same way, like the reference tool's. The password defaults to the first
      line of standard input.
      --compare runs keepassxc-cli on the same vault: `ls -R` beside the whole open (both with
      the KDF) and `mkdir` on a copy beside open + save; the rows without the KDF have no
      reference figure, since keepassxc-cli cannot leave its KDF out.
    """

    static func run(_ args: inout BenchArguments) throws {
        guard let path = args.positionals.dropFirst().first else { throw BenchError.usage("open needs a VAULT") }
        let runs: Int = try args.integer("runs", default: 5)
        let json = args.flag("json"), compare = args.flag("compare")
        let noPassword = args.flag("no-password")
        let peakChild = args.flag("peak-child")  // internal: one open and one save, print peaks
        var password = args.value("password")
        let keyFilePath = args.value("keyfile")
        try args.checkAllConsumed()
        let file = try readInput(path, what: "vault")
        let keyFile = try keyFilePath.map { try readInput($0, what: "key file") }
        if password == nil && !noPassword { password = readLine(strippingNewline: true) ?? "" }
        let key = try CompositeKey(password: password.map { ProtectedString($0) }, keyFileContents: keyFile)

        if peakChild {
            let copy = try scratchCopy(of: path)
            defer { try? FileManager.default.removeItem(atPath: copy) }
            var document = try VaultDocument.open(copy, key: key)
            let openPeak = Timing.peakResidentBytes() ?? 0
            try touch(&document)
            _ = try document.save()
            let savePeak = Timing.peakResidentBytes() ?? 0
            print("\(openPeak) \(savePeak)")
            return
        }

        var report = Report(title: "open \(path) (\(file.count) bytes), median [min, max] of \(runs) runs, \(Timing.clock.rawValue) time")
        Progress.say("opening \(runs) times, stage by stage and streamed")
        let stageNames = ["header + KDF + header HMAC", "decrypt + block HMAC", "inflate", "inner header + XML parse + model build"]
        var stages = [[Double]](repeating: [], count: stageNames.count)
        var streamed: [Double] = [], whole: [Double] = []
        var vault: Vault?
        for _ in 0..<max(1, runs) {
            var reader: KDBXReader?
            var keys: MasterKeys?
            var content: [UInt8] = [], xml: [UInt8] = []
            stages[0].append(try Timing.seconds {
                let opened = try KDBXReader(file: file)
                keys = try opened.deriveKeys(key)
                reader = opened
            })
            guard let reader, let keys else { throw BenchError.failure("no keys") }
            stages[1].append(try Timing.seconds { content = try reader.decryptPayload(keys: keys) })
            stages[2].append(try Timing.seconds { xml = try reader.decompress(content) })
            stages[3].append(try Timing.seconds { vault = try reader.parseContent(xml) })
            wipe(&content)
            wipe(&xml)
            streamed.append(try Timing.seconds { vault = try reader.readVault(keys: keys) })
            whole.append(try Timing.seconds { vault = try KDBXCodec.open(file, key: key) })
        }
        guard let vault else { throw BenchError.failure("no vault") }
        for (index, name) in stageNames.enumerated() {
            report.rows.append(Measurement(name: "stage: \(name)", readings: stages[index], unit: "s", higherIsBetter: false))
        }
        // No reference on this row: keepassxc-cli's figure includes its KDF, ours here does not.
        let afterKDF = Measurement(name: "open after the KDF (streamed, KDBXCodec.open's path; no KDF)", readings: streamed,
                                   unit: "s", higherIsBetter: false)
        var wholeOpen = Measurement(name: "whole open in process with the KDF (KDBXCodec.open)", readings: whole, unit: "s",
                                    higherIsBetter: false)
        Progress.say("saving \(runs) times")
        let saveSeconds = try Timing.samples(runs: runs) { _ = try KDBXCodec.save(vault, key: key) }
        let save = Measurement(name: "save (KDBXCodec.save: KDF, XML, deflate, encrypt)", readings: saveSeconds, unit: "s",
                               higherIsBetter: false)
        // Open + save of a copy through VaultDocument, as `mypass edit` does: every KDF run it makes.
        Progress.say("open + save through VaultDocument, \(runs) times")
        var documentSeconds: [Double] = []
        for _ in 0..<max(1, runs) {
            let copy = try scratchCopy(of: path)
            defer { try? FileManager.default.removeItem(atPath: copy) }
            documentSeconds.append(try Timing.seconds {
                var document = try VaultDocument.open(copy, key: key)
                try touch(&document)
                _ = try document.save()
            })
        }
        var openAndSave = Measurement(name: "open + save of a copy in process, as mypass edit (VaultDocument: 2 KDF runs)",
                                      readings: documentSeconds, unit: "s", higherIsBetter: false)

        // Own process: spawn this executable to open once and save once, like keepassxc-cli runs.
        var childArguments = ["open", path, "--peak-child"]
        var childInput: [UInt8] = []
        if let keyFilePath { childArguments += ["--keyfile", keyFilePath] }
        if noPassword { childArguments.append("--no-password") } else { childInput = Array(((password ?? "") + "\n").utf8) }
        let selfPath = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        Progress.say("own process, open + save, \(runs) runs")
        var childSeconds: [Double] = []
        var openPeak: UInt64 = 0, savePeak: UInt64 = 0
        for _ in 0..<max(1, runs) {
            let output = try ReferenceTools.run(selfPath, childArguments, input: childInput)
            guard output.status == 0 else { throw BenchError.failure("peak child failed: \(output.stderr.prefix(200))") }
            childSeconds.append(output.measuredSeconds)
            let fields = output.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { UInt64($0) }
            if fields.count == 2 { openPeak = max(openPeak, fields[0]); savePeak = max(savePeak, fields[1]) }
        }
        var ownProcess = Measurement(name: "own process: start, read, open, save a copy, exit", readings: childSeconds,
                                     unit: "s", higherIsBetter: false)
        var peak = Measurement(name: "peak memory, whole process after open", value: Double(openPeak) / 1e6, unit: "MB", higherIsBetter: false)
        let peakSave = Measurement(name: "peak memory, whole process after open + save", value: Double(savePeak) / 1e6, unit: "MB",
                                   higherIsBetter: false)

        if compare {
            if let cli = ReferenceTools.find("keepassxc-cli") {
                var arguments = ["ls", "-R", "-q", path]
                var input = Array(((password ?? "") + "\n").utf8)
                if let keyFilePath { arguments.insert(contentsOf: ["-k", keyFilePath], at: 1) }
                if noPassword { arguments.insert("--no-password", at: 1); input = [] }
                Progress.say("keepassxc-cli ls -R, \(runs) runs")
                let open = try ReferenceTools.median(runs: runs, cli, arguments, input: input)
                wholeOpen.setReference("keepassxc-cli ls -R, whole process", readings: open.samples)
                peak.reference = ("keepassxc-cli ls -R", Double(open.peakResidentBytes) / 1e6)
                let startup = try ReferenceTools.median(runs: runs, cli, ["--version"])
                report.extra["keepassxc-cli start-up alone (--version)"] = String(format: "%.4f s", startup.seconds)
                let copy = FileManager.default.temporaryDirectory.appendingPathComponent("mypass-bench-save-\(getpid()).kdbx")
                defer { try? FileManager.default.removeItem(at: copy) }
                var saves: [Double] = []
                Progress.say("keepassxc-cli mkdir, \(runs) runs")
                for index in 0..<max(1, runs) {
                    try? FileManager.default.removeItem(at: copy)
                    try FileManager.default.copyItem(atPath: path, toPath: copy.path)
                    try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: copy.path)
                    var mkdir = ["mkdir", "-q", copy.path, "bench-\(index)"]
                    if let keyFilePath { mkdir.insert(contentsOf: ["-k", keyFilePath], at: 1) }
                    if noPassword { mkdir.insert("--no-password", at: 1) }
                    let output = try ReferenceTools.run(cli, mkdir, input: input)
                    guard output.status == 0 else { throw BenchError.failure("keepassxc-cli mkdir failed: \(output.stderr.prefix(200))") }
                    saves.append(output.measuredSeconds)
                }
                openAndSave.setReference("keepassxc-cli mkdir (open + save), whole process", readings: saves)
                ownProcess.setReference("keepassxc-cli mkdir (open + save), whole process", readings: saves)
            } else {
                report.missingTools.append("keepassxc-cli not found (Debian package keepassxc)")
            }
        }
        report.rows += [afterKDF, wholeOpen, save, openAndSave, ownProcess, peak, peakSave]
        report.extra["vault"] = "KDBX \(vault.format.version), \(vault.format.cipher.rawValue), KDF \(describe(vault.format.kdf))"
        report.print(json: json)
    }

    /// A copy of `path` in the temporary directory, mode 0600, for a save that must not touch the original.
    static func scratchCopy(of path: String) throws -> String {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("mypass-bench-open-\(getpid())-\(UUID().uuidString).kdbx")
        try FileManager.default.copyItem(atPath: path, toPath: copy.path)
        try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: copy.path)
        return copy.path
    }

    /// Changes the document as a small edit would (the database name gets its own value back
    /// touched), so that its save writes a new file.
    static func touch(_ document: inout VaultDocument) throws {
        document.vault.meta.databaseNameChanged = KDBXTime(unixSeconds: Int64(Date().timeIntervalSince1970))
    }

    static func describe(_ kdf: KDFSettings) -> String {
        switch kdf {
        case .aes(let rounds): return "AES-KDF \(rounds) rounds"
        case .argon2(let settings):
            return "\(settings.variant.rawValue) \(settings.memoryBytes / 1024) KiB, \(settings.iterations) iterations, "
                + "parallelism \(settings.parallelism), version 0x\(String(settings.version, radix: 16))"
        }
    }
}
