import Foundation
import MyPassBytes
import MyPassCrypto
import MyPassKDBX
import MyPassTestSupport
import Testing

/// Issue 20: what `mypass` guarantees about memory, core dumps, hostile KDF rounds, Ctrl-C,
/// error text, unbounded inputs and exported files.
@Suite("Security: memory after lock, core dumps, KDF rounds cap and Ctrl-C, error text, sizes, file modes")
struct SecurityCommandTests {
    static let environment: [String: String] = {
        var environment = ProcessInfo.processInfo.environment
        environment["MYPASS_NO_AGENT"] = "1"
        return environment
    }()

    /// A masked needle for `MYPASS_TEST_MEMORY_NEEDLES`.
    static func needle(_ name: String, _ bytes: [UInt8]) -> String {
        let mask = UInt8.random(in: 1...255)
        return "\(name)=\([mask].hexString):\(bytes.map { $0 ^ mask }.hexString)"
    }

    #if os(Linux)
    @Test("after lock, no copy of the password (UTF-8, UTF-16, SHA-256), the composite key, the transformed key or the key file's data and key; while unlocked, no password, password hash or key-file key")
    func memoryAfterLock() throws {
        let scratch = try Scratch()
        let vault = scratch.path("memory.kdbx"), keyFile = scratch.path("memory.keyx")
        // An unusual password, fresh each run, with non-ASCII letters so that UTF-16 differs.
        let password = "Zq" + randomLetters(18) + "-Ωmégä-" + randomLetters(6)
        let created = try runProcess(CLI.binary, ["create", vault, "--generate-keyfile", keyFile, "--kdf", "argon2id",
                                                  "--memory", "1MiB", "--iterations", "2", "--parallelism", "1"],
                                     stdin: Array((password + "\n").utf8), environment: Self.environment)
        #expect(created.status == 0, "\(created.stderrText)")
        let added = try runProcess(CLI.binary, ["add", vault, "Site", "--username", "someone", "--password-prompt", "--keyfile", keyFile],
                                   stdin: Array((password + "\nentry-secret-Xy7\n").utf8), environment: Self.environment)
        #expect(added.status == 0, "\(added.stderrText)")

        // What the test looks for, computed here.
        let keyFileBytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: keyFile)))
        let composite = try CompositeKey(password: ProtectedString(password), keyFileContents: keyFileBytes)
        let file = try [UInt8](Data(contentsOf: URL(fileURLWithPath: vault)))
        let header = try KDBXHeader.read(from: file[...]).header
        let transformed = try MasterKeys.transform(compositeKey: composite, kdf: header.kdf, limits: KDBXLimits())
        let text = String(decoding: keyFileBytes, as: UTF8.self)
        let dataStart = try #require(text.range(of: "\">\r\n\t\t\t")).upperBound
        let keyData = Array(text[dataStart...].utf8.prefix(17))  // "XXXXXXXX XXXXXXXX"
        #expect(keyData.count == 17 && keyData[8] == 0x20)
        let utf16 = password.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        // The composite key's inputs: SHA-256 of the password, and the key file's 32-byte key.
        let passwordHash = SHA256.hash(Array(password.utf8))
        let dataEnd = try #require(text.range(of: "</Data>")).lowerBound
        let rawKey = hexBytes(String(text[dataStart..<dataEnd].filter(\.isHexDigit)))
        #expect(rawKey.count == 32)
        var environment = Self.environment
        environment["MYPASS_TEST_MEMORY_CHECK"] = "1"
        environment["MYPASS_TEST_MEMORY_NEEDLES"] = [
            Self.needle("password-utf8", Array(password.utf8)), Self.needle("password-utf16", utf16),
            Self.needle("composite-key", composite.rawKey.unsafeArray), Self.needle("transformed-key", transformed.unsafeArray),
            Self.needle("keyfile-data", keyData), Self.needle("password-sha256", passwordHash), Self.needle("keyfile-key", rawKey),
        ].joined(separator: ";")

        let result = try runProcess(CLI.binary, ["__memory-check", vault, "--keyfile", keyFile],
                                    stdin: Array((password + "\n").utf8), environment: environment)
        #expect(result.status == 0, "\(result.stderrText)")
        var counts: [String: Int] = [:]
        for line in result.stdoutText.split(separator: "\n") {
            let words = line.split(separator: " ")
            if words.count == 3, words[0] == "unlocked" || words[0] == "locked", let count = Int(words[2]) {
                counts["\(words[0]) \(words[1])"] = count
            }
        }
        #expect(result.stdoutText.contains("entries 1 revealed 16"), "\(result.stdoutText)")
        // While unlocked: the composite key and the transformed key are kept (the scan finds them,
        // so it works), the password and the key-file data are not.
        #expect((counts["unlocked composite-key"] ?? 0) >= 1, "\(result.stdoutText)")
        #expect((counts["unlocked transformed-key"] ?? 0) >= 1, "\(result.stdoutText)")
        #expect(counts["unlocked password-utf8"] == 0, "\(result.stdoutText)")
        #expect(counts["unlocked password-utf16"] == 0, "\(result.stdoutText)")
        #expect(counts["unlocked keyfile-data"] == 0, "\(result.stdoutText)")
        #expect(counts["unlocked password-sha256"] == 0, "\(result.stdoutText)")
        #expect(counts["unlocked keyfile-key"] == 0, "\(result.stdoutText)")
        // Every readable mapping was read: a skipped range would count as clean.
        #expect(counts["unlocked unreadable-bytes"] == 0 && counts["locked unreadable-bytes"] == 0, "\(result.stdoutText)")
        // After lock: none of them anywhere.
        for name in ["password-utf8", "password-utf16", "composite-key", "transformed-key", "keyfile-data", "password-sha256", "keyfile-key"] {
            #expect(counts["locked \(name)"] == 0, "locked \(name): \(result.stdoutText)")
        }
    }

    @Test("mypass cannot be core-dumped: PR_SET_DUMPABLE 0 and RLIMIT_CORE 0")
    func coreDumpsOff() throws {
        var environment = Self.environment
        environment["MYPASS_TEST_MEMORY_CHECK"] = "1"
        environment["MYPASS_TEST_MEMORY_NEEDLES"] = Self.needle("none", [1, 2, 3, 4])
        // Started with core dumps allowed (soft limit raised to the hard one), so that the zero
        // limits seen inside are mypass's own doing, not the test machine's.
        let command = "ulimit -S -c \"$(ulimit -H -c)\"; echo \"before $(ulimit -S -c)\"; exec \"$0\" __memory-check"
        let result = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", command, CLI.binary.path], environment: environment)
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.first != nil && lines.first != "before 0", "\(result.stdoutText)")
        #expect(lines.dropFirst().first == "dumpable 0 core 0 0", "\(result.stdoutText)")
        // No warning: both settings held.
        #expect(!result.stderrText.contains("unable to disable core dumps"), "\(result.stderrText)")
        // Without the variable the command does not exist.
        let hidden = try runProcess(CLI.binary, ["__memory-check"], environment: Self.environment)
        #expect(hidden.status == 2)
    }
    #endif

    /// The KDBX 3.1 fixture with its TransformRounds (header field 6) set to `rounds`.
    static func vaultWithRounds(_ rounds: UInt64, in scratch: Scratch) throws -> String {
        var bytes = try TestVectors.bytes("kdbx/keepass/kdbx31-aes-aeskdf.kdbx")
        var offset = 12
        while offset + 3 <= bytes.count {
            let id = bytes[offset], length = Int(bytes[offset + 1]) | Int(bytes[offset + 2]) << 8
            if id == 6 {
                for index in 0..<8 { bytes[offset + 3 + index] = UInt8(truncatingIfNeeded: rounds >> (8 * UInt64(index))) }
                return try scratch.write("rounds.kdbx", bytes)
            }
            if id == 0 { break }
            offset += 3 + length
        }
        throw CocoaError(.fileReadCorruptFile)
    }

    @Test("a 3.1 header whose rounds were bit-flipped to a billion is refused at once, naming the limit and the flag")
    func hostileRoundsRefused() throws {
        let scratch = try Scratch()
        let vault = try Self.vaultWithRounds(60_000 | 1 << 30, in: scratch)
        let result = try runProcess(CLI.binary, ["ls", vault], stdin: Array("correct horse battery staple\n".utf8), environment: Self.environment)
        #expect(result.status == 4)
        #expect(result.stderrText.contains("AES-KDF rounds 1073801824 exceed the limit 200000000"), "\(result.stderrText)")
        #expect(result.stderrText.contains("--max-kdf-rounds"), "\(result.stderrText)")
        let usage = try runProcess(CLI.binary, ["ls", vault, "--max-kdf-rounds", "lots"], environment: Self.environment)
        #expect(usage.status == 2)
    }

    @Test("Ctrl-C during a long KDF ends mypass within a second of CPU, with exit code 130 and nothing written")
    func interruptDuringKDF() throws {
        let scratch = try Scratch()
        let vault = try Self.vaultWithRounds(60_000 | 1 << 30, in: scratch)
        let before = try Data(contentsOf: URL(fileURLWithPath: vault))
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["rm", vault, "General/Sample Entry", "--max-kdf-rounds", "2000000000"]
        process.environment = Self.environment
        let input = Pipe()
        let errURL = scratch.url.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let errHandle = try FileHandle(forWritingTo: errURL)
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errHandle
        try process.run()
        input.fileHandleForWriting.write(Data("correct horse battery staple\n".utf8))
        try input.fileHandleForWriting.close()
        // Wait until the KDF has used 0.3 s of CPU (it is the only long step), then press Ctrl-C.
        var ticks = 0
        for _ in 0..<600 where ticks < 30 && process.isRunning {
            usleep(50_000)
            ticks = Self.cpuTicks(process.processIdentifier)
        }
        #expect(process.isRunning, "mypass ended before the KDF ran long")
        let ticksAtInterrupt = Self.cpuTicks(process.processIdentifier)
        let interrupted = ContinuousClock.now
        kill(process.processIdentifier, SIGINT)
        // A billion rounds take minutes; the interrupt ends it. The CPU time it uses after the
        // signal (read every 10 ms while it runs) is the measure of "promptly": under a second.
        // The wall time also counts waiting for a core on a loaded machine, so its bound is
        // looser. (Killed after 60 s so that a failure cannot hang the suite.)
        var ticksAfter = ticksAtInterrupt
        for _ in 0..<6000 where process.isRunning {
            ticksAfter = max(ticksAfter, Self.cpuTicks(process.processIdentifier))
            usleep(10_000)
        }
        let wall = ContinuousClock.now - interrupted
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(ticksAfter - ticksAtInterrupt < 100, "\(ticksAfter - ticksAtInterrupt) ticks of CPU after Ctrl-C")
        #expect(wall < .seconds(5), "\(wall) from Ctrl-C to exit")
        try errHandle.close()
        let stderr = String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 130, "\(stderr)")
        #expect(stderr.contains("interrupted during the key derivation; nothing was written"), "\(stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: vault)) == before)
    }

    /// utime + stime of `pid` in clock ticks (`/proc/PID/stat` fields 14 and 15), 0 if unreadable.
    static func cpuTicks(_ pid: Int32) -> Int {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return 0 }
        return user + system
    }

    @Test("error text is bounded and carries no control characters, however long or odd the quoted input")
    func errorTextSanitized() throws {
        let path = "/tmp/no-such-\u{1B}[31mred\u{07}\u{9B}2J\u{202E}" + String(repeating: "x", count: 5000) + ".kdbx"
        let result = try runProcess(CLI.binary, ["ls", path], environment: Self.environment)
        #expect(result.status == 1)
        #expect(!result.stderr.contains(0x1B) && !result.stderr.contains(0x07))
        #expect(!result.stderrText.unicodeScalars.contains { (0x80...0x9F).contains($0.value) })
        #expect(result.stderr.count < 1100, "\(result.stderr.count) bytes")
        #expect(result.stderrText.hasPrefix("Error: cannot open vault '/tmp/no-such-?[31mred??2J?x"))  // U+202E too
        // The middle is cut: the end keeps the reason after the long path.
        #expect(result.stderrText.contains("bytes cut) … xxx"), "\(result.stderrText)")
        #expect(result.stderrText.hasSuffix("xxx.kdbx': no such file\n"), "\(result.stderrText)")
        #expect(result.stderrText.filter { $0 == "\n" }.count == 1)
        // Two long quoted values: each is shortened, the words between them stay.
        let scratch = try Scratch()
        let vault = try scratch.copy(Demo.vault)
        let title = "Work/" + String(repeating: "t", count: 3000)
        #expect(try CLI.run(["add", vault, title], stdin: Demo.stdin).status == 0)
        let missing = try CLI.run(["show", vault, title, "--field", String(repeating: "f", count: 5000)], stdin: Demo.stdin)
        #expect(missing.status == 1)
        let line = CLI.firstErrorLine(missing)
        let t = { (count: Int) in String(repeating: "t", count: count) }, f = { (count: Int) in String(repeating: "f", count: count) }
        #expect(line == "Error: entry 'Work/\(t(155)) … (2785 bytes cut) … \(t(60))' has no field '\(f(160)) … (4780 bytes cut) … \(f(60))'; its fields: 'Title', 'UserName', 'Password', 'URL', 'Notes'",
                "\(line)")
        // An apostrophe inside a value neither opens nor closes a quote.
        let apostrophe = "Work/Bob's " + t(3000)
        #expect(try CLI.run(["add", vault, apostrophe], stdin: Demo.stdin).status == 0)
        let named = CLI.firstErrorLine(try CLI.run(["show", vault, apostrophe, "--field", f(5000)], stdin: Demo.stdin))
        #expect(named == "Error: entry 'Work/Bob's \(t(149)) … (2791 bytes cut) … \(t(60))' has no field '\(f(160)) … (4780 bytes cut) … \(f(60))'; its fields: 'Title', 'UserName', 'Password', 'URL', 'Notes'",
                "\(named)")
        // Many short quoted values: the whole message is cut to its start and its end (the reason).
        let quotes = "/tmp/no-such-" + String(repeating: "x 'y' ", count: 400) + "end.kdbx"
        let many = CLI.firstErrorLine(try runProcess(CLI.binary, ["ls", quotes], environment: Self.environment))
        #expect(many.utf8.count <= 1000, "\(many.utf8.count) bytes")
        #expect(many.hasPrefix("Error: cannot open vault '/tmp/no-such-x 'y' x 'y' "), "\(many)")
        #expect(many.contains(" bytes cut) … "), "\(many)")
        #expect(many.hasSuffix("x 'y' end.kdbx': no such file"), "\(many)")
    }

    @Test("/dev/zero as the vault or the key file ends at once with a clear error")
    func unboundedInputs() throws {
        let vault = TestVectors.url("kdbx/keepass/kdbx4-pw-keyfile-v2.kdbx").path
        let asKeyFile = try runProcess(CLI.binary, ["ls", vault, "--keyfile", "/dev/zero"],
                                       stdin: Array("correct horse battery staple\n".utf8), environment: Self.environment)
        #expect(asKeyFile.status == 1)
        #expect(CLI.firstErrorLine(asKeyFile) == "Error: cannot read key file '/dev/zero'", "\(asKeyFile.stderrText)")
        // The document path (show, edit...) refuses a file that is not a regular file before reading.
        let asVault = try runProcess(CLI.binary, ["show", "/dev/zero", "x"], stdin: Array("x\n".utf8), environment: Self.environment)
        #expect(asVault.status == 1)
        #expect(CLI.firstErrorLine(asVault).contains("not a regular file"), "\(asVault.stderrText)")
        // So does the index path (ls, match): fstat first, not a byte read.
        let listed = try runProcess(CLI.binary, ["ls", "/dev/zero"], stdin: Array("x\n".utf8), environment: Self.environment)
        #expect(listed.status == 1)
        #expect(CLI.firstErrorLine(listed).contains("not a regular file"), "\(listed.stderrText)")
        // A FIFO with no writer, as the vault (index or document path) or the key file: refused
        // at once, not a hang in open(2). (Run under timeout(1) so that a regression fails.)
        let scratch = try Scratch()
        let fifo = scratch.path("fifo.kdbx")
        #expect(mkfifo(fifo, 0o600) == 0)
        for arguments in [["ls", fifo], ["show", fifo, "x"], ["ls", vault, "--keyfile", fifo]] {
            let started = ContinuousClock.now
            let result = try runProcess(URL(fileURLWithPath: "/usr/bin/timeout"), ["20", CLI.binary.path] + arguments,
                                        stdin: Array("correct horse battery staple\n".utf8), environment: Self.environment)
            #expect(result.status == 1, "\(arguments): \(result.stderrText)")
            #expect(ContinuousClock.now - started < .seconds(15), "\(arguments)")
            let line = CLI.firstErrorLine(result)
            #expect(line.contains("not a regular file") || line == "Error: cannot read key file '\(fifo)'", "\(arguments): \(line)")
        }
        // A password line from /dev/zero (no line break, ever) stops at 64 KiB with an error.
        let started = ContinuousClock.now
        let endless = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "exec \"$0\" ls \"$1\" < /dev/zero", CLI.binary.path, vault],
                                     environment: Self.environment)
        #expect(endless.status == 1)
        #expect(CLI.firstErrorLine(endless) == "Error: the password on standard input is longer than 64 KiB without a line break; nothing was read",
                "\(endless.stderrText)")
        #expect(ContinuousClock.now - started < .seconds(30))
        // 64 KiB exactly is still a password (a wrong one here).
        let long = try runProcess(CLI.binary, ["ls", vault], stdin: Array(repeating: UInt8(ascii: "a"), count: 64 * 1024) + [0x0A],
                                  environment: Self.environment)
        #expect(long.status == 3, "\(long.stderrText)")
    }

    @Test("notes quoting a path or a vault's text are made safe for the terminal: a stale temporary file beside a vault whose name holds an escape sequence, a title with a C1 control")
    func notesAreSanitized() throws {
        let scratch = try Scratch()
        let name = "v\u{1B}[31m\u{9B}2J.kdbx"
        let vault = try scratch.copy(Demo.vault, as: name)
        let stale = try scratch.write("." + name + ".mypass-0123456789abcdef.tmp", Array("copy".utf8))
        let result = try CLI.run(["ls", vault], stdin: Demo.stdin)
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(result.stderrText.contains("Note: removed '"), "\(result.stderrText)")
        #expect(result.stderrText.contains("v?[31m?2J.kdbx.mypass-0123456789abcdef.tmp', a copy of the vault left by an interrupted save."),
                "\(result.stderrText)")
        #expect(!result.stderr.contains(0x1B))
        #expect(!result.stderrText.unicodeScalars.contains { (0x80...0x9F).contains($0.value) })
        // A title with ESC, BEL and the one-byte CSI (U+009B): the save drops ESC and BEL (not
        // allowed in XML 1.0, as KeePass drops them), and the listing shows U+009B as a space.
        let added = try CLI.run(["add", vault, "Work/odd\u{1B}]0;x\u{07}\u{9B}2J"], stdin: Demo.stdin)
        #expect(added.status == 0, "\(added.stderrText)")
        let listed = try CLI.run(["ls", vault], stdin: Demo.stdin)
        #expect(listed.stdoutText.contains("odd]0;x 2J "), "\(listed.stdoutText)")
        #expect(!listed.stdout.contains(0x1B) && !listed.stdout.contains(0x07))
        #expect(!listed.stdoutText.unicodeScalars.contains { (0x80...0x9F).contains($0.value) })
    }

    @Test("result lines and the text view quote the vault's text made safe for the terminal; --field keeps the exact value")
    func resultLinesAreSanitized() throws {
        let scratch = try Scratch()
        let vault = try scratch.copy(Demo.vault)
        // U+009B (the one-byte CSI) and U+202E (right-to-left override) are legal in XML 1.0, so
        // the vault keeps them.
        let title = "odd\u{9B}2J\u{202E}cba"
        let notes = "first\u{9B}31m\r\nsecond\u{202E}"
        let added = try CLI.run(["add", vault, "Work/" + title, "--notes", notes], stdin: Demo.stdin)
        #expect(added.status == 0, "\(added.stderrText)")
        #expect(added.stdoutText.hasPrefix("Added entry 'Work/odd 2J cba' ("), "\(added.stdoutText)")
        #expect(try CLI.run(["edit", vault, "Work/" + title, "--username", "sam\nURL: https://evil.example\n"], stdin: Demo.stdin).status == 0)
        let shown = try CLI.run(["show", vault, "Work/" + title], stdin: Demo.stdin)
        // A user name is one line: its line break cannot pass for another field.
        #expect(shown.stdoutText.contains("UserName: sam URL: https://evil.example \n"), "\(shown.stdoutText)")
        #expect(!shown.stdoutText.contains("\nURL: https://evil"), "\(shown.stdoutText)")
        #expect(shown.stderrText.contains("Note: control characters in these values are shown as spaces; --field NAME prints a value exactly."),
                "\(shown.stderrText)")
        let clean = try CLI.run(["show", vault, "Work/GitHub"], stdin: Demo.stdin)
        #expect(clean.status == 0 && !clean.stderrText.contains("shown as spaces"), "\(clean.stderrText)")
        #expect(shown.status == 0, "\(shown.stderrText)")
        #expect(shown.stdoutText.contains("Notes: first 31m\n  second \n"), "\(shown.stdoutText)")
        #expect(shown.stdoutText.contains("Path: Work/odd 2J cba\n"), "\(shown.stdoutText)")
        let raw = try CLI.run(["show", vault, "Work/" + title, "--field", "Notes"], stdin: Demo.stdin)
        // The file keeps the notes as given, or with CR LF read back as LF (XML end-of-line handling).
        #expect(raw.stdoutText == notes + "\n" || raw.stdoutText == "first\u{9B}31m\nsecond\u{202E}\n", "\(raw.stdoutText.debugDescription)")
        // JSON escapes C1 controls and bidi characters (the parsed value is the same).
        let json = try CLI.run(["ls", vault, "--json"], stdin: Demo.stdin)
        #expect(json.stdoutText.contains("odd\\u009b2J\\u202ecba"), "\(json.stdoutText)")
        let removed = try CLI.run(["rm", vault, "Work/" + title], stdin: Demo.stdin)
        #expect(removed.status == 0, "\(removed.stderrText)")
        #expect(removed.stdoutText == "Moved entry 'Work/odd 2J cba' to the recycle bin.\n", "\(removed.stdoutText)")
        // passkey show: a vault value on one line, the PEM block on its lines.
        let passkey = try CLI.run(["passkey", "add", vault, "Work/PK", "--rp", "example.com", "--user", "bob\nalgorithm: eddsa\n"],
                                  stdin: Demo.stdin)
        #expect(passkey.status == 0, "\(passkey.stderrText)")
        let passkeyShown = try CLI.run(["passkey", "show", vault, "Work/PK"], stdin: Demo.stdin)
        #expect(passkeyShown.stdoutText.contains("username: bob algorithm: eddsa \n"), "\(passkeyShown.stdoutText)")
        #expect(passkeyShown.stdoutText.components(separatedBy: "\nalgorithm: ").count == 2, "\(passkeyShown.stdoutText)")
        #expect(passkeyShown.stdoutText.contains("publicKeyPem: \n-----BEGIN PUBLIC KEY-----\n"), "\(passkeyShown.stdoutText)")
        for output in [added, shown, removed, json, passkeyShown] {
            #expect(!output.stdoutText.unicodeScalars.contains { (0x80...0x9F).contains($0.value) || $0 == "\u{202E}" || $0 == "\r" })
        }
    }

    @Test("a password that cannot be read (standard input a directory: EISDIR) is an error naming why, not an empty password")
    func unreadablePasswordInput() throws {
        let command = "exec \"$0\" ls \"$1\" < /"
        let result = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", command, CLI.binary.path, TestVectors.url(Demo.vault).path],
                                    environment: Self.environment)
        #expect(result.status == 1)
        #expect(CLI.firstErrorLine(result) == "Error: cannot read the password from standard input: Is a directory",
                "\(result.stderrText)")
    }

    @Test("an exported attachment is readable by its owner only (mode 0600), also when it replaces a file")
    func attachmentExportMode() throws {
        let scratch = try Scratch()
        let vault = try scratch.copy(Demo.vault)
        let secret = try scratch.write("secret.txt", Array("recovery codes\n".utf8))
        let imported = try runProcess(CLI.binary, ["attachment", "import", vault, "Work/GitHub", "codes.txt", secret],
                                      stdin: Array(Demo.stdin.utf8), environment: Self.environment)
        #expect(imported.status == 0, "\(imported.stderrText)")
        let target = scratch.path("out.txt")
        for round in 0..<2 {  // created, then replacing an existing 0644 file
            if round == 1 { try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target) }
            let exported = try runProcess(CLI.binary, ["attachment", "export", vault, "Work/GitHub", "codes.txt", target] + (round == 1 ? ["--force"] : []),
                                          stdin: Array(Demo.stdin.utf8), environment: Self.environment)
            #expect(exported.status == 0, "\(exported.stderrText)")
            let mode = try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int
            #expect(mode == 0o600, "round \(round)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("recovery codes\n".utf8))
        }
        // No temporary file stays beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted() == ["demo.kdbx", "out.txt", "secret.txt"])
    }
}
