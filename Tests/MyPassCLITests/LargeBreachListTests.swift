import Foundation
import MyPassBytes
import MyPassCrypto
import MyPassTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A Pwned Passwords file of 1 GiB (23 million lines), made here, searched by `mypass analyze`
/// in a child process whose peak resident memory stays under 30 MB (measured by GNU time, whose
/// own few hundred KiB are all the child inherits).
@Suite("A 1 GiB HIBP list")
struct LargeBreachListTests {
    /// Writes a sorted `HASH:COUNT\r\n` list of at least `minimumBytes` to `path`: random hashes
    /// made in ascending order (the first 64 bits grow by random steps), with the SHA-1 of each
    /// `chosen` password merged in at its place. Returns the bytes and lines written.
    static func writeList(_ path: String, chosen: [String: Int64], minimumBytes: Int) throws -> (bytes: Int, lines: Int) {
        struct Key: Comparable {
            var high: UInt64, middle: UInt64, low: UInt32
            static func < (a: Key, b: Key) -> Bool { (a.high, a.middle, a.low) < (b.high, b.middle, b.low) }
        }
        func key(_ digest: [UInt8]) -> Key {
            func word(_ range: Range<Int>) -> UInt64 { digest[range].reduce(0) { $0 << 8 | UInt64($1) } }
            return Key(high: word(0..<8), middle: word(8..<16), low: UInt32(word(16..<20)))
        }
        let wanted = chosen.map { (key(SHA1.hash(Array($0.key.utf8))), $0.value) }.sorted { $0.0 < $1.0 }
        guard let file = fopen(path, "wb") else { throw CocoaError(.fileWriteUnknown) }
        defer { fclose(file) }
        var state: UInt64 = 0x30_1_6B
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let hex = Array("0123456789ABCDEF".utf8)
        let bufferSize = 8 << 20
        var buffer = [UInt8](repeating: 0, count: bufferSize)
        var used = 0, total = 0, lines = 0
        // About 46 bytes a line: steps sized so that the hashes end near 90% of the 64-bit space.
        let expectedLines = UInt64(minimumBytes / 46 + 1)
        let step = UInt64.max / (expectedLines + expectedLines / 9) * 2
        var current = Key(high: 0, middle: 0, low: 0)
        var nextChosen = 0
        func emit(_ key: Key, _ count: Int64) throws {
            if used > bufferSize - 128 {
                guard fwrite(buffer, 1, used, file) == used else { throw CocoaError(.fileWriteUnknown) }
                total += used
                used = 0
            }
            buffer.withUnsafeMutableBufferPointer { out in
                for shift in stride(from: 60, through: 0, by: -4) { out[used] = hex[Int((key.high >> UInt64(shift)) & 0xF)]; used += 1 }
                for shift in stride(from: 60, through: 0, by: -4) { out[used] = hex[Int((key.middle >> UInt64(shift)) & 0xF)]; used += 1 }
                for shift in stride(from: 28, through: 0, by: -4) { out[used] = hex[Int((key.low >> UInt32(shift)) & 0xF)]; used += 1 }
                out[used] = UInt8(ascii: ":")
                used += 1
                var width = 1, scale: Int64 = 10
                while count >= scale { width += 1; scale *= 10 }
                var value = count
                for position in stride(from: used + width - 1, through: used, by: -1) {
                    out[position] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
                used += width
                out[used] = 0x0D
                out[used + 1] = 0x0A
                used += 2
            }
            lines += 1
        }
        while total + used < minimumBytes {
            let (high, overflow) = current.high.addingReportingOverflow(1 + next() % step)
            guard !overflow else { break }
            current = Key(high: high, middle: next(), low: UInt32(truncatingIfNeeded: next()))
            while nextChosen < wanted.count, wanted[nextChosen].0 <= current {
                if wanted[nextChosen].0 < current { try emit(wanted[nextChosen].0, wanted[nextChosen].1) }
                nextChosen += 1
            }
            try emit(current, Int64(1 + next() % 999))
        }
        while nextChosen < wanted.count {
            try emit(wanted[nextChosen].0, wanted[nextChosen].1)
            nextChosen += 1
        }
        total += used
        guard fwrite(buffer, 1, used, file) == used else { throw CocoaError(.fileWriteUnknown) }
        return (total, lines)
    }

    #if os(Linux)
    @Test("mypass analyze finds the chosen passwords in a 1 GiB list with a peak RSS under 30 MB")
    func searchedInBoundedMemory() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            if let message = InteropTools.missing("/usr/bin/time (GNU time)", test: "searchedInBoundedMemory") {
                Issue.record(Comment(rawValue: message))
            }
            return
        }
        let scratch = try Scratch()
        let list = scratch.path("pwned-1gib.txt")
        defer { try? FileManager.default.removeItem(atPath: list) }
        let started = Date()
        let (bytes, lines) = try Self.writeList(list, chosen: HealthTestVault.breached, minimumBytes: 1 << 30)
        let written = Date().timeIntervalSince(started)
        #expect(bytes >= 1 << 30)
        let (vault, _) = try AnalyzeCommandTests.healthVault(scratch)
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/time"),
                                    ["-f", "peak-kib %M", CLI.binary.path, "analyze", vault, "--hibp", list, "--json",
                                     "--time", AnalyzeCommandTests.healthTime],
                                    stdin: Array(AnalyzeCommandTests.healthStdin.utf8), environment: SecurityCommandTests.environment)
        #expect(result.status == 6, "\(result.stderrText)")
        let peakLine = try #require(result.stderrText.split(separator: "\n").last { $0.hasPrefix("peak-kib ") })
        let peakBytes = try #require(Int(peakLine.dropFirst(9))) * 1024
        print("1 GiB list: \(bytes) bytes, \(lines) lines, written in \(String(format: "%.1f", written)) s; mypass analyze peak RSS \(peakBytes) bytes")
        #expect(peakBytes < 30_000_000, "peak RSS \(peakBytes) bytes")
        // The same findings as on the small list.
        let report = try #require(try parseJSON(result.stdoutText) as? [String: Any])
        let breached = (report["findings"] as? [[String: Any]] ?? []).filter { $0["problem"] as? String == "breached" }
            .map { "\(AnalyzeCommandTests.unescaped($0["path"] as? String ?? ""))\t\($0["breachCount"] as? Int ?? -1)" }.sorted()
        #expect(breached == [
            "Personal/Forum\t980123", "Personal/Long\t1", "Personal/Ünïcødé ✓\t3", "Work/Email\t1234", "Work/Jira\t2418984",
            "Work/Legacy\t980123", "Work/PIN\t5",
        ].sorted())
    }
    #endif
}
