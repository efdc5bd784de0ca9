import Foundation
import MyPassTestSupport
import Testing

/// Failures and their exit codes: wrong keys (3), missing files (1), read-only directories (1),
/// corrupted or unsupported vaults (4); each one line on stderr, never a secret.
@Suite("mypass failures")
struct ErrorTests {
    /// What a wrong-key error adds when no hardware key was given (issue 31): such a vault fails
    /// like a wrong password, so the error says how to give one.
    static let hardwareKeyHint = "; if it also needs a hardware key (YubiKey challenge-response), give --yubikey SLOT[:SERIAL], --challenge-response-secret-file FILE or --challenge-response-command COMMAND"

    @Test("a wrong password exits 3 with one line")
    func wrongPassword() throws {
        let scratch = try Scratch()
        let vault = try scratch.copy(Demo.vault)
        let result = try CLI.run(["ls", vault], stdin: "not-the-password\n")
        #expect(result.status == 3)
        #expect(result.stderrText == "Error: cannot open '\(vault)': wrong password or key file\(ErrorTests.hardwareKeyHint)\n")
        #expect(result.stdout.isEmpty)
        #expect(!result.stderrText.contains("not-the-password"))
    }

    @Test("wrong or missing key files exit 3", arguments: [
        // (fixture, password on stdin or nil for --no-password, key file below Vectors/kdbx/ or nil)
        ("kdbx4-pw-keyfile-v2", "correct horse battery staple", "keepass/keyfile-v1.key"),
        ("kdbx4-pw-keyfile-v2", "correct horse battery staple", nil),
        ("kdbx4-keyfile-only", nil, "keepass/keyfile-hex64.key"),
        ("kdbx4-keyfile-only", "correct horse battery staple", nil),
        ("kdbx31-keyfile-only", nil, "keepass/keyfile-v2.keyx"),
        ("kdbx4-empty-password", "x", nil),
        ("kdbx31-aes-aeskdf", "Correct horse battery staple", nil),
    ] as [(String, String?, String?)])
    func wrongKeys(_ stem: String, _ password: String?, _ keyFile: String?) throws {
        let scratch = try Scratch()
        let fixture = Fixture.named(stem)
        let vault = try scratch.copy(fixture.vaultPath)
        var arguments = ["ls", vault]
        if let keyFile { arguments += ["--keyfile", TestVectors.url("kdbx/" + keyFile).path] }
        if password == nil { arguments.append("--no-password") }
        let result = try CLI.run(arguments, stdin: password.map { $0 + "\n" } ?? "")
        #expect(result.status == 3, "\(result.stderrText)")
        #expect(result.stderrText == "Error: cannot open '\(vault)': wrong password or key file\(ErrorTests.hardwareKeyHint)\n")
    }

    @Test("the right key file opens, also alone with --no-password")
    func rightKeyFiles() throws {
        for stem in ["kdbx4-keyfile-only", "kdbx31-keyfile-only", "kdbx4-pw-keyfile-binary32", "kdbx4-empty-password", "kdbx4-unicode-password"] {
            let fixture = Fixture.named(stem)
            let scratch = try Scratch()
            let vault = try scratch.copy(fixture.vaultPath)
            let result = try CLI.run(["ls", vault] + fixture.keyArguments, stdin: fixture.stdin)
            #expect(result.status == 0, "\(stem): \(result.stderrText)")
            // 28 entries, one of them in the recycle bin, which the unfiltered list leaves out.
            #expect(result.stdoutText.split(separator: "\n").count == 27, "\(stem)")
        }
    }

    @Test("missing files exit 1 before any password is read")
    func missingFiles() throws {
        let scratch = try Scratch()
        let missing = scratch.path("nope.kdbx")
        let result = try CLI.run(["ls", missing], stdin: "")
        #expect(result.status == 1)
        #expect(result.stderrText == "Error: cannot open vault '\(missing)': no such file\n")
        let vault = try scratch.copy(Demo.vault)
        let keyFile = scratch.path("nope.key")
        let noKey = try CLI.run(["ls", vault, "--keyfile", keyFile], stdin: Demo.stdin)
        #expect(noKey.status == 1)
        #expect(noKey.stderrText == "Error: cannot open key file '\(keyFile)': no such file\n")
        let directory = try CLI.run(["ls", scratch.url.path], stdin: Demo.stdin)
        #expect(directory.status == 1)
        #expect(directory.stderrText == "Error: cannot open vault '\(scratch.url.path)': it is a directory\n")
        let attach = try CLI.run(["attachment", "import", vault, "Work/GitHub", "x", scratch.path("nope.bin")], stdin: Demo.stdin)
        #expect(attach.status == 1)
        #expect(attach.stderrText == "Error: cannot open file '\(scratch.path("nope.bin"))': no such file\n")
    }

