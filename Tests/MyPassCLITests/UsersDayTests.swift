import Foundation
import MyPassTestSupport
import Testing

/// A day of real use, as issue 33 found it: bare titles, the TOTP code shown unasked, work done
/// before a certain failure, usage lines, import format detection and standard input, messages
/// of merge and passwd, display-width columns, Bitwarden passkeys and the small gaps. (The
/// prompts are in `TerminalPromptTests`, completion in `CompletionShellTests`.)
@Suite("A user's day")
struct UsersDayTests {
    let scratch: Scratch
    let vault: String

    init() throws {
        scratch = try Scratch()
        vault = try scratch.copy(Demo.vault)
    }

    /// `mypass arguments` with the demo password on stdin, no agent, no config file.
    func mypass(_ arguments: [String], stdin: String = Demo.stdin, environment: [String: String] = [:]) throws -> ProcessResult {
        var base = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": scratch.path("home"),
                    "XDG_CONFIG_HOME": scratch.path("config"), "MYPASS_NO_AGENT": "1"]
        base.merge(environment) { $1 }
        return try runProcess(CLI.binary, arguments, stdin: Array(stdin.utf8), environment: base, currentDirectory: scratch.url)
    }

    /// `mypass arguments`, which must succeed.
    @discardableResult
    func succeeds(_ arguments: [String], stdin: String = Demo.stdin, sourceLocation: SourceLocation = #_sourceLocation) throws -> ProcessResult {
        let result = try mypass(arguments, stdin: stdin)
        #expect(result.status == 0, "mypass \(arguments): \(result.stderrText)", sourceLocation: sourceLocation)
        return result
    }

    /// The first line of stderr that is an error (notes may come before it).
    static func errorLine(_ result: ProcessResult) -> String {
        String(result.stderrText.split(separator: "\n").first { $0.hasPrefix("Error: ") } ?? "")
    }

    // MARK: bare titles

    @Test("A title alone names the one entry with it, for every command that takes an entry")
    func bareTitles() throws {
        try succeeds(["attachment", "import", vault, "Work/GitHub", "codes.txt", TestVectors.url("cli/recovery-codes.txt").path])
        #expect(try succeeds(["show", vault, "GitHub"]).stdoutText.contains("Path: Work/GitHub\n"))
        #expect(try succeeds(["show", vault, "GitHub", "--field", "UserName"]).stdoutText == "sam-dev\n")
        #expect(try succeeds(["totp", vault, "GitHub", "--time", "59"]).stdoutText == "996554\n")
        #expect(try succeeds(["clip", vault, "Company Mail", "--field", "UserName", "--osc52", "--timeout", "0"]).stdoutText
            == "\u{1B}]52;c;" + Data("sam@example.com".utf8).base64EncodedString() + "\u{07}")
        #expect(try succeeds(["attachment", "ls", vault, "GitHub"]).stdoutText == "codes.txt  84 bytes\n")
        #expect(try succeeds(["attachment", "export", vault, "GitHub", "codes.txt"]).stdout == Array(try TestVectors.bytes("cli/recovery-codes.txt")))
        try succeeds(["attachment", "rm", vault, "GitHub", "codes.txt"])
        try succeeds(["attachment", "import", vault, "Jira", "codes.txt", TestVectors.url("cli/recovery-codes.txt").path])
        try succeeds(["edit", vault, "Jira", "--username", "sam-ops"])
        try succeeds(["mv", vault, "Jira", "Personal"])
        #expect(try succeeds(["show", vault, "Personal/Jira", "--field", "UserName"]).stdoutText == "sam-ops\n")
        try succeeds(["passkey", "add", vault, "Web Login", "--rp", "example.com", "--user", "sam"])
        #expect(try succeeds(["passkey", "show", vault, "Web Login"]).stdoutText.contains("relyingParty: example.com\n"))
        let assertion = try succeeds(["passkey", "assert", vault, "Web Login", "--client-data-hash", String(repeating: "ab", count: 32)])
        #expect(assertion.stdoutText.contains("\"signature\""))
        try succeeds(["rm", vault, "Jira"])
        // Now in the recycle bin only: not found (rm would delete it for good), the bin's path suggested.
        let binned = try mypass(["rm", vault, "Jira"])
        #expect(binned.status == 1)
        #expect(CLI.firstErrorLine(binned) == "Error: no entry 'Jira'; did you mean 'Recycle Bin/Jira'?")
        #expect(try succeeds(["ls", vault, "Recycle Bin", "--paths"]).stdoutText == "Recycle Bin/Jira\n")
    }

    @Test("Two entries with the title: the error lists their paths; a near miss suggests paths")
    func bareTitleErrors() throws {
        let added = try succeeds(["add", vault, "Personal/GitHub", "--username", "sam-home"])
        let uuid = String(added.stdoutText.split(separator: "(").last?.prefix(32) ?? "")
        let ambiguous = try mypass(["show", vault, "GitHub"])
        #expect(ambiguous.status == 1)
        #expect(CLI.firstErrorLine(ambiguous) == "Error: 'GitHub' names 2 entries; give its path or UUID: "
            + "Work/GitHub (e0000000000040008000000000000002, user name 'sam-dev'), Personal/GitHub (\(uuid), user name 'sam-home')")
        #expect(try succeeds(["show", vault, "Personal/GitHub", "--field", "UserName"]).stdoutText == "sam-home\n")
        for (typed, suggestion) in [("github", "Work/GitHub' or 'Personal/GitHub"), ("Dropbx", "Personal/Dropbox"),
                                    ("Work/Dropbox", "Personal/Dropbox"), ("company mail", "Work/Email/Company Mail")] {
            let missing = try mypass(["show", vault, typed])
            #expect(missing.status == 1)
            #expect(CLI.firstErrorLine(missing) == "Error: no entry '\(typed)'; did you mean '\(suggestion)'?")
        }
    }

    // MARK: show and the TOTP code

    @Test("show hides the TOTP code as it hides the password; --totp or --reveal shows it")
    func totpOnlyWhenAsked() throws {
        let plain = try succeeds(["show", vault, "Work/GitHub", "--time", "59"]).stdoutText
        #expect(!plain.contains("996554"))
        #expect(plain.contains("TOTP: PROTECTED (--totp or --reveal shows the current code)\n"))
        #expect(plain.contains("Password: PROTECTED\n"))
        let totp = try succeeds(["show", vault, "Work/GitHub", "--time", "59", "--totp"]).stdoutText
        #expect(totp.contains("TOTP: 996554 (1 s left)\n") && totp.contains("Password: PROTECTED\n"))
        #expect(try succeeds(["show", vault, "Work/GitHub", "--time", "59", "-t"]).stdoutText == totp)
        #expect(try succeeds(["show", vault, "Work/GitHub", "--time", "59", "--reveal"]).stdoutText.contains("TOTP: 996554 (1 s left)\n"))
        let json = try #require(try parseJSON(try succeeds(["show", vault, "Work/GitHub", "--time", "59", "--json"]).stdoutText) as? [String: Any])
        #expect((json["totp"] as? [String: Any])?["code"] is NSNull)
        let shown = try #require(try parseJSON(try succeeds(["show", vault, "Work/GitHub", "--time", "59", "--json", "--totp"]).stdoutText) as? [String: Any])
        #expect((shown["totp"] as? [String: Any])?["code"] as? String == "996554")
        #expect(try succeeds(["show", "--help"]).stdoutText.contains("-t, --totp"))
    }

    @Test("Field names in any case; a miss suggests or lists the entry's fields")
    func fieldNames() throws {
        #expect(try succeeds(["show", vault, "Work/GitHub", "--field", "username"]).stdoutText == "sam-dev\n")
        #expect(try succeeds(["show", vault, "Work/GitHub", "--field", "tokens"]).stdoutText.hasPrefix("ghp_"))
        let typo = try mypass(["show", vault, "Work/GitHub", "--field", "usrname"])
        #expect(typo.status == 1)
        #expect(CLI.firstErrorLine(typo) == "Error: entry 'Work/GitHub' has no field 'usrname'; did you mean 'UserName'?")
        let unknown = try mypass(["clip", vault, "Work/GitHub", "--field", "pin", "--osc52"])
        #expect(CLI.firstErrorLine(unknown) == "Error: entry 'Work/GitHub' has no field 'pin'; its fields: 'Title', 'UserName', 'Password', 'URL', 'Notes', 'otp', 'Tokens'")
        let clipped = try succeeds(["clip", vault, "Work/GitHub", "--field", "url", "--osc52", "--timeout", "0"])
        #expect(clipped.stdoutText == "\u{1B}]52;c;" + Data("https://github.com/login".utf8).base64EncodedString() + "\u{07}")
    }

    // MARK: create, usage, help

    @Test("create into a directory that does not exist fails before any prompt or KDF calibration")
    func createChecksThePathFirst() throws {
        let started = Date()
        let result = try mypass(["create", scratch.path("no/such/dir/v.kdbx")], stdin: "")
        #expect(result.status == 1)
        #expect(CLI.firstErrorLine(result) == "Error: cannot create '\(scratch.path("no/such/dir/v.kdbx"))': the directory '\(scratch.path("no/such/dir"))' does not exist; nothing was asked or written")
        #expect(Date().timeIntervalSince(started) < 5)
        let keyFile = try mypass(["create", scratch.path("v.kdbx"), "--generate-keyfile", scratch.path("nope/v.key"), "--no-password"], stdin: "")
        #expect(CLI.firstErrorLine(keyFile) == "Error: cannot write key file '\(scratch.path("nope/v.key"))': the directory '\(scratch.path("nope"))' does not exist; nothing was asked or written")
        let imported = try mypass(["import", scratch.path("none/v.kdbx"), TestVectors.url("import/bitwarden.json").path, "--create"], stdin: "")
        #expect(Self.errorLine(imported).hasSuffix("does not exist; nothing was asked or written"), "\(imported.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("v.kdbx")))
    }

    @Test("Usage lines show required options without brackets, and they are checked")
    func usageLines() throws {
        let help = try succeeds(["passkey", "add", "--help"]).stdoutText
        #expect(help.contains("USAGE: mypass passkey add <vault> <path> --rp <id> --user <name> [--user-handle <base64url>]"))
        #expect(try succeeds(["help", "passkey", "assert"]).stdoutText.contains("USAGE: mypass passkey assert <vault> <entry> --client-data-hash <hex> [--rp <id>]"))
        #expect(try succeeds(["import", "--help"]).stdoutText.contains("[--from <keepass-xml|keepassxc-csv|bitwarden-json>]"))
        let missing = try mypass(["passkey", "add", vault, "Web/X", "--user", "sam"])
        #expect(missing.status == 2)
        #expect(CLI.firstErrorLine(missing) == "Error: Missing expected argument '--rp <id>'")
    }

    @Test("help help, help --help, ls VAULT GROUP, and the manual page's new words")
    func smallGaps() throws {
        let help = try succeeds(["help", "help"]).stdoutText
        #expect(help.hasPrefix("OVERVIEW: Show the command list, a command's help, or the manual page.\n"))
        #expect(help.contains("USAGE: mypass help [<subcommand>] [--man] [--markdown]"))
        #expect(try succeeds(["help", "--help"]).stdoutText == help)
        let byOption = try succeeds(["ls", vault, "--group", "Work"]).stdoutText
        #expect(try succeeds(["ls", vault, "Work"]).stdoutText == byOption)
        #expect(byOption == "GitHub        sam-dev          Work\nJira          sam@example.com  Work\nCompany Mail  sam@example.com  Work > Email\n")
        let withDefault = try mypass(["ls", "Work"], environment: ["MYPASS_VAULT": vault])
        #expect(withDefault.status == 0 && withDefault.stdoutText == byOption, "\(withDefault.stderrText)")
        #expect(try succeeds(["groups", vault, "--paths"]).stdoutText == "Work\nWork/Email\nPersonal\n")
        let man = try succeeds(["help", "--man"]).stdoutText
        for words in [".SS attachment ls", "\\fB\\-t\\fR, \\fB\\-\\-totp\\fR", "\\fB\\-\\-force\\fR", "its title alone when no other entry",
                      "the content winning", "the agent then gets the new key", "Print each group\\(aqs path", "\\-\\-rp <id> \\-\\-user <name>"] {
            #expect(man.contains(words) || man.contains(words.replacingOccurrences(of: "\\(aq", with: "'")), "man: \(words)")
        }
    }

    // MARK: attachments

    @Test("attachment ls lists names and sizes; export never writes over a file without --force")
    func attachments() throws {
        let codes = TestVectors.url("cli/recovery-codes.txt").path
        try succeeds(["attachment", "import", vault, "Work/GitHub", "codes.txt", codes])
        try succeeds(["attachment", "import", vault, "Work/GitHub", "鍵🔑.txt", codes])
        #expect(try succeeds(["attachment", "ls", vault, "Work/GitHub"]).stdoutText == "codes.txt  84 bytes\n鍵🔑.txt   84 bytes\n")
        let json = try #require(try parseJSON(try succeeds(["attachment", "ls", vault, "Work/GitHub", "--json"]).stdoutText) as? [[String: Any]])
        #expect(json.map { $0["name"] as? String } == ["codes.txt", "鍵🔑.txt"] && json.map { $0["size"] as? Int } == [84, 84])
        let none = try succeeds(["attachment", "ls", vault, "Work/Jira"])
        #expect(none.stdoutText.isEmpty && none.stderrText == "Entry 'Work/Jira' has no attachments.\n")
        let target = try scratch.write("existing.txt", Array("keep me\n".utf8))
        let refused = try mypass(["attachment", "export", vault, "Work/GitHub", "codes.txt", target])
        #expect(refused.status == 1)
        #expect(CLI.firstErrorLine(refused) == "Error: cannot write '\(target)': a file is already there; --force replaces it")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me\n")
        try FileManager.default.createSymbolicLink(atPath: scratch.path("dangling"), withDestinationPath: scratch.path("nowhere"))
        #expect(try mypass(["attachment", "export", vault, "Work/GitHub", "codes.txt", scratch.path("dangling")]).status == 1)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("nowhere")))
        try succeeds(["attachment", "export", vault, "Work/GitHub", "codes.txt", target, "--force"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == (try Data(contentsOf: URL(fileURLWithPath: codes))))
        try succeeds(["attachment", "export", vault, "Work/GitHub", "codes.txt", scratch.path("new.txt")])
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("new.txt"))) == (try Data(contentsOf: URL(fileURLWithPath: codes))))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    // MARK: import

    @Test("import takes the format from the file's extension and content and says which; '-' reads standard input")
    func importDetection() throws {
        let json = try succeeds(["import", vault, TestVectors.url("import/bitwarden.json").path])
        #expect(json.stderrText.contains("Note: reading '\(TestVectors.url("import/bitwarden.json").path)' as Bitwarden JSON (bitwarden-json), from its extension and its content; --from chooses another format.\n"))
        let csv = try scratch.write("export.txt", try TestVectors.bytes("import/demo-keepassxc.csv"))
        let fromContent = try succeeds(["import", vault, csv])
        #expect(fromContent.stderrText.contains("as KeePassXC CSV (keepassxc-csv), from its content;"))
        #expect(fromContent.stdoutText == "Imported 7 entries from '\(csv)' into group 'export' of '\(vault)'.\n")
        let contradicted = try scratch.write("export.json", try TestVectors.bytes("import/demo-keepassxc.csv"))
        #expect(try succeeds(["import", vault, contradicted, "--group", "Again"]).stderrText
            .contains("as KeePassXC CSV (keepassxc-csv), from its content (its extension says Bitwarden JSON);"))
        let given = try succeeds(["import", vault, csv, "--from", "keepassxc-csv", "--group", "Given"])
        #expect(!given.stderrText.contains("Note: reading"))
        let unknown = try scratch.write("export.dat", Array("name,login_uri\n".utf8))
        let refused = try mypass(["import", vault, unknown])
        #expect(refused.status == 2)
        #expect(CLI.firstErrorLine(refused) == "Error: Cannot tell the format of '\(unknown)' from its name or its first bytes: give --from keepass-xml, keepassxc-csv or bitwarden-json")
        // Standard input: a key-file-only vault needs no password, so the whole input is the export.
        let keyVault = scratch.path("k.kdbx"), key = scratch.path("k.key")
        try succeeds(["create", keyVault, "--generate-keyfile", key, "--no-password", "--kdf", "aes", "--rounds", "1000"], stdin: "")
        let piped = try succeeds(["import", keyVault, "-", "--keyfile", key, "--no-password"], stdin: try TestVectors.text("import/bitwarden.json"))
        #expect(piped.stdoutText == "Imported 4 entries from standard input into group 'Import' of '\(keyVault)'.\n")
        #expect(try succeeds(["ls", keyVault, "Import", "--paths", "--keyfile", key, "--no-password"], stdin: "").stdoutText.contains("Import/Work/GitHub\n"))
        // A password vault with no terminal to ask on: the error says why, nothing is written.
        let noTerminal = try mypass(["import", vault, "-", "--group", "Piped"], stdin: try TestVectors.text("import/bitwarden.json"))
        #expect(noTerminal.status == 1)
        #expect(Self.errorLine(noTerminal) == "Error: no password can be read: FILE '-' took standard input and no terminal is there to ask on: use --no-password with --keyfile, or give the export as a file")
    }

    @Test("Bitwarden passkeys import as KeePassXC passkeys that sign; the ones left out are named; card secrets are protected")
    func bitwardenPasskeys() throws {
        let export = TestVectors.url("import/bitwarden-passkeys.json").path
        let result = try succeeds(["import", vault, export, "--group", "BW"])
        #expect(result.stderrText.contains("Warning: item 'Two passkeys' (line 124): passkey 2 of 2 (two.example.net) was not imported: an entry holds one passkey.\n"))
        #expect(result.stderrText.contains("Warning: item 'Unreadable passkey' (line 168): its passkey (broken.example.com) was not imported: its keyValue is not a P-256 private key in PKCS#8.\n"))
        #expect(try succeeds(["passkey", "ls", vault]).stdoutText
            == "BW/Passkey only\tlogin.example.org\talice\tes256\nBW/Two passkeys\ttwo.example.net\tbob\tes256\nBW/Web/Example\texample.com\tsam\tes256\n")
        // The imported key signs: the assertion verifies with the public key of Bitwarden's keyValue.
        let hash = String(repeating: "5a", count: 32)
        let assertion = try succeeds(["passkey", "assert", vault, "BW/Web/Example", "--client-data-hash", hash, "--rp", "example.com"])
        if let python = InteropTools.python(withModules: ["cryptography"]) {
            let check = try InteropTools.runPython(python, """
                import base64, json, sys
                from cryptography.hazmat.primitives import hashes, serialization
                from cryptography.hazmat.primitives.asymmetric import ec
                def b64u(text): return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
                export = json.load(open(sys.argv[1]))
                key = serialization.load_der_private_key(b64u(export["items"][0]["login"]["fido2Credentials"][0]["keyValue"]), None)
                answer = json.load(sys.stdin)
                assert b64u(answer["credentialId"]) == bytes.fromhex("3f2a9c4e51b74d089e6a0c1d2e3f4a5b")
                assert b64u(answer["userHandle"]) == b"user-handle-sam-1"
                data = b64u(answer["authenticatorData"]) + bytes.fromhex(sys.argv[2])
                key.public_key().verify(b64u(answer["signature"]), data, ec.ECDSA(hashes.SHA256()))
                print("verified")
                """, [export, hash], stdin: assertion.stdout)
            #expect(check.stdoutText == "verified\n", "\(check.stderrText)")
        } else if let message = InteropTools.missing("python3 with cryptography", test: "bitwardenPasskeys") {
            Issue.record(Comment(rawValue: message))
        }
        try succeeds(["import", vault, TestVectors.url("import/bitwarden.json").path, "--group", "Cards"])
        let card = try #require(try parseJSON(try succeeds(["show", vault, "Cards/Finance/Visa", "--json"]).stdoutText) as? [String: Any])
        let fields = try #require(card["fields"] as? [String: [String: Any]])
        for name in ["Card Number", "Card Code"] {
            #expect(fields[name]?["protected"] as? Bool == true && fields[name]?["value"] is NSNull, "\(name)")
        }
    }

    // MARK: merge and passwd

    @Test("merge: a missing password for the second vault names it and the ways to open it")
    func mergeSecondPassword() throws {
        let other = try scratch.copy(Demo.vault, as: "other.kdbx")
        let result = try mypass(["merge", vault, other])
        #expect(result.status == 1)
        #expect(CLI.firstErrorLine(result) == "Error: no password for 'other.kdbx' on standard input (the line after VAULT's password; --same-credentials opens OTHER with VAULT's key, --other-keyfile with --other-no-password with a key file alone)")
    }

    @Test("passwd hands the agent the new key when it held the vault, and says so")
    func passwdKeepsTheAgent() throws {
        let sandbox = try AgentSandbox()
        let held = try sandbox.scratch.copy(Demo.vault)
        #expect(try sandbox.run(["unlock", held, "--timeout", "600"], stdin: Demo.stdin).status == 0)
        let changed = try sandbox.run(["passwd", held], stdin: Demo.stdin + "new-Master\nnew-Master\n")
        #expect(changed.status == 0, "\(changed.stderrText)")
        #expect(changed.stderrText.contains("Note: the agent held '\(held)'; it now holds the new key (600 s after its last use, as before).\n"))
        let listed = try sandbox.run(["ls", held, "--paths"])
        #expect(listed.status == 0 && listed.stdoutText.contains("Work/GitHub\n"), "\(listed.stderrText)")
        #expect(try sandbox.run(["ls", held, "--no-agent"], stdin: "new-Master\n").status == 0)
        let status = try sandbox.run(["status", "--json"])
        let vaults = try #require(try parseJSON(status.stdoutText) as? [[String: Any]])
        #expect((vaults.first?["secondsLeft"] as? Int ?? 0) > 590)
    }

    // MARK: columns

    @Test("ls, groups, match and attachment ls align columns by display width (CJK, emoji, combining marks)")
    func displayWidthColumns() throws {
        let key = scratch.path("w.key"), wide = scratch.path("w.kdbx")
        let keys = ["--keyfile", key, "--no-password"]
        try succeeds(["create", wide, "--generate-keyfile", key, "--no-password", "--kdf", "aes", "--rounds", "1000"], stdin: "")
        try succeeds(["mkdir", wide, "日本"] + keys, stdin: "")
        try succeeds(["add", wide, "日本/メール", "--username", "山田", "--url", "https://example.jp/mail"] + keys, stdin: "")
        try succeeds(["add", wide, "日本/❤️ Love", "--username", "x", "--url", "https://example.jp/love"] + keys, stdin: "")
        try succeeds(["add", wide, "Cafe\u{301} 👩‍💻", "--username", "🇯🇵", "--url", "https://cafe.example.jp"] + keys, stdin: "")
        try succeeds(["add", wide, "Plain", "--username", "ascii", "--url", "https://plain.example.jp"] + keys, stdin: "")
        #expect(try succeeds(["ls", wide] + keys, stdin: "").stdoutText == """
            Café 👩‍💻  🇯🇵
            Plain    ascii
            メール   山田   日本
            ❤️ Love  x      日本

            """)
        #expect(try succeeds(["ls", wide, "--group", "/"] + keys, stdin: "").stdoutText == """
            Café 👩‍💻  🇯🇵
            Plain    ascii
            メール   山田   日本
            ❤️ Love  x      日本

            """)
        #expect(try succeeds(["groups", wide] + keys, stdin: "").stdoutText == "w        (2 entries)\n  日本/  (2 entries)\n")
        let matched = try mypass(["match", wide, "example.jp"] + keys, stdin: "")
        #expect(matched.status == 0, "\(matched.stderrText)")
        #expect(matched.stdoutText == "Suggestions for example.jp:\n  メール   山田  日本\n  ❤️ Love  x     日本\n")
    }
}
