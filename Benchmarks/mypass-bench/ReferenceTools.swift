import Foundation

/// Runs the reference tools found on this machine side by side with our code.
enum ReferenceTools {
    /// The unit of `rusage.ru_maxrss`: bytes on Apple platforms, KiB on Linux (getrusage(2)).
    #if canImport(Darwin)
    static let maxRSSUnitBytes: UInt64 = 1
    #else
    static let maxRSSUnitBytes: UInt64 = 1024
    #endif

    /// The full path of an executable on PATH.
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = String(directory) + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Wall time from spawn to exit.
        var seconds: Double
        /// User + system CPU time of the process.
        var cpuSeconds: Double
        /// ``seconds`` or ``cpuSeconds``, following ``Timing/clock``.
        var measuredSeconds: Double { Timing.clock == .cpu ? cpuSeconds : seconds }
        /// Peak resident memory of the process (wait4's ru_maxrss), in bytes.
        var peakResidentBytes: UInt64
    }

    /// Runs a tool to completion with `input` on stdin and returns its output, wall time and peak
    /// memory. stdin, stdout and stderr go through temporary files (no pipe, so no deadlock and no
    /// reader thread), and `wait4` gives this one child's resource usage.
    static func run(_ executable: String, _ arguments: [String], input: [UInt8] = [],
                    environment: [String: String] = [:], unsetting: Set<String> = []) throws -> Output {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("mypass-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let inPath = scratch.appendingPathComponent("in").path
        let outPath = scratch.appendingPathComponent("out").path
        let errPath = scratch.appendingPathComponent("err").path
        try Data(input).write(to: URL(fileURLWithPath: inPath))

        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        for key in unsetting { env[key] = nil }
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }

        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?   // an opaque pointer on Apple platforms
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        var pid: pid_t = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else { throw BenchError.failure("cannot start \(executable): error \(spawned)") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchError.failure("wait4 failed for \(executable)") }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        // Exit code when the child exited normally (WIFEXITED), else 128 + signal like a shell.
        let exitStatus: Int32 = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let out = (try? Data(contentsOf: URL(fileURLWithPath: outPath))) ?? Data()
        let err = (try? Data(contentsOf: URL(fileURLWithPath: errPath))) ?? Data()
        return Output(status: exitStatus, stdout: String(decoding: out, as: UTF8.self),
                      stderr: String(decoding: err, as: UTF8.self), seconds: seconds,
                      cpuSeconds: Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
                        + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6,
                      peakResidentBytes: UInt64(max(usage.ru_maxrss, 0)) * ReferenceTools.maxRSSUnitBytes)
    }

    /// Median time (on ``Timing/clock``) of `runs` runs of a tool, every run's time, and the largest peak memory.
    static func median(runs: Int, _ executable: String, _ arguments: [String], input: [UInt8] = [],
                       environment: [String: String] = [:]) throws
        -> (seconds: Double, peakResidentBytes: UInt64, samples: [Double]) {
        var samples: [Double] = []
        var peak: UInt64 = 0
        for _ in 0..<max(1, runs) {
            let output = try run(executable, arguments, input: input, environment: environment)
            guard output.status == 0 else {
                throw BenchError.failure("\(executable) failed: \(output.stderr.prefix(200))")
            }
            samples.append(output.measuredSeconds)
            peak = max(peak, output.peakResidentBytes)
        }
        return (Timing.medianOf(samples), peak, samples)
    }

    /// Median time (on ``Timing/clock``) of `runs` runs of a tool.
    static func medianSeconds(runs: Int, _ executable: String, _ arguments: [String], input: [UInt8] = [],
                              environment: [String: String] = [:]) throws -> Double {
        try median(runs: runs, executable, arguments, input: input, environment: environment).seconds
    }

    /// OpenSSL capability masks (OPENSSL_ia32cap: first word CPUID.1 EDX|ECX<<32, second word
    /// CPUID.7 EBX|ECX<<32) that switch hardware paths off. An empty variable would mean "no
    /// capabilities at all", so `.native` leaves it unset.
    enum OpenSSLMask: String {
        /// No mask: whatever the CPU offers.
        case native = ""
        /// AES-NI (leaf 1 ECX bit 25) and PCLMULQDQ (bit 1) off: OpenSSL's software AES (vpaes).
        case noAESNI = "~0x200000200000000"
        /// SHA extensions off (leaf 7 EBX bit 29); AVX2 stays.
        case noSHA = ":~0x20000000"
        /// AVX (leaf 1 ECX bit 28) and every leaf-7 EBX extension (AVX2, AVX-512, SHA) off: the SSSE3 paths.
        case noAVX = "~0x1000000000000000:~0xffffffff"

        var label: String {
            switch self {
            case .native: return "native"
            case .noAESNI: return "AES-NI off"
            case .noSHA: return "SHA-NI off"
            case .noAVX: return "AVX/AVX2/AVX-512/SHA-NI off"
            }
        }
    }

    /// Throughput in bytes per second that `openssl speed` reports for `algorithm` on 16 KiB
    /// buffers (CPU time, or wall time with `-elapsed` when ``Timing/clock`` is `.wall`).
    static func opensslSpeed(_ algorithm: String, mask: OpenSSLMask, decrypt: Bool = false, seconds: Int = 1) throws -> Double? {
        guard let openssl = find("openssl") else { return nil }
        var environment: [String: String] = [:]
        if mask != .native { environment["OPENSSL_ia32cap"] = mask.rawValue }
        var arguments = ["speed", "-seconds", String(seconds), "-bytes", "16384", "-evp", algorithm]
        if Timing.clock == .wall { arguments.insert("-elapsed", at: 1) }
        if decrypt { arguments.insert("-decrypt", at: 1) }
        let output = try run(openssl, arguments, environment: environment,
                             unsetting: mask == .native ? ["OPENSSL_ia32cap"] : [])
        // The last line is "<name>   <k-bytes-per-second>k".
        guard let last = output.stdout.split(separator: "\n").last,
              let field = last.split(separator: " ").last, field.hasSuffix("k"),
              let kilobytes = Double(field.dropLast())
        else { return nil }
        return kilobytes * 1000
    }

    /// Every reading of `runs` rounds of `openssl speed`, each round running OpenSSL as users have
    /// it (unmasked) and then under each of `masks`, so that load falls on all alike. `nil`
    /// without openssl.
    static func opensslSpeedMedians(_ algorithm: String, masks: [OpenSSLMask], decrypt: Bool = false, runs: Int) throws
        -> (native: [Double], masked: [[Double]])? {
        var native: [Double] = [], masked = [[Double]](repeating: [], count: masks.count)
        for _ in 0..<max(1, runs) {
            guard let value = try opensslSpeed(algorithm, mask: .native, decrypt: decrypt) else { return nil }
            native.append(value)
            for (index, mask) in masks.enumerated() {
                guard let value = try opensslSpeed(algorithm, mask: mask, decrypt: decrypt) else { return nil }
                masked[index].append(value)
            }
        }
        return (native, masked)
    }

    /// The throughput (bytes/s) of each of `runs` runs of Python's zlib over `data`: compress at
    /// `level`, or decompress. `nil` without python3.
    static func pythonZlib(_ data: [UInt8], decompress: Bool, level: Int = 6, runs: Int) throws -> [Double]? {
        guard let python = find("python3") else { return nil }
        let script = """
        import sys, time, zlib
        data = sys.stdin.buffer.read()
        runs = \(runs)
        clock = time.\(Timing.clock == .cpu ? "process_time" : "perf_counter")
        if \(decompress ? "True" : "False"):
            work = lambda: zlib.decompress(data, 31)
        else:
            work = lambda: zlib.compress(data, \(level))
        work()
        samples = []
        for _ in range(runs):
            t = clock(); out = work(); samples.append(clock() - t)
        size = len(out) if \(decompress ? "True" : "False") else len(data)
        print(" ".join(str(size / s) for s in samples))
        """
        let output = try run(python, ["-c", script], input: data)
        let readings = output.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Double($0) }
        return readings.isEmpty ? nil : readings
    }
}
