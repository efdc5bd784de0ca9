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
    /// Writes a sorted `HASH:COUNT\r\n` list of at least `minimumBytes` to `path`, with the SHA-1 of
    /// each `chosen` password at its place. Made fast, so that the test spends its time searching:
    /// a block of 4,096 lines with random hashes is written again and again with a new, growing
    /// 24-bit prefix (the first six hex digits); the other 34 digits of each line ascend within
    /// the block, so every line is unique and the file sorted. Returns the bytes and lines written.
    static func writeList(_ path: String, chosen: [String: Int64], minimumBytes: Int) throws -> (bytes: Int, lines: Int) {
        var state: UInt64 = 0x3016B
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let hex = Array("0123456789ABCDEF".utf8)
        func hexDigits(_ value: UInt64, _ count: Int) -> [UInt8] {
            (0..<count).map { hex[Int((value >> UInt64(4 * (count - 1 - $0))) & 0xF)] }
        }
        // The block: line i is PPPPPP (the block's prefix), then 6 digits i * 4096 + r (ascending),
        // then 28 random digits, a colon, a count of 1 to 999, CR LF.
        let perBlock = 4_096
        var block: [UInt8] = []
        var starts: [Int] = []
        for index in 0..<perBlock {
            starts.append(block.count)
            block += [UInt8](repeating: UInt8(ascii: "0"), count: 6)
            block += hexDigits(UInt64(index * 4_096) + next() % 4_096, 6)
            block += hexDigits(next(), 16) + hexDigits(next(), 12)
            block += Array(":\(1 + next() % 999)\r\n".utf8)
        }
        let blocks = (minimumBytes + block.count - 1) / block.count
        let step = UInt64(1 << 24) / UInt64(blocks)
        precondition(step >= 2, "too many blocks for a 24-bit prefix")
        // The chosen lines by prefix, in order.
        let wanted = chosen.map { (text: Array(hexString(SHA1.hash(Array($0.key.utf8))).uppercased().utf8), count: $0.value) }
            .sorted { $0.text.lexicographicallyPrecedes($1.text) }
        func prefix(_ text: [UInt8]) -> UInt64 { UInt64(text[0..<6].reduce(0) { $0 << 4 | Int(hex.firstIndex(of: $1)!) }) }
        guard let file = fopen(path, "wb") else { throw CocoaError(.fileWriteUnknown) }
        defer { fclose(file) }
        var total = 0, lines = 0, nextWanted = 0
        func write(_ bytes: ArraySlice<UInt8>) throws {
            guard bytes.isEmpty || bytes.withUnsafeBytes({ fwrite($0.baseAddress, 1, $0.count, file) }) == bytes.count else {
                throw CocoaError(.fileWriteUnknown)
            }
            total += bytes.count
        }
        func writeWanted(_ item: (text: [UInt8], count: Int64)) throws {
            try write((item.text + Array(":\(item.count)\r\n".utf8))[...])
            lines += 1
        }
        for index in 0..<blocks {
            let blockPrefix = UInt64(index) * step + 1 + next() % (step - 1)
            let digits = hexDigits(blockPrefix, 6)
            for start in starts { block.replaceSubrange(start..<start + 6, with: digits) }
            // Chosen hashes below this block's prefix go before it; those with its prefix, inside.
            while nextWanted < wanted.count, prefix(wanted[nextWanted].text) < blockPrefix {
                try writeWanted(wanted[nextWanted])
                nextWanted += 1
            }
            var from = 0
            while nextWanted < wanted.count, prefix(wanted[nextWanted].text) == blockPrefix {
                let text = wanted[nextWanted].text
                let at = starts.firstIndex { !block[$0..<$0 + 40].lexicographicallyPrecedes(text) } ?? perBlock
                let offset = at < perBlock ? starts[at] : block.count
                try write(block[from..<offset])
                try writeWanted(wanted[nextWanted])
                from = offset
                nextWanted += 1
            }
            try write(block[from...])
            lines += perBlock
        }
        while nextWanted < wanted.count {
            try writeWanted(wanted[nextWanted])
            nextWanted += 1
        }
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
