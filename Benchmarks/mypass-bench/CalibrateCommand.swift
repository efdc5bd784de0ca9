import Foundation
import MyPassCrypto

/// `mypass-bench calibrate`: KeePass's "1 second delay" button. Finds the Argon2 iterations or
/// AES-KDF rounds that take the target time on this machine.
enum CalibrateCommand {
    static let usage = """
    USAGE: mypass-bench calibrate [argon2d|argon2id|aes] [--target SECONDS] [--memory SIZE] [--parallelism N] [--json]

      Argon2 (default argon2d): iterations for the given memory (default 64MiB) and parallelism (default 2).
      AES-KDF: rounds. The target defaults to 1 second. Calibration always times wall-clock time
      (the delay a user waits when opening), whatever --clock says. The report names the command
      that applies the result to a vault: mypass settings VAULT --kdf ... (or --unlock-time
      SECONDS, which calibrates and applies in one step).
    """

    static func run(_ args: inout BenchArguments) throws {
        let kind = args.positionals.dropFirst().first ?? "argon2d"
        let target = try args.double("target", default: 1.0)
        let json = args.flag("json")
        Timing.clock = .wall
        var report = Report(title: "calibrate \(kind) for \(target) s")
        switch kind {
        case "aes":
            try args.checkAllConsumed()
            let key = [UInt8](repeating: 1, count: 32), seed = [UInt8](repeating: 2, count: 32)
            var probe: UInt64 = 100_000
            var seconds = try Timing.seconds { _ = try AESKDF.transform(key: key, seed: seed, rounds: probe) }
            while seconds < 0.2 {  // grow the probe until it is long enough to time
                probe *= 4
                seconds = try Timing.seconds { _ = try AESKDF.transform(key: key, seed: seed, rounds: probe) }
            }
            let rounds = UInt64(Double(probe) * target / seconds)
            let check = try Timing.seconds { _ = try AESKDF.transform(key: key, seed: seed, rounds: rounds) }
            report.extra["rounds"] = String(rounds)
            report.extra["apply with"] = "mypass settings VAULT --kdf aes --rounds \(rounds)"
            report.rows.append(Measurement(name: "AES-KDF \(rounds) rounds", value: check, unit: "s", higherIsBetter: false))
        case "argon2d", "argon2id":
            let memoryBytes = try parseMemory(args.value("memory") ?? "64MiB")
            let parallelism: UInt32 = try args.integer("parallelism", default: 2)
            try args.checkAllConsumed()
            func time(_ iterations: UInt32) throws -> Double {
                let parameters = Argon2.Parameters(
                    variant: kind == "argon2d" ? .argon2d : .argon2id, version: 0x13,
                    memoryKiB: UInt32(memoryBytes / 1024), iterations: iterations, parallelism: parallelism,
                    salt: Array("calibration-salt".utf8))
                return try Timing.seconds {
                    _ = try Argon2.deriveKey(password: Array("password".utf8), parameters: parameters, memoryLimitBytes: 16 << 30)
                }
            }
            let one = try time(1), three = try time(3)
            let perIteration = max((three - one) / 2, 1e-6)
            let fixed = max(one - perIteration, 0)
            let iterations = UInt32(max(1, ((target - fixed) / perIteration).rounded()))
            let check = try time(iterations)
            report.extra["iterations"] = String(iterations)
            report.extra["memory"] = "\(memoryBytes) bytes"
            report.extra["parallelism"] = String(parallelism)
            report.extra["apply with"] = "mypass settings VAULT --kdf \(kind) --memory \(memoryBytes / 1024)KiB --iterations \(iterations) --parallelism \(parallelism)"
            report.rows.append(Measurement(name: "\(kind) \(iterations) iterations", value: check, unit: "s", higherIsBetter: false))
        default:
            throw BenchError.usage("calibrate takes argon2d, argon2id or aes")
        }
        report.print(json: json)
    }
}
