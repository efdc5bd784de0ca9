import Foundation
import MyPassBytes
import MyPassKDBX

/// `mypass-bench open VAULT`: opening broken into stages, a full save, and peak memory, beside
/// keepassxc-cli opening (`ls -R`) and saving (`mkdir`) the same vault.
enum OpenCommand {
    static let usage = """
    USAGE: mypass-bench open VAULT [--password TEXT | --no-password] [--keyfile PATH] [--runs N] [--compare] [--json]

      Times each stage of opening VAULT (KDF, decrypt and MAC, inflate, XML parse and model build)
      and a full save, as medians of --runs runs (default 5), and reports peak resident memory.
      The password defaults to the first line of standard input.
      --compare times keepassxc-cli on the same vault: `ls -R` for the whole open, `mkdir` for open+save.
    """

    static func run(_ args: inout BenchArguments) throws {
        guard let path = args.positionals.dropFirst().first else { throw BenchError.usage("open needs a VAULT") }
        let runs: Int = try args.integer("runs", default: 5)
        let json = args.flag("json"), compare = args.flag("compare")
        let noPassword = args.value("no-password") != nil || CommandLine.arguments.contains("--no-password")
        var password = args.value("password")
        let keyFilePath = args.value("keyfile")
        try args.checkAllConsumed()
        if password == nil && !noPassword { password = readLine(strippingNewline: true) ?? "" }
        let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let keyFile = try keyFilePath.map { [UInt8](try Data(contentsOf: URL(fileURLWithPath: $0))) }
        let key = try CompositeKey(password: password.map { ProtectedString($0) }, keyFileContents: keyFile)

        Timing.resetPeak()
        var report = Report(title: "open \(path) (\(file.count) bytes), medians of \(runs) runs")
        Progress.say("opening \(runs) times")
        var stages: [String: [Double]] = [:]
        var vault: Vault?
        for _ in 0..<max(1, runs) {
            let timings = try KDBXCodec.openWithTimings(file, key: key)
            vault = timings.vault
            for (stage, seconds) in timings.stages { stages[stage, default: []].append(seconds) }
        }
        guard let vault else { throw BenchError.failure("no vault") }
        let peak = Timing.peakResidentBytes()
        var afterKDF: [Double] = []
        let stageOrder = ["kdf", "decrypt+mac", "inflate", "xml+model"]
        for stage in stageOrder { if let samples = stages[stage] { report.rows.append(
            Measurement(name: "open: \(stage)", value: Timing.medianOf(samples), unit: "s", higherIsBetter: false)) } }
        for index in 0..<max(1, runs) {
            afterKDF.append(stageOrder.dropFirst().reduce(0) { $0 + (stages[$1]?[safe: index] ?? 0) })
        }
        var total = Measurement(name: "open: everything after the KDF", value: Timing.medianOf(afterKDF), unit: "s", higherIsBetter: false)
        var whole = Measurement(name: "open: whole", value: Timing.medianOf((0..<max(1, runs)).map { index in
            stageOrder.reduce(0) { $0 + (stages[$1]?[safe: index] ?? 0) } }), unit: "s", higherIsBetter: false)
        Progress.say("saving \(runs) times")
        let saveSeconds = try Timing.median(runs: runs) { _ = try KDBXCodec.save(vault, key: key) }
        var save = Measurement(name: "save (KDF, XML, deflate, encrypt)", value: saveSeconds, unit: "s", higherIsBetter: false)

        if compare {
            if let cli = ReferenceTools.find("keepassxc-cli") {
                var arguments = ["ls", "-R", "-q", path]
                var input = Array(((password ?? "") + "\n").utf8)
                if let keyFilePath { arguments.insert(contentsOf: ["-k", keyFilePath], at: 1) }
                if noPassword { arguments.insert("--no-password", at: 1); input = [] }
                Progress.say("keepassxc-cli ls -R, \(runs) runs")
                let open = try ReferenceTools.medianSeconds(runs: runs, cli, arguments, input: input)
                total.reference = ("keepassxc-cli ls -R, whole open", open)
                whole.reference = ("keepassxc-cli ls -R", open)
                let copy = FileManager.default.temporaryDirectory.appendingPathComponent("mypass-bench-save-\(getpid()).kdbx")
                var saves: [Double] = []
                for index in 0..<max(1, runs) {
                    try? FileManager.default.removeItem(at: copy)
                    try FileManager.default.copyItem(atPath: path, toPath: copy.path)
                    var mkdir = ["mkdir", "-q", copy.path, "bench-\(index)"]
                    if let keyFilePath { mkdir.insert(contentsOf: ["-k", keyFilePath], at: 1) }
                    if noPassword { mkdir.insert("--no-password", at: 1) }
                    let output = try ReferenceTools.run(cli, mkdir, input: input)
                    guard output.status == 0 else { throw BenchError.failure("keepassxc-cli mkdir failed: \(output.stderr.prefix(200))") }
                    saves.append(output.seconds)
                }
                try? FileManager.default.removeItem(at: copy)
                let cliSave = Timing.medianOf(saves)
                save.reference = ("keepassxc-cli mkdir (open + save)", cliSave)
                save.note = "ours is save alone; keepassxc-cli's includes its open"
                var usage = rusage()
                getrusage(RUSAGE_CHILDREN, &usage)
                report.extra["keepassxc-cli peak memory"] = "\(usage.ru_maxrss / 1024) MB"
            } else {
                report.missingTools.append("keepassxc-cli (Debian package keepassxc)")
            }
        }
        report.rows.append(total)
        report.rows.append(whole)
        report.rows.append(save)
        if let peak { report.extra["peak memory"] = "\(peak / 1_048_576) MB (open and save, whole process)" }
        report.extra["vault"] = "KDBX \(vault.format.version), \(vault.format.cipher.rawValue)"
        report.print(json: json)
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
