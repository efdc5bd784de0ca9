import Foundation
import MyPassTestSupport
import MyPassXML
import Testing

/// Replays the inputs a libFuzzer run (ASan, 350,000 executions, no crash) kept for coverage,
/// checking the properties of `xmlPropertyViolations` (see XMLProperties.swift for the harness).
@Suite("XML: fuzz corpus replay")
struct FuzzCorpusTests {
    @Test("results do not depend on chunking; well-formed inputs survive write(read(x))")
    func replay() throws {
        let inputs = try TestVectors.text("xml/fuzz-corpus.b64").split(separator: "\n").map {
            [UInt8](try #require(Data(base64Encoded: String($0))))
        }
        #expect(inputs.count == 600)
        var wellFormed = 0
        for (n, bytes) in inputs.enumerated() {
            let problems = xmlPropertyViolations(bytes)
            #expect(problems.isEmpty, "input \(n): \(problems)")
            if tokenize([bytes[...]]).1 == nil { wellFormed += 1 }
        }
        #expect(wellFormed > 50)  // the corpus exercises both verdicts
        #expect(wellFormed < 550)
    }
}
