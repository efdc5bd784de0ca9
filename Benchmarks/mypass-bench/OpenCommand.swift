import Foundation
import MyPassBytes
import MyPassKDBX

/// `mypass-bench open VAULT`: opening broken into stages, a full save, and peak memory, beside
/// keepassxc-cli opening (`ls -R`) and saving (`mkdir`) the same vault.
enum OpenCommand {
    static let usage = """
    USAGE: mypass-bench open VAULT [--password TEXT | --no-password] [--keyfile PATH] [--runs N] [--compare] [--json]

      Times each stage of opening VAULT with KDBXReader (header and KDF, decrypt and MAC, inflate,
      inner header and XML parse with model build), the streamed open that KDBXCodec.open does
      (the same stages fused), and a full save (KDBXCodec.save: KDF, XML, deflate, encrypt), as
      medians of --runs runs (default 5). Peak memory is measured in a fresh child process that
      opens once (and then saves once), like the reference tool's. The password defaults to the
      first line of standard input.
      --compare runs keepassxc-cli on the same vault: `ls -R` for the whole open (a process of
      its own, so the row "whole open, own process" is the like-for-like one), and `mkdir` on a
      copy for open + save.
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
        if password == nil && !noPassword { password = readLine(strippingNewline: true) ?? "" }
        let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let keyFile = try keyFilePath.map { [UInt8](try Data(contentsOf: URL(fileURLWithPath: $0))) }
        let key = try CompositeKey(password: password.map { ProtectedString($0) }, keyFileContents: keyFile)

        if peakChild {
            let vault = try KDBXCodec.open(file, key: key)
            let openPeak = Timing.peakResidentBytes() ?? 0
            _ = try KDBXCodec.save(vault, key: key)
            let savePeak = Timing.peakResidentBytes() ?? 0
            print("\(openPeak) \(savePeak)")
            return
        }

        var report = Report(title: "open \(path) (\(file.count) bytes), medians of \(runs) runs, \(Timing.clock.rawValue) time")
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
            report.rows.append(Measurement(name: "stage: \(name)", value: Timing.medianOf(stages[index]), unit: "s", higherIsBetter: false))
        }
        var afterKDF = Measurement(name: "open after the KDF (streamed, KDBXCodec.open's path)", value: Timing.medianOf(streamed),
                                   unit: "s", higherIsBetter: false)
        var wholeOpen = Measurement(name: "whole open in process (KDBXCodec.open)", value: Timing.medianOf(whole), unit: "s", higherIsBetter: false)
        Progress.say("saving \(runs) times")
        let saveSeconds = try Timing.median(runs: runs) { _ = try KDBXCodec.save(vault, key: key) }
        let save = Measurement(name: "save (KDBXCodec.save: KDF, XML, deflate, encrypt)", value: saveSeconds, unit: "s", higherIsBetter: false)
        var openAndSave = Measurement(name: "open + save in process", value: Timing.medianOf(whole) + saveSeconds, unit: "s",
                                      higherIsBetter: false)

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
        var ownProcess = Measurement(name: "own process: start, read, open, save, exit", value: Timing.medianOf(childSeconds),
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
                afterKDF.reference = ("keepassxc-cli ls -R, whole process", open.seconds)
                wholeOpen.reference = ("keepassxc-cli ls -R, whole process", open.seconds)
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
                let cliSave = Timing.medianOf(saves)
                openAndSave.reference = ("keepassxc-cli mkdir (open + save), whole process", cliSave)
                ownProcess.reference = ("keepassxc-cli mkdir (open + save), whole process", cliSave)
            } else {
                report.missingTools.append("keepassxc-cli not found (Debian package keepassxc)")
            }
        }
        report.rows += [afterKDF, wholeOpen, save, openAndSave, ownProcess, peak, peakSave]
        report.extra["vault"] = "KDBX \(vault.format.version), \(vault.format.cipher.rawValue), KDF \(describe(vault.format.kdf))"
        report.print(json: json)
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
