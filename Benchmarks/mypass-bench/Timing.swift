import Foundation

/// Timing with medians, and process memory readings from /proc.
enum Timing {
    /// What a timing counts.
    enum Clock: String {
        /// CPU time of the whole process (all threads), user + system; for reference tools, the
        /// child's user + system time from `wait4`. Robust on a shared, busy machine.
        case cpu
        /// Wall-clock time; what a user waits, but inflated by other load on the machine.
        case wall
    }

    /// The clock in force, set once from `--clock` before any timing starts.
    nonisolated(unsafe) static var clock: Clock = .cpu

    /// Now on the clock in force, in seconds.
    static func now() -> Double {
        switch clock {
        case .wall:
            return Double(DispatchTime.now().uptimeNanoseconds) / 1e9
        case .cpu:
            var time = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
    }

    /// Seconds taken by `body` on the clock in force.
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = now()
        try body()
        return now() - start
    }

    /// The median of `runs` timings of `body` (after one warm-up when `warmUp`).
    static func median(runs: Int, warmUp: Bool = true, _ body: () throws -> Void) rethrows -> Double {
        medianOf(try samples(runs: runs, warmUp: warmUp, body))
    }

    /// The seconds of each of `runs` runs of `body` (after one warm-up when `warmUp`).
    static func samples(runs: Int, warmUp: Bool = true, _ body: () throws -> Void) rethrows -> [Double] {
        if warmUp { try body() }
        var samples: [Double] = []
        for _ in 0..<max(1, runs) { samples.append(try seconds(body)) }
        return samples
    }

    static func medianOf(_ samples: [Double]) -> Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Peak resident memory of this process so far (VmHWM), in bytes; `nil` where /proc is absent.
    static func peakResidentBytes() -> UInt64? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let kib = line.split(separator: " ").compactMap { UInt64($0) }.first
            return kib.map { $0 * 1024 }
        }
        return nil
    }

    /// Resets the peak-RSS counter (Linux: writing 5 to /proc/self/clear_refs), so a stage's peak can be read.
    static func resetPeak() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }
}

/// Progress on stderr, only when stderr is a terminal.
enum Progress {
    static let enabled = isatty(2) != 0
    static func say(_ text: String) {
        guard enabled else { return }
        FileHandle.standardError.write(Data(("… " + text + "\n").utf8))
    }
}
