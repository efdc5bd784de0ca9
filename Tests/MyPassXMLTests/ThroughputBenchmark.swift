import Foundation
import MyPassTestSupport
import MyPassXML
import Testing

/// A benchmark, not a test: runs only with `MYPASS_XML_BENCH=1` (use a release build:
/// `MYPASS_XML_BENCH=1 swift test -c release --filter ThroughputBenchmark`). It tokenizes a
/// ~5 MB KeePass-shaped document (rich-export.xml with its first subgroup repeated, or the file
/// named by `MYPASS_XML_BENCH_FILE`) fed in 64 KiB chunks, and runs `xmllint --stream --noout`
/// on the same bytes, printing both medians of 9 runs.
@Suite("XML: throughput benchmark (opt-in)")
struct ThroughputBenchmark {
    static var isEnabled: Bool { ProcessInfo.processInfo.environment["MYPASS_XML_BENCH"] == "1" }

    /// rich-export.xml with the subtree of its first nested group repeated up to about `size` bytes.
    static func syntheticDocument(size: Int) throws -> [UInt8] {
        let rich = try TestVectors.bytes("xml/rich-export.xml")
        let marker = Array("\n\t\t\t<Group>".utf8)
        let close = Array("\n\t\t\t</Group>".utf8)
        func find(_ needle: [UInt8], from: Int) -> Int {
            var i = from
            while i + needle.count <= rich.count {
                if rich[i..<(i + needle.count)].elementsEqual(needle) { return i }
                i += 1
            }
            return rich.count
        }
        let blockStart = find(marker, from: 0)
        let blockEnd = find(close, from: blockStart) + close.count
        let block = rich[blockStart..<blockEnd]
        var document = Array(rich[..<blockEnd])
        while document.count + (rich.count - blockEnd) < size { document += block }
        document += rich[blockEnd...]
        return document
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    /// CPU time of this thread, in seconds (wall time is meaningless on a loaded 2-core machine).
    static func threadCPUSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// User plus system CPU time of all waited-for child processes, in seconds.
    static func childrenCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    @Test("tokenizer MB/s vs xmllint --stream", .enabled(if: isEnabled))
    func throughput() throws {
        let document: [UInt8]
        if let path = ProcessInfo.processInfo.environment["MYPASS_XML_BENCH_FILE"], !path.isEmpty {
            document = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        } else {
            document = try Self.syntheticDocument(size: 5 << 20)
        }
        #expect(try events(bytes: document).count > 1000)
        let clock = ContinuousClock()
        var report = "XML benchmark: \(document.count) bytes\n"
        for skips in [false, true] {
            var times: [Double] = []
            var cpu: [Double] = []
            for _ in 0..<9 {
                let cpuStart = Self.threadCPUSeconds()
                let elapsed = try clock.measure {
                    var tokenizer = XMLTokenizer(skipsWhitespaceText: skips)
                    var offset = 0
                    var count = 0
                    while offset < document.count {
                        let end = min(document.count, offset + 65536)
                        tokenizer.feed(document[offset..<end])
                        while try tokenizer.next() != nil { count += 1 }
                        offset = end
                    }
                    tokenizer.finish()
                    while try tokenizer.next() != nil { count += 1 }
                    #expect(count > 0)
                }
                cpu.append(Self.threadCPUSeconds() - cpuStart)
                times.append(Self.seconds(elapsed))
            }
            let t = Self.median(times), c = Self.median(cpu)
            report += "  XMLTokenizer(skipsWhitespaceText: \(skips)): wall median \(Int(t * 1e6)) us = \(Int(Double(document.count) / t / 1e6)) MB/s;"
                + " CPU median \(Int(c * 1e6)) us = \(Int(Double(document.count) / c / 1e6)) MB/s\n"
        }
        if let xmllint = InteropTools.executable(named: "xmllint") {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("mypass-xml-bench-\(UUID().uuidString).xml")
            try Data(document).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            var times: [Double] = []
            var cpu: [Double] = []
            for _ in 0..<9 {
                let cpuStart = Self.childrenCPUSeconds()
                let elapsed = try clock.measure {
                    let result = try runProcess(xmllint, ["--stream", "--noout", file.path])
                    #expect(result.status == 0)
                }
                cpu.append(Self.childrenCPUSeconds() - cpuStart)
                times.append(Self.seconds(elapsed))
            }
            let t = Self.median(times), c = Self.median(cpu)
            report += "  xmllint --stream --noout (whole process): wall median \(Int(t * 1e6)) us = \(Int(Double(document.count) / t / 1e6)) MB/s;"
                + " CPU median \(Int(c * 1e6)) us = \(Int(Double(document.count) / c / 1e6)) MB/s\n"
        } else {
            report += "  xmllint not found\n"
        }
        print(report)
    }
}
