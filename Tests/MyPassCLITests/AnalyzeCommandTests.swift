import Foundation
import MyPassBytes
import MyPassCrypto
import MyPassKDBX
import MyPassTestSupport
import Testing

/// `mypass analyze` against `keepassxc-cli analyze --hibp` on every fixture and on the health test
/// vault (the same breached entries and counts), its report and exit codes, damaged HIBP lists,
/// a 1 GiB list searched in bounded memory, no copy of a password left by the analysis; and
/// `mypass estimate` in keepassxc-cli's format.
@Suite("analyze and estimate")
struct AnalyzeCommandTests {
    /// `HASH:COUNT` lines for `chosen` passwords plus `fillers` random hashes, sorted.
    static func breachList(_ chosen: [String: Int64], fillers: Int, seed: UInt64, crlf: Bool = false, lowercase: Bool = false) -> [UInt8] {
        var state = seed
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        var lines = chosen.map { (SHA1.hash(Array($0.key.utf8)), $0.value) }
        for _ in 0..<fillers { lines.append(((0..<20).map { _ in UInt8(truncatingIfNeeded: next()) }, Int64(1 + next() % 999))) }
        lines.sort { $0.0.lexicographicallyPrecedes($1.0) }
        let text = lines.map { line -> String in
            let hex = hexString(line.0)
            return (lowercase ? hex.lowercased() : hex.uppercased()) + ":\(line.1)"
        }.joined(separator: crlf ? "\r\n" : "\n") + (crlf ? "\r\n" : "\n")
        return Array(text.utf8)
    }

    /// `Work\/A` -> `Work/A`: a path as `ls --paths` prints it, as keepassxc-cli prints it (no escapes).
    static func unescaped(_ path: String) -> String {
        var out = "", escaped = false
        for character in path {
            if escaped || character != "\\" {
                out.append(character)
                escaped = false
            } else {
                escaped = true
            }
        }
        return out
    }

    /// keepassxc-cli's findings: `PATH<TAB>COUNT`, sorted; nil when keepassxc-cli is missing.
    static func keepassxcBreached(_ vault: String, hibp: String, password: String?, keyFile: String?, test: String,
                                  opens: Bool = true) throws -> [String]? {
        var arguments = ["analyze", "-q", "--hibp", hibp]
        if let keyFile { arguments += ["-k", keyFile] }
        if password == nil { arguments.append("--no-password") }
        guard let result = try Interop.keepassxc(arguments + [vault], password: password ?? "", test: test) else { return nil }
        guard opens else {
            #expect(result.status != 0, "keepassxc-cli opened \(vault), which it could not before")
            return nil
        }
        #expect(result.status == 0, "keepassxc-cli analyze: \(result.stderrText)")
        return result.stdoutText.split(separator: "\n").compactMap { line -> String? in
            // Password for 'PATH' has been leaked N times!
            guard line.hasPrefix("Password for '"), let end = line.range(of: "' has been leaked ", options: .backwards) else { return nil }
            let path = line[line.index(line.startIndex, offsetBy: 14)..<end.lowerBound]
            let count = line[end.upperBound...].prefix { $0.isNumber }
            return "\(path)\t\(count)"
        }.sorted()
    }

