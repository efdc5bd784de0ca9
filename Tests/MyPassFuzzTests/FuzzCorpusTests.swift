import Foundation
import MyPassCLI
import MyPassFuzzing
import MyPassTestSupport
import Testing

/// Replays each libFuzzer harness's checked-in corpus (`Fuzz/corpus/NAME/`) through the harness
/// body the fuzz binary runs: no input may trap or break a harness property, and every input must
/// end as recorded in `Fuzz/corpus/NAME.outcomes` (read, or refused with that error type and
/// code). `MYPASS_FUZZ_RECORD=1` rewrites the outcome files after the corpus changed.
@Suite("Fuzz: every harness's corpus replayed")
struct FuzzCorpusTests {
    static let names = FuzzHarness.allCases.map(\.rawValue) + ["agent-frame", "ssh-agent-message"]
    static let corpus = TestVectors.repositoryRoot.appendingPathComponent("Fuzz/corpus")

    static func run(_ name: String, _ input: [UInt8]) -> String {
        if let harness = FuzzHarness(rawValue: name) { return harness.run(input).description }
        if name == "ssh-agent-message" { return SSHAgentFuzzing.run(input) }
        return AgentFrameFuzzing.run(input)
    }

    @Test("each input ends as recorded, never in a trap or a broken property", arguments: names)
    func replay(_ name: String) throws {
        let directory = Self.corpus.appendingPathComponent(name)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(files.count >= 9, "a corpus of a few dozen seeds")
        var lines: [String] = []
        for file in files {
            let input = [UInt8](try Data(contentsOf: directory.appendingPathComponent(file)))
            let outcome = Self.run(name, input)
            #expect(!outcome.hasPrefix("violated"), "\(name)/\(file): \(outcome)")
            lines.append("\(file) \(outcome)")
        }
        let manifest = Self.corpus.appendingPathComponent(name + ".outcomes")
        if ProcessInfo.processInfo.environment["MYPASS_FUZZ_RECORD"] == "1" {
            try (lines.joined(separator: "\n") + "\n").write(to: manifest, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: manifest, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == expected.count, "\(name): \(lines.count) inputs, \(expected.count) recorded outcomes")
        for (line, recorded) in zip(lines, expected) { #expect(line == recorded) }
        // The corpus exercises both verdicts.
        #expect(lines.contains { $0.hasSuffix(" accepted") }, "\(name): no input is read")
        #expect(lines.contains { $0.contains(" rejected ") }, "\(name): no input is refused")
    }

    @Test("a harness's refusal names the error type and code, never the input")
    func refusalsNameTheCode() {
        #expect(FuzzHarness.kdbxHeader.run(Array("not a vault".utf8)).description == "rejected KDBXError.unsupported")
        #expect(FuzzHarness.keyFile.run([]) == .rejected("KDBXError.invalidKeyFile"))
        #expect(AgentFrameFuzzing.run([6, 0, 0, 0, 0x47, 100, 0, 0, 0, 0x61]) == "rejected AgentError.protocolError")
        #expect(FuzzHarness.inflate.run([1, 0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) == .accepted)
    }
}