    @Test("no password on standard input exits 1")
    func noPassword() throws {
        let scratch = try Scratch()
        let vault = try scratch.copy(Demo.vault)
        let result = try CLI.run(["ls", vault], stdin: "")
        #expect(result.status == 1)
        #expect(result.stderrText == "Error: no password on standard input (use --no-password for a key-file-only vault)\n")
    }

    @Test("corrupted and unsupported files exit 4")
    func corrupted() throws {
        let scratch = try Scratch()
        let original = try TestVectors.bytes(Demo.vault)
        var cases: [(String, [UInt8])] = []
        var flipped = original
        flipped[flipped.count - 40] ^= 0x01  // inside the last HMAC block's ciphertext
        cases.append(("payload bit flip", flipped))
        cases.append(("truncated payload", Array(original.prefix(original.count - 100))))
        cases.append(("not a vault", Array("hello, I am a text file\n".utf8)))
        cases.append(("empty file", []))
        var version = original
        version[10] = 9  // major version 9
        cases.append(("unknown major version", version))
        for (name, bytes) in cases {
            let path = try scratch.write("case.kdbx", bytes)
            let result = try CLI.run(["ls", path], stdin: Demo.stdin)
            #expect(result.status == 4, "\(name): \(result.stderrText)")
            #expect(result.stderrText.hasPrefix("Error: cannot open '\(path)': "), "\(name)")
            #expect(result.stderrText.split(separator: "\n").count == 1, "\(name): \(result.stderrText)")
            #expect(!result.stderrText.contains("demo"), "\(name)")
        }
    }

    @Test("a failed save (read-only directory) exits 1 and leaves the vault as it was")
    func readOnlyDirectory() throws {
        let scratch = try Scratch()
        let directory = scratch.url.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let vault = directory.appendingPathComponent("demo.kdbx").path
        try FileManager.default.copyItem(atPath: TestVectors.url(Demo.vault).path, toPath: vault)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path) }
        let before = try Data(contentsOf: URL(fileURLWithPath: vault))
        // root ignores directory permissions: run the binary as nobody then.
        var executable = CLI.binary
        var arguments = ["add", vault, "Work/New", "--username", "x"]
        if geteuid() == 0 {
            guard let setpriv = InteropTools.executable(named: "setpriv") else {
                if let message = InteropTools.missing("setpriv (running as root)", test: "readOnlyDirectory") { Issue.record(Comment(rawValue: message)) }
                return
            }
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scratch.url.path)
            executable = setpriv
            arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", CLI.binary.path] + arguments
        }
        let result = try runProcess(executable, arguments, stdin: Array(Demo.stdin.utf8))
        #expect(result.status == 1, "\(result.stderrText)")
        // Refused before anything is asked or written.
        #expect(result.stderrText.hasPrefix("Error: cannot change '\(vault)': "))
        #expect(result.stderrText.split(separator: "\n").count == 1, "\(result.stderrText)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: vault)) == before)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files == ["demo.kdbx"])
    }

    @Test("a missing entry or group in a changing command exits 1 and changes nothing")
    func missingTargets() throws {
        let scratch = try Scratch()
        let vault = try scratch.copy(Demo.vault)
        let before = try Data(contentsOf: URL(fileURLWithPath: vault))
        let cases: [([String], String)] = [
            (["rm", vault, "Work/Nope"], "Error: no entry 'Work/Nope'\n"),
            (["mv", vault, "Work/GitHub", "Nope"], "Error: no group 'Nope'\n"),
            (["add", vault, "Nope/Entry"], "Error: no group 'Nope'\n"),
            (["mkdir", vault, "Nope/Sub"], "Error: no group 'Nope'\n"),
            (["mkdir", vault, "Work"], "Error: group 'Work' already exists\n"),
            (["rmdir", vault, "/"], "Error: the root group cannot be deleted\n"),
            (["attachment", "rm", vault, "Work/GitHub", "nope.txt"], "Error: entry 'Work/GitHub' has no attachment 'nope.txt'\n"),
            (["attachment", "export", vault, "Work/GitHub", "nope.txt"], "Error: entry 'Work/GitHub' has no attachment 'nope.txt'\n"),
        ]
        for (arguments, message) in cases {
            let result = try CLI.run(arguments, stdin: Demo.stdin)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderrText == message, "\(arguments)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: vault)) == before)
    }
}
