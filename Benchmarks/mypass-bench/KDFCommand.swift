import Foundation
import MyPassBytes
import MyPassCrypto

/// `mypass-bench kdf argon2d|argon2id|aes`: times one KDF and optionally prints the derived key.
enum KDFCommand {
    static let usage = """
    USAGE: mypass-bench kdf argon2d|argon2id [--memory SIZE] [--iterations N] [--parallelism N]
                            [--version 19|16] [--salt-hex HEX] [--length N]
                            [--password TEXT | --password-hex HEX] [--runs N] [--show-key] [--compare] [--json]
           mypass-bench kdf aes [--rounds N] [--seed-hex HEX] [--password TEXT | --password-hex HEX]
                            [--runs N] [--show-key] [--compare] [--json]

      Argon2: the raw password bytes go in, as the argon2 CLI takes them. SIZE is bytes, or with a
      unit (64MiB, 65536KiB); default 64MiB, 2 iterations, parallelism 2, version 19 (KeePass's default).
      AES-KDF: the 32-byte key goes in (--password-hex, 64 hex digits; --password TEXT uses the
      composite key KeePass makes of that password alone, SHA-256(SHA-256(TEXT))). Default 60,000 rounds.
      --show-key prints the derived key in lowercase hex on the first line of stdout.
      --compare times Debian's argon2 CLI (Argon2) or OpenSSL's AES-256-ECB (AES-KDF) in the same run:
      OpenSSL as users have it (the ratio's reference) and with AES-NI masked off (the note). The
      AES-KDF row names the AES backend it ran on (MYPASS_CRYPTO_BACKEND=portable: the portable code).
    """

    static func run(_ args: inout BenchArguments) throws {
        guard let kind = args.positionals.dropFirst().first else { throw BenchError.usage("kdf needs argon2d, argon2id or aes") }
        let json = args.flag("json"), compare = args.flag("compare"), showKey = args.flag("show-key")
        let runs: Int = try args.integer("runs", default: 3)
        switch kind {
        case "argon2d", "argon2id":
            try argon2(kind: kind, args: &args, runs: runs, json: json, compare: compare, showKey: showKey)
        case "aes":
            try aes(args: &args, runs: runs, json: json, compare: compare, showKey: showKey)
        default:
            throw BenchError.usage("unknown KDF '\(kind)' (argon2d, argon2id or aes)")
        }
    }

    static func passwordBytes(_ args: inout BenchArguments) throws(BenchError) -> [UInt8] {
        if let hex = args.value("password-hex") {
            guard let bytes = [UInt8](hex: hex) else { throw BenchError.usage("--password-hex is not hex") }
            return bytes
        }
        return Array((args.value("password") ?? "password").utf8)
    }

    static func argon2(kind: String, args: inout BenchArguments, runs: Int, json: Bool, compare: Bool, showKey: Bool) throws {
        let memoryBytes = try parseMemory(args.value("memory") ?? "64MiB")
        let iterations: UInt32 = try args.integer("iterations", default: 2)
        let parallelism: UInt32 = try args.integer("parallelism", default: 2)
        let versionNumber: Int = try args.integer("version", default: 19)
        let length: Int = try args.integer("length", default: 32)
        let saltText = "mypass-bench-salt"
        var salt = Array(saltText.utf8)
        if let hex = args.value("salt-hex") {
            guard let bytes = [UInt8](hex: hex) else { throw BenchError.usage("--salt-hex is not hex") }
            salt = bytes
        }
        let password = try passwordBytes(&args)
        try args.checkAllConsumed()
        guard versionNumber == 19 || versionNumber == 16 else { throw BenchError.usage("--version is 19 or 16") }
        guard memoryBytes % 1024 == 0, memoryBytes / 1024 <= UInt64(UInt32.max) else {
            throw BenchError.usage("--memory must be a whole number of KiB")
        }
        let parameters = Argon2.Parameters(
            variant: kind == "argon2d" ? .argon2d : .argon2id, version: versionNumber == 19 ? 0x13 : 0x10,
            memoryKiB: UInt32(memoryBytes / 1024), iterations: iterations, parallelism: parallelism,
            salt: salt, outputByteCount: length)
        var key: [UInt8] = []
        var report = Report(title: "\(kind): m=\(memoryBytes / 1024) KiB t=\(iterations) p=\(parallelism) v=\(versionNumber), median of \(runs) runs")
        // The reference tool, when asked for and usable (it takes the salt as a text argument).
        var tool: (path: String, arguments: [String])?
        if compare {
            let path = ReferenceTools.find("argon2")
            if let path, let saltString = String(validatingUTF8Bytes: salt) {
                tool = (path, [saltString, kind == "argon2d" ? "-d" : "-id", "-t", String(iterations),
                               "-k", String(memoryBytes / 1024), "-p", String(parallelism), "-l", String(length),
                               "-v", versionNumber == 19 ? "13" : "10", "-r"])
            } else if path == nil {
                report.missingTools.append("argon2 not found (Debian package argon2)")
            } else {
                report.missingTools.append("argon2 CLI: it takes the salt as text, and this salt is not UTF-8")
            }
        }
        // Ours and the tool's runs alternate, so that load on the machine falls on both alike;
        // each run is read on both clocks.
        var oursWall: [Double] = [], oursCPU: [Double] = [], theirsWall: [Double] = [], theirsCPU: [Double] = []
        var agrees = true
        for run in 0..<max(1, runs) {
            Progress.say("\(kind) \(memoryBytes / 1024) KiB, \(iterations) iterations, \(parallelism) lanes, run \(run + 1) of \(runs)")
            let saved = Timing.clock
            Timing.clock = .cpu
            let cpuStart = Timing.now()
            Timing.clock = .wall
            let wallStart = Timing.now()
            key = try Argon2.deriveKey(password: password, parameters: parameters, memoryLimitBytes: 16 << 30)
            oursWall.append(Timing.now() - wallStart)
            Timing.clock = .cpu
            oursCPU.append(Timing.now() - cpuStart)
            Timing.clock = saved
            if let tool {
                let output = try ReferenceTools.run(tool.path, tool.arguments, input: password)
                guard output.status == 0 else { throw BenchError.failure("argon2 failed: \(output.stderr.prefix(200))") }
                theirsWall.append(output.seconds)
                theirsCPU.append(output.cpuSeconds)
                agrees = agrees && output.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == key.hexString
            }
        }
        if showKey { print(key.hexString) }
        var wall = Measurement(name: "\(kind) derive, wall time", readings: oursWall, unit: "s", higherIsBetter: false)
        var cpu = Measurement(name: "\(kind) derive, CPU time (all threads)", readings: oursCPU, unit: "s", higherIsBetter: false)
        if tool != nil {
            wall.setReference("argon2 CLI, whole process", readings: theirsWall)
            cpu.setReference("argon2 CLI, whole process", readings: theirsCPU)
            wall.note = agrees ? "same key" : "KEY DIFFERS"
        }
        let row = Timing.clock == .cpu ? cpu : wall
        report.rows.append(Timing.clock == .cpu ? wall : cpu)
        report.rows.append(row)
        if !(showKey && !json && !compare) || json { report.print(json: json) }
    }

