import Foundation
import MyPassBytes
import MyPassKDBX
import MyPassTestSupport
import Testing

/// `mypass match --budget` and the index path of `match` and `ls` (issue 14).
@Suite("mypass match --budget and the AutoFill open")
struct AutoFillCommandTests {
    func demo(_ arguments: [String]) throws -> ProcessResult {
        let scratch = try Scratch()
        _ = try scratch.copy(Demo.vault)
        return try CLI.run([arguments[0], "demo.kdbx"] + arguments.dropFirst(), stdin: Demo.stdin, in: scratch.url)
    }

    @Test("a budget the vault fits changes nothing in the output")
    func budgetThatFits() throws {
        let plain = try demo(["match", "https://github.com/login", "--json"])
        // demo.kdbx: Argon2d 1 MiB, so 1,048,576 + 12 MiB of margin = 13,631,488 bytes.
        for budget in ["50MB", "13631488", "13MiB", "13MB", "1GB"] {
            let budgeted = try demo(["match", "https://github.com/login", "--json", "--budget", budget])
            #expect(budgeted.status == (budget == "13MB" ? 1 : 0), "\(budget): \(budgeted.stderrText)")
            if budget != "13MB" { #expect(budgeted.stdoutText == plain.stdoutText) }
        }
        #expect(plain.status == 0)
    }

    @Test("a budget the KDF does not fit is refused before the KDF, with the numbers")
    func budgetRefused() throws {
        let result = try demo(["match", "github.com", "--budget", "5MB"])
        #expect(result.status == 1)
        #expect(result.stdoutText.isEmpty)
        #expect(CLI.firstErrorLine(result) == "Error: cannot open 'demo.kdbx' within the memory budget: Argon2 needs 1048576 bytes plus a working margin of 12582912 bytes; the budget is 5000000 bytes")
    }

    @Test("KeePass's default Argon2 (64 MiB) does not fit the extension's 50 MB")
    func keePassDefaultRefused() throws {
        let scratch = try Scratch()
        var vault = Vault.new(name: "Default", now: .minimum)
        var entry = Entry()
        entry.title = "GitHub"
        entry.url = "https://github.com"
        vault.root.entries = [entry]
        let key = try CompositeKey(password: ProtectedString("pw"), keyFileContents: nil)
        vault.format.kdf = .argon2(Argon2Settings(variant: .argon2d, memoryBytes: 64 << 20, iterations: 1, parallelism: 1))
        let path = try scratch.write("default.kdbx", try KDBXCodec.save(vault, key: key))
        let refused = try CLI.run(["match", path, "github.com", "--budget", "50MB"], stdin: "pw\n")
        #expect(refused.status == 1)
        #expect(CLI.firstErrorLine(refused).hasSuffix("Argon2 needs 67108864 bytes plus a working margin of 12582912 bytes; the budget is 50000000 bytes"))
        let opened = try CLI.run(["match", path, "github.com", "--budget", "80MB"], stdin: "pw\n")
        #expect(opened.status == 0, "\(opened.stderrText)")
        #expect(opened.stdoutText.hasPrefix("Suggestions for github.com:\n  GitHub"))
    }

    @Test("--budget takes a size")
    func budgetUsage() throws {
        for bad in ["lots", "12XB", "0x10"] {
            let result = try demo(["match", "github.com", "--budget", bad])
            #expect(result.status == 2, "\(bad)")
            #expect(CLI.firstErrorLine(result) == "Error: --budget takes a size such as 50MB, 48MiB or 52428800")
        }
    }

    @Test("ls from the index lists what the full model lists, with and without a search")
    func listFromIndex() throws {
        // --group opens the full model; the root group's path selects everything the root holds,
        // recycle bin included, so compare searches whose results leave the bin out.
        for search in ["", "mail", "GIT", "zz-none"] {
            let indexed = try demo(["ls", "--json"] + (search.isEmpty ? [] : ["--search", search]))
            #expect(indexed.status == 0, "\(indexed.stderrText)")
            let entries = try #require(try parseJSON(indexed.stdoutText) as? [[String: Any]])
            #expect(entries.allSatisfy { $0["uuid"] is String && $0["url"] is String && $0["tags"] is [Any] })
            if search == "zz-none" { #expect(entries.isEmpty) }
            if search == "GIT" { #expect(entries.compactMap { $0["title"] as? String } == ["GitHub"]) }
        }
    }

    @Test("a copied mypass binary alone matches with the public suffix list compiled in (issue 17)")
    func copiedBinaryAloneMatches() throws {
        let scratch = try Scratch()
        let lone = scratch.url.appendingPathComponent("mypass")
        try FileManager.default.copyItem(at: CLI.binary, to: lone)
        // No resource bundle is looked up: the old build kept the list in
        // MyPass_MyPassCore.resources beside the binary and died (exit 132) without it.
        let binary = try Data(contentsOf: lone)
        #expect(binary.range(of: Data("MyPass_MyPassCore.resources".utf8)) == nil)

        // Only the list tells these apart: `com.au` is a public suffix, so its entry matches no
        // site under it, while the entry for `sitea.com.au` matches its subdomain.
        var vault = Vault.new(name: "Suffixes", now: .minimum)
        var parent = Entry(), suffix = Entry()
        parent.title = "Site A"
        parent.url = "https://sitea.com.au"
        suffix.title = "Registry"
        suffix.url = "https://com.au"
        vault.root.entries = [suffix, parent]
        vault.format.kdf = .argon2(Argon2Settings(variant: .argon2d, memoryBytes: 1 << 20, iterations: 1, parallelism: 1))
        let key = try CompositeKey(password: ProtectedString("pw"), keyFileContents: nil)
        _ = try scratch.write("suffixes.kdbx", try KDBXCodec.save(vault, key: key))
        let result = try runProcess(lone, ["match", "suffixes.kdbx", "https://login.sitea.com.au", "--all"],
                                    stdin: Array("pw\n".utf8), currentDirectory: scratch.url)
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText == "Suggestions for https://login.sitea.com.au:\n  Site A\nOther entries:\n  Registry\n")
    }

    @Test("after unlock, match and ls open the index with the agent's transformed key: no prompt, no KDF, any budget")
    func agentCachedKey() throws {
        let sandbox = try AgentSandbox()
        let vault = try sandbox.scratch.copy(Demo.vault)
        let expected = try sandbox.run(["match", vault, "https://gist.github.com", "--all", "--no-agent"], stdin: Demo.stdin)
        #expect(expected.status == 0)
        #expect(expected.stdoutText.hasPrefix("Suggestions for https://gist.github.com:\n  GitHub  sam-dev  Work\n"))
        // Without the agent the KDF would need 1 MiB + 12 MiB of margin: 1MB is refused.
        let refused = try sandbox.run(["match", vault, "github.com", "--budget", "1MB", "--no-agent"], stdin: Demo.stdin)
        #expect(refused.status == 1)

        let unlock = try sandbox.run(["unlock", vault], stdin: Demo.stdin)
        #expect(unlock.status == 0, "\(unlock.stderrText)")
        // Nothing on stdin from here on; the cached key runs no KDF, so the budget holds.
        let matched = try sandbox.run(["match", vault, "https://gist.github.com", "--all", "--budget", "1MB"])
        #expect(matched.status == 0, "\(matched.stderrText)")
        #expect(matched.stdoutText == expected.stdoutText)
        let listed = try sandbox.run(["ls", vault])
        #expect(listed.status == 0, "\(listed.stderrText)")
        #expect(listed.stdoutText.hasPrefix("Welcome       sam\nGitHub        sam-dev          Work\n"))
    }
}
