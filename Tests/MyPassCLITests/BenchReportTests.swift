import Foundation
import MyPassTestSupport
import Testing

/// `mypass-bench`'s reports (issue 19): every figure with min, median and max; no ratio between
/// a figure without the KDF and a reference with it; open + save through the CLI's own path;
/// `help kdf`; one-line errors; calibrate naming the command that applies it.
@Suite("mypass-bench reports")
struct BenchReportTests {
    static var binary: URL { BenchShowKeyTests.binary }

    func bench(_ arguments: [String], stdin: String = "") throws -> ProcessResult {
        try runProcess(Self.binary, arguments, stdin: Array(stdin.utf8))
    }

    func rows(_ result: ProcessResult) throws -> [[String: Any]] {
        let object = try #require(try parseJSON(result.stdoutText) as? [String: Any])
        return try #require(object["results"] as? [[String: Any]])
    }

    @Test("open: every timing has min <= median <= max; the no-KDF row has no reference")
    func openRows() throws {
        let scratch = try Scratch()
        let vault = try scratch.copy(Demo.vault)
        let compare = InteropTools.executable(named: "keepassxc-cli") != nil
        if !compare, let message = InteropTools.missing("keepassxc-cli", test: "mypass-bench open --compare") {
            Issue.record(Comment(rawValue: message))
        }
        let result = try bench(["open", vault, "--runs", "3", "--json"] + (compare ? ["--compare"] : []), stdin: Demo.stdin)
        #expect(result.status == 0, "\(result.stderrText)")
        let rows = try rows(result)
        let names = rows.compactMap { $0["name"] as? String }
        #expect(names.contains("open after the KDF (streamed, KDBXCodec.open's path; no KDF)"))
        #expect(names.contains("open + save of a copy in process, as mypass edit (VaultDocument: 2 KDF runs)"))
        for row in rows where (row["unit"] as? String) == "s" {
            let value = try #require(row["value"] as? Double)
            let low = try #require(row["min"] as? Double, "\(row["name"] ?? "")")
            let high = try #require(row["max"] as? Double)
            #expect(low <= value && value <= high, "\(row)")
            if let reference = row["reference"] as? [String: Any] {
                let referenceValue = try #require(reference["value"] as? Double)
                #expect((reference["min"] as? Double ?? .infinity) <= referenceValue)
                #expect((reference["max"] as? Double ?? -.infinity) >= referenceValue)
            }
        }
        let afterKDF = try #require(rows.first { ($0["name"] as? String)?.contains("no KDF") == true })
        #expect(afterKDF["reference"] == nil && afterKDF["ratio"] == nil)
        if compare {
            let whole = try #require(rows.first { ($0["name"] as? String)?.hasPrefix("whole open in process with the KDF") == true })
            #expect((whole["reference"] as? [String: Any])?["tool"] as? String == "keepassxc-cli ls -R, whole process")
        }
        // The original is untouched: open + save ran on copies.
        #expect(try Data(contentsOf: URL(fileURLWithPath: vault)) == (try Data(contentsOf: TestVectors.url(Demo.vault))))
        let table = try bench(["open", vault, "--runs", "2"], stdin: Demo.stdin).stdoutText
        #expect(table.contains("mypass: median [min, max]"))
        #expect(!table.contains("76.71x"))
    }

    @Test("help kdf is kdf --help; an unknown topic is a usage error")
    func helpTopics() throws {
        let viaHelp = try bench(["help", "kdf"])
        #expect(viaHelp.status == 0)
        #expect(viaHelp.stdoutText == (try bench(["kdf", "--help"])).stdoutText)
        #expect(viaHelp.stdoutText.hasPrefix("USAGE: mypass-bench kdf"))
        #expect(try bench(["help", "frobnicate"]).status == 2)
    }

    @Test("a missing file is one line")
    func missingFile() throws {
        let result = try bench(["open", "/nonexistent/vault.kdbx", "--no-password"])
        #expect(result.status == 1)
        #expect(result.stderrText == "mypass-bench: cannot read vault '/nonexistent/vault.kdbx': no such file\n")
    }

    @Test("calibrate names the command that applies its result")
    func calibrateApply() throws {
        let result = try bench(["calibrate", "aes", "--target", "0.05", "--json"])
        #expect(result.status == 0, "\(result.stderrText)")
        let object = try #require(try parseJSON(result.stdoutText) as? [String: Any])
        let info = try #require(object["info"] as? [String: String])
        let rounds = try #require(info["rounds"])
        #expect(info["apply with"] == "mypass settings VAULT --kdf aes --rounds \(rounds)")
    }

    @Test("kdf aes: rounds per second with min and max")
    func kdfSpread() throws {
        let result = try bench(["kdf", "aes", "--rounds", "20000", "--runs", "3", "--json"])
        #expect(result.status == 0, "\(result.stderrText)")
        let row = try #require(try rows(result).first)
        let value = try #require(row["value"] as? Double)
        #expect((row["min"] as? Double ?? .infinity) <= value && value <= (row["max"] as? Double ?? 0))
    }
}