    static func aes(args: inout BenchArguments, runs: Int, json: Bool, compare: Bool, showKey: Bool) throws {
        let rounds: UInt64 = try args.integer("rounds", default: 60_000)
        var seed = [UInt8](repeating: 0x5A, count: 32)
        if let hex = args.value("seed-hex") {
            guard let bytes = [UInt8](hex: hex), bytes.count == 32 else { throw BenchError.usage("--seed-hex takes 32 bytes") }
            seed = bytes
        }
        var key: [UInt8]
        if let hex = args.value("password-hex") {
            guard let bytes = [UInt8](hex: hex), bytes.count == 32 else { throw BenchError.usage("--password-hex takes 32 bytes for AES-KDF") }
            key = bytes
        } else {
            key = SHA256.hash(SHA256.hash(Array((args.value("password") ?? "password").utf8)))
        }
        try args.checkAllConsumed()
        var derived: [UInt8] = []
        Progress.say("AES-KDF \(rounds) rounds, \(runs) runs")
        let samples = try Timing.samples(runs: runs, warmUp: false) {
            derived = try AESKDF.transform(key: key, seed: seed, rounds: rounds)
        }
        let seconds = Timing.medianOf(samples)
        if showKey { print(derived.hexString) }
        var report = Report(title: "AES-KDF: \(rounds) rounds, median of \(runs) runs, \(Timing.clock.rawValue) time")
        var row = Measurement(name: "AES-KDF rounds per second [\(CryptoBackend.aes)]", readings: samples.map { Double(rounds) / $0 },
                              unit: "rounds/s", higherIsBetter: true)
        if compare {
            Progress.say("openssl speed aes-256-ecb, with and without AES-NI")
            if let speed = try ReferenceTools.opensslSpeedMedians("aes-256-ecb", masks: [.noAESNI], runs: min(runs, 3)) {
                // One AES-KDF round encrypts two 16-byte blocks. OpenSSL's ECB runs many blocks in
                // parallel, which AES-KDF's two serial chains cannot.
                row.setReference("OpenSSL aes-256-ecb, native, 32 bytes a round", readings: speed.native.map { $0 / 32 })
                let masked = Timing.medianOf(speed.masked[0]) / 32, native = Timing.medianOf(speed.native) / 32
                row.note = "vs OpenSSL AES-NI off: " + String(format: "%.0f rounds/s, %.2fx", masked, row.value / masked)
                    + (masked < 0.9 * native ? "" : " (MASK HAD NO EFFECT)")
            } else {
                report.missingTools.append("openssl not found")
            }
        }
        report.rows.append(row)
        report.extra["seconds"] = String(format: "%.4f", seconds)
        if !(showKey && !json && !compare) || json { report.print(json: json) }
    }
}
