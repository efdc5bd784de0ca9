import Foundation
import MyPassTestSupport
import Testing

/// The commands that only read: info, ls, groups, show, totp, match, export, generate; on the
/// demo vault (expected outputs in `Vectors/cli/`) and on the KeePass fixtures.
@Suite("mypass reading commands")
struct ReadCommandTests {
    /// Runs `mypass ARGS` on a copy of the demo vault named `demo.kdbx` in a scratch directory
    /// (the working directory, so outputs that show the path are stable).
    func demo(_ arguments: [String], stdin: String = Demo.stdin) throws -> ProcessResult {
        let scratch = try Scratch()
        _ = try scratch.copy(Demo.vault)
        var words = arguments
        words.insert("demo.kdbx", at: min(words.count, words.first == "attachment" ? 2 : 1))
        return try CLI.run(words, stdin: stdin, in: scratch.url)
    }

    struct Golden: CustomStringConvertible, Sendable {
        var arguments: [String]
        var expected: String
        var description: String { arguments.joined(separator: " ") }
    }

    static let goldens: [Golden] = [
        Golden(arguments: ["info"], expected: "demo-info.txt"),
        Golden(arguments: ["ls"], expected: "demo-ls.txt"),
        Golden(arguments: ["ls", "--json"], expected: "demo-ls.json"),
        Golden(arguments: ["groups"], expected: "demo-groups.txt"),
        Golden(arguments: ["show", "Work/GitHub", "--time", "59"], expected: "demo-show-github.txt"),
        Golden(arguments: ["show", "e0000000000040008000000000000002", "--time", "59"], expected: "demo-show-github.txt"),
        Golden(arguments: ["show", "Work/GitHub", "--time", "59", "--reveal"], expected: "demo-show-github-reveal.txt"),
        Golden(arguments: ["show", "Work/GitHub", "--time", "59", "--json"], expected: "demo-show-github.json"),
        Golden(arguments: ["show", "Personal/Example Bank"], expected: "demo-show-bank.txt"),
        Golden(arguments: ["match", "github.com"], expected: "demo-match-github.txt"),
        Golden(arguments: ["match", "https://github.com/login", "--json"], expected: "demo-match-github.json"),
        Golden(arguments: ["match", "https://github.com/login", "--json", "--all"], expected: "demo-match-github-all.json"),
    ]

    @Test("outputs on the demo vault equal the expected files", arguments: goldens)
    func golden(_ golden: Golden) throws {
        let result = try demo(golden.arguments)
        #expect(result.status == 0, "\(result.stderrText)")
        let expected = try TestVectors.text("cli/" + golden.expected)
        if golden.expected.hasSuffix(".json") {
            let differences = manifestDifferences(expected: try parseJSON(expected), actual: try parseJSON(result.stdoutText))
            #expect(differences.isEmpty, "\(differences)")
            #expect(result.stdoutText == expected)
        } else {
            #expect(result.stdoutText == expected)
        }
    }

    @Test("ls --group and --search narrow to their intersection")
    func filters() throws {
        func titles(_ arguments: [String]) throws -> [String] {
            let result = try demo(["ls", "--json"] + arguments)
            #expect(result.status == 0, "\(result.stderrText)")
            let items = try #require(try parseJSON(result.stdoutText) as? [[String: Any]])
            return items.compactMap { $0["title"] as? String }
        }
        #expect(try titles([]) == ["Welcome", "GitHub", "Jira", "Company Mail", "Example Bank", "Home Wi-Fi", "Dropbox"])
        #expect(try titles(["--group", "Work"]) == ["GitHub", "Jira", "Company Mail"])
        #expect(try titles(["--group", "Work/Email"]) == ["Company Mail"])
        #expect(try titles(["--group", "/"]).count == 7)
        // Search covers title, user name, URL and tags, ignoring case.
        #expect(try titles(["--search", "EXAMPLE"]) == ["Jira", "Company Mail", "Example Bank", "Dropbox"])
        #expect(try titles(["--search", "2fa"]) == ["GitHub"])
        #expect(try titles(["--search", "example", "--group", "Work"]) == ["Jira", "Company Mail"])
        #expect(try titles(["--search", "nothing like this"]) == [])
    }

