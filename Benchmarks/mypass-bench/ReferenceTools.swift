import Foundation

/// Runs the reference tools found on this machine side by side with our code.
enum ReferenceTools {
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
        var seconds: Double
    }

    /// Runs a tool to completion with `input` on stdin and returns its output and wall time.
    static func run(_ executable: String, _ arguments: [String], input: [UInt8] = [],
                    environment: [String: String] = [:]) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("mypass-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let inURL = scratch.appendingPathComponent("in"), errURL = scratch.appendingPathComponent("err")
        try Data(input).write(to: inURL)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let inHandle = try FileHandle(forReadingFrom: inURL), errHandle = try FileHandle(forWritingTo: errURL)
        defer { try? inHandle.close(); try? errHandle.close() }
        let outPipe = Pipe()
        process.standardInput = inHandle
        process.standardOutput = outPipe
        process.standardError = errHandle
        let start = DispatchTime.now().uptimeNanoseconds
        try process.run()
        let out = outPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let err = (try? Data(contentsOf: errURL)) ?? Data()
        return Output(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                      stderr: String(decoding: err, as: UTF8.self), seconds: seconds)
    }

    /// Median wall time of `runs` runs of a tool.
    static func medianSeconds(runs: Int, _ executable: String, _ arguments: [String], input: [UInt8] = [],
                              environment: [String: String] = [:]) throws -> Double {
        var samples: [Double] = []
        for _ in 0..<max(1, runs) {
            let output = try run(executable, arguments, input: input, environment: environment)
            guard output.status == 0 else {
                throw BenchError.failure("\(executable) failed: \(output.stderr.prefix(200))")
            }
            samples.append(output.seconds)
        }
        return Timing.medianOf(samples)
    }

    /// OpenSSL capability masks (OPENSSL_ia32cap) that switch hardware paths off.
    enum OpenSSLMask: String {
        /// No mask: whatever the CPU offers.
        case native = ""
        /// AES-NI and PCLMULQDQ off: OpenSSL's software AES (vpaes).
        case noAESNI = "~0x200000200000000"
        /// SHA extensions off (CPUID leaf 7 EBX bit 29).
        case noSHA = ":~0x20000000"
        /// AVX (leaf 1 ECX bit 28) and every leaf-7 extension (AVX2, AVX-512) off: the SSSE3 paths.
        case noAVX = "~0x1000000000000000:~0xffffffff"
    }

    /// Throughput in bytes per second that `openssl speed` reports for `algorithm` on 16 KiB buffers.
    static func opensslSpeed(_ algorithm: String, mask: OpenSSLMask, seconds: Int = 1) throws -> Double? {
        guard let openssl = find("openssl") else { return nil }
        var environment: [String: String] = [:]
        if mask != .native { environment["OPENSSL_ia32cap"] = mask.rawValue }
        let output = try run(openssl, ["speed", "-elapsed", "-seconds", String(seconds), "-bytes", "16384", "-evp", algorithm],
                             environment: environment)
        // The last line is "<name>   <k-bytes-per-second>k".
        guard let last = output.stdout.split(separator: "\n").last,
              let field = last.split(separator: " ").last, field.hasSuffix("k"),
              let kilobytes = Double(field.dropLast())
        else { return nil }
        return kilobytes * 1000
    }

    /// Median throughput (bytes/s) of Python's zlib over `data`: compress at `level`, or decompress.
    static func pythonZlib(_ data: [UInt8], decompress: Bool, level: Int = 6, runs: Int) throws -> Double? {
        guard let python = find("python3") else { return nil }
        let script = """
        import sys, time, zlib
        data = sys.stdin.buffer.read()
        runs = \(runs)
        if \(decompress ? "True" : "False"):
            work = lambda: zlib.decompress(data, 31)
        else:
            work = lambda: zlib.compress(data, \(level))
        work()
        samples = []
        for _ in range(runs):
            t = time.perf_counter(); out = work(); samples.append(time.perf_counter() - t)
        samples.sort()
        size = len(out) if \(decompress ? "True" : "False") else len(data)
        print(size / samples[len(samples) // 2])
        """
        let output = try run(python, ["-c", script], input: data)
        return Double(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