    /// Our findings as `PATH<TAB>COUNT` (path unescaped), sorted, from `analyze --json`.
    static func ourBreached(_ arguments: [String], stdin: String) throws -> [String] {
        let result = try CLI.run(["analyze"] + arguments + ["--json"], stdin: stdin)
        #expect(result.status == 0 || result.status == 6, "mypass analyze: \(result.stderrText)")
        let report = try #require(try parseJSON(result.stdoutText) as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        return findings.filter { $0["problem"] as? String == "breached" }.compactMap { finding -> String? in
            guard let path = finding["path"] as? String, let count = finding["breachCount"] as? Int else { return nil }
            return "\(unescaped(path))\t\(count)"
        }.sorted()
    }

    // MARK: keepassxc-cli on every fixture

    /// A vault of `Vectors/` with its key and its manifest (KeePass's, else our export's).
    struct VaultFixture: CustomStringConvertible, Sendable {
        /// Below `Vectors/`.
        var vault: String
        var password: String?
        /// Below `Vectors/`.
        var keyFile: String?
        /// Below `Vectors/`; nil: `mypass export` of the vault (where no KeePass manifest exists).
        var manifest: String?
        var description: String { vault }
    }

    /// Every vault of `Vectors/`: the fixtures with KeePass's manifests, the demo and path-rule
    /// vaults, the KDF-fidelity and passkey vaults.
    static let fixtures: [VaultFixture] = {
        let catalog = FixtureCatalog.keepass + FixtureCatalog.kdbxweb + FixtureCatalog.keepassRS + FixtureCatalog.gokeepasslib
        return catalog.map {
            VaultFixture(vault: "kdbx/\($0.name).kdbx", password: $0.password, keyFile: $0.keyFile.map { "kdbx/" + $0 },
                         manifest: "kdbx/\($0.name).json")
        } + [
            VaultFixture(vault: "demo/demo.kdbx", password: "demo", manifest: "demo/demo.json"),
            VaultFixture(vault: "cli/paths.kdbx", password: "demo", manifest: "cli/paths.json"),
            VaultFixture(vault: "kdbx-fidelity/argon2id-secret-ad.kdbx", password: "correct horse battery staple"),
            VaultFixture(vault: "passkey/keepass-passkeys.kdbx", password: "passkey"),
        ]
    }()

    /// Vaults keepassxc-cli 2.7.4 reads differently from KeePass, and what it reports instead.
    /// `test_db_kdbx3_with_chacha20_protected_fields`: a KDBX 3.1 vault whose inner stream is
    /// ChaCha20; KeePassXC decrypts its protected values wrongly (`show -s` prints bytes that are
    /// not `admin`, the password KeePass reads), so it looks up the SHA-1 of those bytes and finds
    /// nothing.
    static let keepassxcMisreads: [String: [String]] = ["kdbx/thirdparty/keepass-rs/test_db_kdbx3_with_chacha20_protected_fields.kdbx": []]

    /// Vaults keepassxc-cli 2.7.4 cannot open. `argon2id-secret-ad`: Argon2 with a secret key `K`
    /// and associated data `A` (KDF parameters KeePass writes and uses); KeePassXC leaves them out
    /// of the KDF, derives another key and reports "HMAC mismatch".
    static let keepassxcCannotOpen: Set<String> = ["kdbx-fidelity/argon2id-secret-ad.kdbx"]

    @Test("keepassxc-cli analyze --hibp and mypass analyze --hibp name the same breached entries with the same counts", arguments: fixtures)
    func fixtureAgrees(_ fixture: VaultFixture) throws {
        let scratch = try Scratch()
        let vault = try scratch.copy(fixture.vault, as: "vault.kdbx")
        let keyFile = fixture.keyFile.map { TestVectors.url($0).path }
        var keyArguments: [String] = []
        if let keyFile { keyArguments += ["--keyfile", keyFile] }
        if fixture.password == nil { keyArguments.append("--no-password") }
        let stdin = fixture.password.map { $0 + "\n" } ?? ""
        let manifestText = try fixture.manifest.map { try TestVectors.text($0) }
            ?? (try CLI.run(["export", vault] + keyArguments, stdin: stdin)).stdoutText
        let manifest = try #require(try parseJSON(manifestText) as? [String: Any])
        let entries = manifest["entries"] as? [[String: Any]] ?? []
        let groups = manifest["groups"] as? [[String: Any]] ?? []
        let binUUID = (manifest["meta"] as? [String: Any])?["recycleBinUUID"] as? String
        let binPath = groups.first { binUUID != nil && $0["uuid"] as? String == binUUID }?["path"] as? [String]
        func password(_ entry: [String: Any]) -> String { Interop.fieldValue(entry, "Password") ?? "" }
        // Every password the file holds: current, recycled and history ones, so that the
        // recycle bin and history staying out is tested too. Three in four get a count.
        var all = Set<String>()
        for entry in entries {
            all.insert(password(entry))
            for old in entry["history"] as? [[String: Any]] ?? [] { all.insert(password(old)) }
        }
        var chosen: [String: Int64] = [:]
        for (index, value) in all.sorted().enumerated() where index % 4 != 3 { chosen[value] = 1_000 + Int64(index) * 37 }
        var expected: [String] = []
        for entry in entries {
            let path = entry["path"] as? [String] ?? []
            if let binPath, path.starts(with: binPath) { continue }
            let title = Interop.fieldValue(entry, "Title") ?? ""
            if let count = chosen[password(entry)] { expected.append("\((path + [title]).joined(separator: "/"))\t\(count)") }
        }
        expected.sort()

        let index = Self.fixtures.firstIndex { $0.vault == fixture.vault } ?? 0
        let hibp = try scratch.write("hibp.txt", Self.breachList(chosen, fillers: 300, seed: UInt64(index + 1),
                                                                  crlf: index % 2 == 1, lowercase: index % 3 == 2))
        let mine = try Self.ourBreached([vault, "--hibp", hibp] + keyArguments, stdin: stdin)
        #expect(mine == expected, "\(fixture.vault): ours differs from the manifest's")
        #expect(!expected.isEmpty || entries.isEmpty, "\(fixture.vault): the list names no current entry")
        guard let theirs = try Self.keepassxcBreached(vault, hibp: hibp, password: fixture.password, keyFile: keyFile,
                                                     test: "fixtureAgrees", opens: !Self.keepassxcCannotOpen.contains(fixture.vault))
        else { return }
        #expect(theirs == (Self.keepassxcMisreads[fixture.vault] ?? mine), "\(fixture.vault): keepassxc-cli \(theirs), ours \(mine)")
    }

    // MARK: The health test vault

    /// The health test vault saved in `scratch` as `health.kdbx` with its HIBP list `hibp.txt`.
    static func healthVault(_ scratch: Scratch) throws -> (vault: String, hibp: String) {
        let key = try CompositeKey(password: ProtectedString(HealthTestVault.masterPassword), keyFileContents: nil)
        let vault = try scratch.write("health.kdbx", try KDBXCodec.save(HealthTestVault.make(), key: key))
        let hibp = try scratch.write("hibp.txt", Self.breachList(HealthTestVault.breached, fillers: 2_000, seed: 30, crlf: true))
        return (vault, hibp)
    }

    static let healthStdin = HealthTestVault.masterPassword + "\n"
    /// `--time` of the health test vault's analysis.
    static let healthTime = String(HealthTestVault.now.unixSeconds)

    @Test("the health test vault: keepassxc-cli and mypass agree on breached entries and counts (Unicode and 300-character passwords among them)")
    func healthVaultAgrees() throws {
        let scratch = try Scratch()
        let (vault, hibp) = try Self.healthVault(scratch)
        let mine = try Self.ourBreached([vault, "--hibp", hibp, "--time", Self.healthTime], stdin: Self.healthStdin)
        #expect(mine == [
            "Personal/Forum\t980123", "Personal/Long\t1", "Personal/Ünïcødé ✓\t3", "Work/Email\t1234",
            "Work/Jira\t2418984", "Work/Legacy\t980123", "Work/PIN\t5",
        ].sorted())
        guard let theirs = try Self.keepassxcBreached(vault, hibp: hibp, password: HealthTestVault.masterPassword, keyFile: nil,
                                                     test: "healthVaultAgrees") else { return }
        #expect(mine == theirs)
    }

    @Test("the report as text: a summary, then each problem worst first (Vectors/cli/analyze-health.txt); exit 6")
    func healthReportText() throws {
        let scratch = try Scratch()
        _ = try Self.healthVault(scratch)
        let result = try CLI.run(["analyze", "health.kdbx", "--hibp", "hibp.txt", "--older-than", "2400", "--time", Self.healthTime],
                                 stdin: Self.healthStdin, in: scratch.url)
        #expect(result.status == 6, "\(result.stderrText)")
        let expected = (try? TestVectors.text("cli/analyze-health.txt")) ?? ""
        #expect(result.stdoutText == expected, "got:\n\(result.stdoutText)")
        #expect(result.stderrText.isEmpty || !result.stderrText.contains("Error"), "\(result.stderrText)")
    }

    @Test("--json: each finding names its entry by the path ls --paths prints and by UUID; breachCount is a number")
    func healthReportJSON() throws {
        let scratch = try Scratch()
        let (vault, hibp) = try Self.healthVault(scratch)
        let result = try CLI.run(["analyze", vault, "--hibp", hibp, "--include-history", "--include-recycle-bin", "--time", Self.healthTime,
                                  "--json"], stdin: Self.healthStdin)
        #expect(result.status == 6)
        let report = try #require(try parseJSON(result.stdoutText) as? [String: Any])
        let summary = try #require(report["summary"] as? [String: Int])
        #expect(summary["breached"] == 10 && summary["reused"] == 7 && summary["reusedPasswords"] == 3 && summary["empty"] == 1, "\(summary)")
        #expect(report["entriesChecked"] as? Int == 18 && report["passwordsChecked"] as? Int == 21)
        let findings = try #require(report["findings"] as? [[String: Any]])
        let listed = try CLI.run(["ls", vault, "--paths"], stdin: Self.healthStdin)
        let paths = Set(listed.stdoutText.split(separator: "\n").map(String.init))
        let uuids = try CLI.run(["ls", vault, "--json"], stdin: Self.healthStdin)
        let entries = try #require(try parseJSON(uuids.stdoutText) as? [[String: Any]])
        for finding in findings where finding["recycled"] as? Bool == false {
            let path = try #require(finding["path"] as? String)
            #expect(paths.contains(path), "\(path) is not a path ls --paths prints")
            let uuid = try #require(finding["uuid"] as? String)
            #expect(entries.contains { $0["uuid"] as? String == uuid && Self.unescaped(path).hasSuffix($0["title"] as? String ?? "\u{0}") })
        }
        #expect(findings.contains { $0["path"] as? String == "Personal/A\\/B" } == false, "A/B has no problem")
        let breached = findings.filter { $0["problem"] as? String == "breached" }
        #expect(breached.allSatisfy { ($0["breachCount"] as? NSNumber) != nil && !($0["breachCount"] is String) })
        let history = try #require(breached.first { $0["path"] as? String == "Work/GitHub" })
        #expect(history["history"] as? String == "2020-01-01T00:00:00Z" && history["breachCount"] as? Int == 100)
        #expect(breached.contains { $0["path"] as? String == "Recycle Bin/Deleted" && $0["recycled"] as? Bool == true })
        let weak = try #require(findings.first { $0["problem"] as? String == "weak" })
        #expect(weak["score"] as? Int == 0 && weak["entropyBits"] is NSNumber && weak["pattern"] as? String != nil)
    }

    @Test("exit 0 and 'No problems found.' for a healthy vault; without --hibp nothing is breached")
    func healthyVault() throws {
        let scratch = try Scratch()
        var vault = Vault.new(name: "Fine", now: HealthTestVault.now)
        vault.format.kdf = .aes(rounds: 1_000)
        var entry = Entry(times: Times(all: HealthTestVault.now))
        entry.setValue("Site", for: Entry.StandardField.title)
        entry.setValue("sam", for: Entry.StandardField.userName)
        entry.setValue("Zq8!vR2#nW5@xT7&Lm", for: Entry.StandardField.password, isProtected: true)
        vault.root.entries = [entry]
        let key = try CompositeKey(password: ProtectedString("pw"), keyFileContents: nil)
        let path = try scratch.write("fine.kdbx", try KDBXCodec.save(vault, key: key))
        let result = try CLI.run(["analyze", path, "--time", Self.healthTime], stdin: "pw\n")
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText.hasSuffix("No problems found.\n"))
        let json = try CLI.run(["analyze", path, "--json"], stdin: "pw\n")
        #expect(json.status == 0)
        #expect((try parseJSON(json.stdoutText) as? [String: Any])?["findings"] as? [Any] != nil)
    }

    @Test("a damaged or missing HIBP list: exit 4 or 1 naming the line, before any password is asked")
    func damagedList() throws {
        let scratch = try Scratch()
        let (vault, _) = try Self.healthVault(scratch)
        var lines = Self.breachList(HealthTestVault.breached, fillers: 2_000, seed: 4).split(separator: 0x0A).map(Array.init)
        let cut = try scratch.write("cut.txt", Array(lines.joined(separator: [0x0A])).dropLast(25))
        lines[0][7] = UInt8(ascii: "?")
        let malformed = try scratch.write("malformed.txt", Array(lines.joined(separator: [0x0A])) + [0x0A])
        let reversed = try scratch.write("reversed.txt", Array(lines.dropFirst().reversed().joined(separator: [0x0A])) + [0x0A])
        for (file, status, message) in [
            (cut, Int32(4), "line \(lines.count) (byte "), (malformed, 4, "line 1 (byte 0): the hash is not 40 hex digits"),
            (reversed, 4, "the file is not sorted by hash"), (scratch.path("absent.txt"), 1, "cannot open"),
        ] {
            // No password on stdin: the list is checked first.
            let result = try CLI.run(["analyze", vault, "--hibp", file])
            #expect(result.status == status, "\(file): \(result.stderrText)")
            #expect(CLI.firstErrorLine(result).hasPrefix("Error: HIBP list '\(file)'"), "\(result.stderrText)")
            #expect(result.stderrText.contains(message), "\(result.stderrText)")
            #expect(result.stdoutText.isEmpty)
        }
    }

    // MARK: estimate

    @Test("estimate prints keepassxc-cli's first line: length, entropy bits, log10 of the guesses; -a the patterns; stdin and --json")
    func estimate() throws {
        let plain = try CLI.run(["estimate", "Tr0ub4dour&3"])
        #expect(plain.status == 0)
        // zxcvbn 4.4: 19,058,000 guesses.
        #expect(plain.stdoutText == "Length 12\tEntropy 24.184\tLog10 7.280\n")
        #expect(try CLI.run(["estimate"], stdin: "Tr0ub4dour&3\n").stdoutText == plain.stdoutText)
        let advanced = try CLI.run(["estimate", "-a", "Tr0ub4dour&3"])
        #expect(advanced.stdoutText == """
            Length 12\tEntropy 24.184\tLog10 7.280
              Score 2 (fair)
              Sequence extra bits 1.0
              Type: Dict+Leet        Length 10\tEntropy 16.539 (4.98)\tTr0ub4dour\t(US TV and film words, rank 11905)
              Type: Bruteforce       Length 2\tEntropy  6.644 (2.00)\t&3

            """)
        // zxcvbn 4.4's years with --reference-year 2017: ryanhunter2000 is 100,750,000 guesses.
        #expect(try CLI.run(["estimate", "--reference-year", "2017", "ryanhunter2000"]).stdoutText.hasSuffix("\tLog10 8.003\n"))
        let json = try #require(try parseJSON(try CLI.run(["estimate", "--json", "-a", "qwerty"]).stdoutText) as? [String: Any])
        #expect(json["score"] as? Int == 0 && json["length"] as? Int == 6)
        #expect((json["sequence"] as? [[String: Any]])?.first?["type"] as? String == "Dictionary")
        #expect(try CLI.run(["estimate"], stdin: "").status == 1)
        guard let tool = InteropTools.executable(named: "keepassxc-cli") else {
            if let message = InteropTools.missing("keepassxc-cli", test: "estimate") { Issue.record(Comment(rawValue: message)) }
            return
        }
        // The same first-line layout as keepassxc-cli (its numbers are zxcvbn-c's: see docs).
        for password in ["Tr0ub4dour&3", "correcthorsebatterystaple", "qwerty123", "x"] {
            let theirs = try runProcess(tool, ["estimate"], stdin: Array((password + "\n").utf8)).stdoutText
            let ours = try CLI.run(["estimate", password]).stdoutText
            func shape(_ line: String) -> String { line.replacingOccurrences(of: "[0-9]", with: "9", options: .regularExpression) }
            let theirLine = String(theirs.split(separator: "\n").first ?? "")
            #expect(shape(String(ours.dropLast())).split(separator: "\t").map { $0.split(separator: " ")[0] }
                    == shape(theirLine).split(separator: "\t").map { $0.split(separator: " ")[0] })
            #expect(ours.hasPrefix("Length \(password.count)\t") && theirLine.hasPrefix("Length \(password.count)\t"))
        }
    }

    // MARK: Memory

    #if os(Linux)
    @Test("after the analysis no clear copy of a reused, breached password is left in memory")
    func noCopyLeft() throws {
        let scratch = try Scratch()
        // A random password shared by two entries and listed as breached: estimated, hashed, compared.
        let secret = "Reused-" + randomLetters(25)
        // The control: an unprotected URL, a plain String in the model, which the scan must see.
        let control = "https://twins-" + randomLetters(20) + ".example"
        var vault = HealthTestVault.make()
        for title in ["Twin A", "Twin B"] {
            var entry = Entry(times: Times(all: HealthTestVault.now))
            entry.setValue(title, for: Entry.StandardField.title)
            entry.setValue("sam", for: Entry.StandardField.userName)
            entry.setValue(control, for: Entry.StandardField.url)
            entry.setValue(secret, for: Entry.StandardField.password, isProtected: true)
            vault.root.entries.append(entry)
        }
        let key = try CompositeKey(password: ProtectedString(HealthTestVault.masterPassword), keyFileContents: nil)
        let path = try scratch.write("twins.kdbx", try KDBXCodec.save(vault, key: key))
        var chosen = HealthTestVault.breached
        chosen[secret] = 12
        let hibp = try scratch.write("hibp.txt", Self.breachList(chosen, fillers: 100, seed: 8))
        var environment = SecurityCommandTests.environment
        environment["MYPASS_TEST_MEMORY_CHECK"] = "1"
        environment["MYPASS_TEST_MEMORY_ANALYZE"] = hibp
        environment["MYPASS_TEST_MEMORY_NEEDLES"] = [
            SecurityCommandTests.needle("secret", Array(secret.utf8)), SecurityCommandTests.needle("control", Array(control.utf8)),
            SecurityCommandTests.needle("secret-sha1", SHA1.hash(Array(secret.utf8))),
            SecurityCommandTests.needle("secret-utf32", secret.unicodeScalars.flatMap { scalar in
                (0..<4).map { UInt8(truncatingIfNeeded: scalar.value >> (8 * $0)) }
            }),
        ].joined(separator: ";")
        let result = try runProcess(CLI.binary, ["__memory-check", path], stdin: Array(Self.healthStdin.utf8), environment: environment)
        #expect(result.status == 0, "\(result.stderrText)")
        let report = result.stdoutText
        print("analyze memory: \(report.split(separator: "\n").joined(separator: ", "))")
        #expect(report.contains("findings "), "\(report)")
        let controlCount = report.split(separator: "\n").first { $0.hasPrefix("analyzed control ") }.flatMap { Int($0.split(separator: " ")[2]) }
        #expect((controlCount ?? 0) >= 1, "the scan sees the unprotected URL: \(report)")
        for line in ["unlocked secret 0", "analyzed secret 0", "analyzed secret-sha1 0", "analyzed secret-utf32 0",
                     "analyzed unreadable-bytes 0", "locked secret 0"] {
            #expect(report.contains(line + "\n"), "\(line): \(report)")
        }
    }
    #endif
}