    @Test("ls --group of a missing group is a one-line error")
    func missingGroup() throws {
        let result = try demo(["ls", "--group", "Nope"])
        #expect(result.status == 1)
        #expect(result.stderrText == "Error: no group 'Nope'\n")
    }

    @Test("show --field prints one value alone, protected ones included")
    func showField() throws {
        let password = try demo(["show", "Work/GitHub", "--field", "Password"])
        #expect(password.stdoutText == "gh-Xq8!vR2#mT5pL\n")
        let custom = try demo(["show", "Work/GitHub", "--field", "Tokens"])
        #expect(custom.stdoutText == "ghp_demoTokenNotReal0000000000000000\n")
        let missing = try demo(["show", "Work/GitHub", "--field", "Nope"])
        #expect(missing.status == 1)
        #expect(missing.stderrText == "Error: entry 'Work/GitHub' has no field 'Nope'; its fields: 'Title', 'UserName', 'Password', 'URL', 'Notes', 'otp', 'Tokens'\n")
        #expect(missing.stdout.isEmpty)
    }

    @Test("show without --reveal never prints a protected value")
    func hidden() throws {
        let result = try demo(["show", "Work/GitHub"])
        #expect(result.status == 0)
        for secret in ["gh-Xq8!vR2#mT5pL", "ghp_demoTokenNotReal", "JBSWY3DPEHPK3PXP"] {
            #expect(!result.stdoutText.contains(secret))
            #expect(!result.stderrText.contains(secret))
        }
    }

    @Test("an unknown entry and an unknown UUID are one-line errors")
    func unknownEntry() throws {
        let byPath = try demo(["show", "Work/Nope"])
        #expect(byPath.status == 1)
        #expect(byPath.stderrText == "Error: no entry 'Work/Nope'\n")
        let byUUID = try demo(["show", "ffffffffffffffffffffffffffffffff"])
        #expect(byUUID.status == 1)
        #expect(byUUID.stderrText == "Error: no entry 'ffffffffffffffffffffffffffffffff'\n")
    }

