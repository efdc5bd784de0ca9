import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX

/// `mypass-bench browse VAULT`: a keystroke in `mypass browse`'s search line on a large vault, and
/// the browse process's peak memory beside `mypass show`'s (issue 35).
enum BrowseCommand {
    static let usage = """
    USAGE: mypass-bench browse VAULT [--password TEXT] [--keys TEXT] [--runs N] [--mypass PATH]
           mypass-bench browse --make OUT --entries N [--password TEXT]

      Runs --runs (default 5) fresh `mypass __browse-bench VAULT` processes (MYPASS_BROWSE_BENCH=1):
      each opens the vault as `mypass browse` does, builds the same models and first frame
      (120x40), then types `/` and each character of --keys (default "site 4") into the search
      line, timing each key from the key to its whole frame (model update, filter, frame text),
      and reports its own peak resident memory (VmHWM). Then --runs `mypass show VAULT ENTRY`
      processes under /usr/bin/time (their peak resident memory, maxrss). Prints the median and
      largest keystroke, the medians of both peaks and their ratio.
      --make writes a KDBX 4 vault (AES-KDF, 1,000 rounds) of N entries in 50 groups.
    """

    static func run(_ args: inout BenchArguments) throws {
        let password = args.value("password") ?? "bench"
        if let out = args.value("make") {
            let count: Int = try args.integer("entries", default: 50_000)
            try args.checkAllConsumed()
            try make(out, entries: count, password: password)
            return
        }
        guard let path = args.positionals.dropFirst().first else { throw BenchError.usage("browse needs a VAULT") }
        let keys = args.value("keys") ?? "site 4"
        let runs: Int = try args.integer("runs", default: 5)
        let me = URL(fileURLWithPath: CommandLine.arguments[0].hasPrefix("/") ? CommandLine.arguments[0]
            : FileManager.default.currentDirectoryPath + "/" + CommandLine.arguments[0])
        let mypass = args.value("mypass") ?? me.deletingLastPathComponent().appendingPathComponent("mypass").path
        try args.checkAllConsumed()
        let input = Array((password + "\n").utf8)
        var keyTimes: [Double] = [], browsePeaks: [Double] = [], showPeaks: [Double] = []
        for _ in 0..<max(1, runs) {
            let browse = try ReferenceTools.run(mypass, ["__browse-bench", path, "--keys", keys], input: input,
                                                environment: ["MYPASS_BROWSE_BENCH": "1", "MYPASS_NO_AGENT": "1"])
            guard browse.status == 0 else { throw BenchError.failure("__browse-bench failed: \(browse.stderr)") }
            let words = browse.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
            guard let frames = words.firstIndex(of: "frames"), let peak = words.firstIndex(of: "peak") else {
                throw BenchError.failure("unexpected output: \(browse.stdout)")
            }
            keyTimes += words[..<frames].compactMap(Double.init).map { $0 / 1e6 }
            browsePeaks.append(Double(words[peak + 1]) ?? .nan)
            let show = try ReferenceTools.run("/usr/bin/time", ["-f", "maxrss %M", mypass, "show", path, "Group 0/Site 0", "--no-agent"],
                                              input: input)
            guard show.status == 0, let line = show.stderr.split(separator: "\n").last(where: { $0.hasPrefix("maxrss ") }),
                  let kib = Double(line.dropFirst(7)) else {
                throw BenchError.failure("mypass show failed: \(show.stderr)")
            }
            showPeaks.append(kib * 1024)
        }
        let browsePeak = Timing.medianOf(browsePeaks), showPeak = Timing.medianOf(showPeaks)
        print(String(format: "browse keystroke (search line, key to frame): median %.2f ms, largest %.2f ms over %d keys",
                     Timing.medianOf(keyTimes), keyTimes.max() ?? .nan, keyTimes.count))
        print(String(format: "peak memory: browse %.1f MB, show %.1f MB, ratio %.2f (medians of %d runs)",
                     browsePeak / 1e6, showPeak / 1e6, browsePeak / showPeak, max(1, runs)))
    }

    /// A vault of `entries` entries in 50 groups (`Group 0` ... `Group 49`), `Site N` each.
    static func make(_ out: String, entries: Int, password: String) throws {
        var vault = Vault.new(name: "Bench", now: KDBXTime(unixSeconds: 1_767_225_600))
        vault.format = VaultFormat(version: .v4_0, kdf: .aes(rounds: 1_000))
        var groups = (0..<50).map { Group(name: "Group \($0)") }
        for index in 0..<entries {
            var entry = Entry()
            entry.title = "Site \(index)"
            entry.userName = "user\(index)@example.com"
            entry.url = "https://site\(index).example.org/login"
            entry.password = ProtectedString("pw-\(index)-" + String(index * 7919, radix: 36))
            entry.tags = index % 10 == 0 ? ["work"] : []
            groups[index % 50].entries.append(entry)
        }
        vault.root.groups = groups
        let bytes = try KDBXCodec.save(vault, key: try CompositeKey(password: ProtectedString(password), keyFileContents: nil))
        try Data(bytes).write(to: URL(fileURLWithPath: out))
        print("wrote \(out): \(entries) entries, \(bytes.count) bytes")
    }
}
