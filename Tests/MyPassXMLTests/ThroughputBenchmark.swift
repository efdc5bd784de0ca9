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

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    @Test("tokenizer MB/s vs xmllint --stream", .enabled(if: isEnabled))
    func throughput() throws {
        let document: [UInt8]
        if let path = ProcessInfo.processInfo.environment["MYPASS_XML_BENCH_FILE"] {
            document = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        } else {
            document = try Self.syntheticDocument(size: 5 << 20)
        }
        #expect(try events(bytes: document).count > 1000)
        let clock = ContinuousClock()
        var report = "XML benchmark: \(document.count) bytes\n"
        for skips in [false, true] {
            var times: [Double] = []
            for _ in 0..<9 {
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
                times.append(Self.seconds(elapsed))
            }
            let t = Self.median(times)
            report += "  XMLTokenizer(skipsWhitespaceText: \(skips)): median \(Int(t * 1e6)) us, \(Int(Double(document.count) / t / 1e6)) MB/s\n"
        }
        if let xmllint = InteropTools.executable(named: "xmllint") {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("mypass-xml-bench-\(UUID().uuidString).xml")
            try Data(document).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            var times: [Double] = []
            for _ in 0..<9 {
                let elapsed = try clock.measure {
                    let result = try runProcess(xmllint, ["--stream", "--noout", file.path])
                    #expect(result.status == 0)
                }
                times.append(Self.seconds(elapsed))
            }
            let t = Self.median(times)
            report += "  xmllint --stream --noout (whole process): median \(Int(t * 1e6)) us, \(Int(Double(document.count) / t / 1e6)) MB/s\n"
        } else {
            report += "  xmllint not found\n"
        }
        print(report)
    }
}
