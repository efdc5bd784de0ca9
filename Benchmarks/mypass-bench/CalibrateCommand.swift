import Foundation
import MyPassCore
import MyPassKDBX

/// `mypass-bench calibrate`: KeePass's "1 second delay" button. Finds the Argon2 iterations or
/// AES-KDF rounds that take the target time on this machine, with MyPassCore's rule.
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
        // The rule is MyPassCore's (`KDFCalibration`), the one `mypass create --unlock-time` applies.
        let settings: KDFSettings
        switch kind {
        case "aes":
            try args.checkAllConsumed()
            settings = .aes(rounds: 1)
        case "argon2d", "argon2id":
            let memoryBytes = try parseMemory(args.value("memory") ?? "64MiB")
            let parallelism: UInt32 = try args.integer("parallelism", default: 2)
            try args.checkAllConsumed()
            settings = .argon2(Argon2Settings(variant: kind == "argon2d" ? .argon2d : .argon2id, memoryBytes: memoryBytes,
                                              iterations: 1, parallelism: parallelism))
        default:
            throw BenchError.usage("calibrate takes argon2d, argon2id or aes")
        }
        let calibrated = try KDFCalibration.calibrate(settings, targetSeconds: target)
        let check = try KDFCalibration.measure(calibrated)
        switch calibrated {
        case .aes(let rounds):
            report.extra["rounds"] = String(rounds)
            report.extra["apply with"] = "mypass settings VAULT --kdf aes --rounds \(rounds)"
            report.rows.append(Measurement(name: "AES-KDF \(rounds) rounds", value: check, unit: "s", higherIsBetter: false))
        case .argon2(let argon2):
            report.extra["iterations"] = String(argon2.iterations)
            report.extra["memory"] = "\(argon2.memoryBytes) bytes"
            report.extra["parallelism"] = String(argon2.parallelism)
            report.extra["apply with"] = "mypass settings VAULT --kdf \(kind) --memory \(argon2.memoryBytes / 1024)KiB --iterations \(argon2.iterations) --parallelism \(argon2.parallelism)"
            report.rows.append(Measurement(name: "\(kind) \(argon2.iterations) iterations", value: check, unit: "s", higherIsBetter: false))
        }
        report.print(json: json)
    }
}