    @Test("an ambiguous path lists the candidates")
    func ambiguous() throws {
        // add refuses to make a second Work/GitHub (issue 19); KeePass made this vault with two.
        let scratch = try Scratch()
        let vault = try scratch.copy("cli/paths.kdbx")
        let uuid = "e0000000000040008000000000000008"
        let result = try CLI.run(["show", vault, "Work/GitHub"], stdin: Demo.stdin)
        #expect(result.status == 1)
        #expect(result.stderrText == "Error: 'Work/GitHub' names 2 entries; use a UUID: e0000000000040008000000000000002 "
            + "(user name 'sam-dev', modified 2026-01-15T09:30:00Z), \(uuid) (user name 'sam-ops', modified 2026-02-01T08:00:00Z)\n")
        let byUUID = try CLI.run(["show", vault, uuid, "--field", "UserName"], stdin: Demo.stdin)
        #expect(byUUID.stdoutText == "sam-ops\n")
    }

    @Test("totp: the code alone on stdout, the seconds left on stderr (RFC 6238 secret, independent HMAC)")
    func totp() throws {
        // Codes for secret JBSWY3DPEHPK3PXP (SHA-1, 6 digits, 30 s), computed with Python's hmac.
        for (time, code, left) in [(59, "996554", 1), (1_111_111_109, "071271", 1), (2_000_000_000, "890699", 10)] {
            let result = try demo(["totp", "Work/GitHub", "--time", String(time)])
            #expect(result.status == 0, "\(result.stderrText)")
            #expect(result.stdoutText == code + "\n")
            #expect(result.stderrText == "\(left) s left\n")
        }
        let none = try demo(["totp", "Work/Jira"])
        #expect(none.status == 1)
        #expect(none.stderrText == "Error: entry 'Work/Jira' has no TOTP\n")
    }

    @Test("totp reads KeePass's TimeOtp-* fields: SHA-256, 8 digits, 60 s period honoured")
    func totpKeePassFields() throws {
        let fixture = Fixture.named("kdbx4-aes-argon2d")
        let scratch = try Scratch()
        let vault = try scratch.copy(fixture.vaultPath)
        // TimeOtp-Secret-Base32 GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ ("12345678901234567890"),
        // HMAC-SHA-256, 8 digits, 60 s; codes computed with Python's hmac.
        for (time, code, left) in [(59, "74875740", 1), (1_111_111_109, "69648066", 31)] {
            let result = try CLI.run(
                ["totp", vault, "Personal/Banking/Cards & \"Stuff\" <x>/Visa", "--time", String(time)], stdin: fixture.stdin)
            #expect(result.status == 0, "\(result.stderrText)")
            #expect(result.stdoutText == code + "\n")
            #expect(result.stderrText == "\(left) s left\n")
        }
    }

    @Test("match suggests by host: exact, subdomain; never another registrable domain")
    func match() throws {
        func suggestions(_ service: String) throws -> [String] {
            let result = try demo(["match", service, "--json", "--all"])
            #expect(result.status == 0 || result.status == 5, "\(result.stderrText)")
            let object = try #require(try parseJSON(result.stdoutText) as? [String: Any])
            let suggested = try #require(object["suggestions"] as? [[String: Any]])
            let others = try #require(object["others"] as? [[String: Any]])
            #expect(suggested.count + others.count == 7)
            return suggested.compactMap { $0["title"] as? String }
        }
        #expect(try suggestions("github.com") == ["GitHub"])
        #expect(try suggestions("https://gist.github.com/") == ["GitHub"])
        #expect(try suggestions("https://www.dropbox.com/home") == ["Dropbox"])
        // A parent-domain service does not match an entry for one of its subdomains.
        #expect(try suggestions("dropbox.com") == [])
        #expect(try suggestions("box.com") == [])
        #expect(try suggestions("example.com") == [])
        #expect(try suggestions("mail.example.com") == ["Company Mail"])
    }

    @Test("export --format json of the demo vault equals KeePass's own manifest")
    func exportDemo() throws {
        let result = try demo(["export", "--format", "json"])
        #expect(result.status == 0, "\(result.stderrText)")
        let differences = manifestDifferences(
            expected: try parseJSON(try TestVectors.text("demo/demo.json")), actual: try parseJSON(result.stdoutText))
        #expect(differences.isEmpty, "\(differences)")
    }

    @Test("export --format xml is KeePass's plain XML: KeePass imports it back to the same manifest")
    func exportXML() throws {
        let scratch = try Scratch()
        let vault = try scratch.copy(Demo.vault)
        let result = try CLI.run(["export", vault, "--format", "xml"], stdin: Demo.stdin)
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText.hasPrefix("<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"yes\"?>"))
        #expect(result.stdoutText.contains("<Value ProtectInMemory=\"True\">gh-Xq8!vR2#mT5pL</Value>"))
        guard let kporacle = InteropTools.kporacle else {
            if let message = InteropTools.missing("kporacle", test: "exportXML") { Issue.record(Comment(rawValue: message)) }
            return
        }
        let xml = try scratch.write("export.xml", result.stdout)
        let imported = scratch.path("imported.kdbx")
        let conversion = try runProcess(kporacle, ["from-xml", xml, imported, "--pw", "x"])
        #expect(conversion.status == 0, "\(conversion.stderrText)")
        guard let manifest = try Interop.kporacleDump(imported, password: "x", test: "exportXML") else { return }
        let expected = try #require(try parseJSON(try TestVectors.text("demo/demo.json")) as? [String: Any])
        for key in ["groups", "entries", "deletedObjects"] {
            let differences = manifestDifferences(expected: expected[key]!, actual: manifest[key] as Any)
            #expect(differences.isEmpty, "\(key): \(differences)")
        }
    }

    @Test("export --format json of every fixture equals its manifest", arguments: Fixture.all.filter { !$0.isLarge })
    func exportFixture(_ fixture: Fixture) throws {
        try checkExport(fixture, timeoutSeconds: nil)
    }

    /// The 5,000-entry fixtures, bounded in time: the export of the whole vault must take seconds,
    /// not minutes (a quadratic JSON writer fails here instead of stalling the suite).
    @Test("export --format json of the large fixtures equals their manifests, within 60 s", arguments: Fixture.all.filter(\.isLarge))
    func exportLargeFixture(_ fixture: Fixture) throws {
        try checkExport(fixture, timeoutSeconds: 60)
    }

    private func checkExport(_ fixture: Fixture, timeoutSeconds: Int?) throws {
        let scratch = try Scratch()
        let vault = try scratch.copy(fixture.vaultPath)
        let arguments = ["export", vault, "--format", "json"] + fixture.keyArguments
        let result: ProcessResult
        if let timeoutSeconds, let timeout = InteropTools.executable(named: "timeout") {
            // SIGKILL: a child of the test runner may inherit a mask that blocks SIGTERM.
            result = try runProcess(
                timeout, ["-s", "KILL", String(timeoutSeconds), CLI.binary.path] + arguments,
                stdin: Array(fixture.stdin.utf8))
            // timeout exits 137, or dies of the same SIGKILL (status 9 as Foundation reports it).
            #expect(result.status != 137 && result.status != 9, "mypass export took more than \(timeoutSeconds) s")
        } else {
            result = try CLI.run(arguments, stdin: fixture.stdin)
        }
        #expect(result.status == 0, "\(result.stderrText)")
        guard result.status == 0 else { return }
        let differences = manifestDifferences(
            expected: try parseJSON(try TestVectors.text(fixture.manifestPath)), actual: try parseJSON(result.stdoutText))
        #expect(differences.isEmpty, "\(differences)")
    }

    @Test("info on KeePass fixtures names version, cipher, KDF and counts")
    func infoFixtures() throws {
        let cases: [(String, [String])] = [
            ("kdbx31-aes-aeskdf", ["KDBX 3.1", "AES-256", "AES-KDF (6000 rounds)", "gzip", "Groups:       8", "Entries:      28"]),
            ("kdbx4-chacha20-argon2id", ["KDBX 4.0", "ChaCha20", "Argon2id (memory 4.0 MiB, 3 iterations, parallelism 2, version 1.3)", "Groups:       8", "Attachments:  5"]),
            ("kdbx4-chacha20-aeskdf", ["ChaCha20", "AES-KDF (6000 rounds)", "Compression:  none", "Recycle bin:  enabled, 'Recycle Bin' holds 1 entry and 0 groups"]),
            ("kdbx4-keyfile-only", ["KDBX 4.0", "Argon2d (memory 1.0 MiB, 2 iterations, parallelism 2, version 1.3)"]),
            ("kdbx4-aes-argon2d-p1", ["Argon2d (memory 1.0 MiB, 1 iteration, parallelism 1, version 1.3)"]),
        ]
        for (stem, lines) in cases {
            let fixture = Fixture.named(stem)
            let scratch = try Scratch()
            let vault = try scratch.copy(fixture.vaultPath)
            let result = try CLI.run(["info", vault] + fixture.keyArguments, stdin: fixture.stdin)
            #expect(result.status == 0, "\(stem): \(result.stderrText)")
            for line in lines { #expect(result.stdoutText.contains(line), "\(stem): \(line)\n\(result.stdoutText)") }
        }
    }

    @Test("generate honours length and character classes")
    func generate() throws {
        let result = try CLI.run(["generate", "--length", "40", "--digits"])
        #expect(result.status == 0, "\(result.stderrText)")
        let password = result.stdoutText.dropLast()
        #expect(result.stdoutText.hasSuffix("\n"))
        #expect(password.count == 40)
        #expect(password.allSatisfy { $0.isASCII && $0.isNumber })
        let lower = try CLI.run(["generate", "--length=64", "--lower", "--upper", "--exclude-similar"])
        let text = lower.stdoutText.dropLast()
        #expect(text.count == 64)
        #expect(text.allSatisfy { $0.isASCII && $0.isLetter })
        #expect(!text.contains { "lIO".contains($0) })
        let standard = try CLI.run(["generate"])
        #expect(standard.stdoutText.count == 21)
        #expect(standard.stdoutText != (try CLI.run(["generate"])).stdoutText)
    }
}
