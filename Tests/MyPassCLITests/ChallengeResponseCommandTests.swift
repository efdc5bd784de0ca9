import Foundation
import MyPassTestSupport
import Testing

/// Stand-ins for Debian's `ykchalresp` and `ykinfo` (yubikey-personalization) on `PATH`: they
/// answer as YubiKeys whose HMAC-SHA1 slots hold the secrets of `FAKE_YK_SECRETS` (one per key,
/// comma-separated, serial numbers in `FAKE_YK_SERIALS`), slot `FAKE_YK_SLOT` (default 2) in
/// variable-length mode: the 64-byte block without its trailing run of its last byte. Every call
/// is logged to `FAKE_YK_LOG`; `FAKE_YK_ABSENT=1` is "no key inserted", and `FAKE_YK_FAIL_AFTER=N`
/// answers N calls, then fails so (its count in `FAKE_YK_LOG`).
enum YubiKeyStandIn {
    static let ykchalresp = """
        #!/usr/bin/env python3
        import hashlib, hmac, os, sys
        log = os.environ["FAKE_YK_LOG"]
        calls = open(log).read().count("\\n") if os.path.exists(log) else 0
        with open(log, "a") as f:
            f.write(" ".join(sys.argv[1:]) + "\\n")
        limit = os.environ.get("FAKE_YK_FAIL_AFTER")
        if os.environ.get("FAKE_YK_ABSENT") == "1" or (limit is not None and calls >= int(limit)):
            sys.stderr.write("Yubikey core error: no yubikey present\\n")
            sys.exit(1)
        slot, hexadecimal, index, challenge = None, False, 0, None
        for argument in sys.argv[1:]:
            if argument in ("-1", "-2"): slot = argument[1]
            elif argument == "-x": hexadecimal = True
            elif argument.startswith("-n"): index = int(argument[2:])
            elif not argument.startswith("-"): challenge = argument
        if slot != os.environ.get("FAKE_YK_SLOT", "2") or not hexadecimal or challenge is None:
            sys.stderr.write("Yubikey core error: unexpected arguments\\n")
            sys.exit(1)
        block = bytes.fromhex(challenge)
        block += bytes(64 - len(block))
        end = len(block)
        while end > 0 and block[end - 1] == block[-1]:
            end -= 1
        secret = bytes.fromhex(os.environ["FAKE_YK_SECRETS"].split(",")[index])
        print(hmac.new(secret, block[:end], hashlib.sha1).hexdigest())
        """

    static let ykinfo = """
        #!/usr/bin/env python3
        import os, sys
        index = 0
        for argument in sys.argv[1:]:
            if argument.startswith("-n"): index = int(argument[2:])
        serials = os.environ.get("FAKE_YK_SERIALS", "").split(",")
        if index >= len(serials) or not serials[index]:
            sys.stderr.write("Yubikey core error: no yubikey present\\n")
            sys.exit(1)
        print(serials[index])
        """

    /// A response command: the same emulation from `MYPASS_CHALLENGE_PADDED`, secret `FAKE_YK_SECRETS`.
    static let respond = """
        #!/usr/bin/env python3
        import hashlib, hmac, os, sys
        block = bytes.fromhex(os.environ["MYPASS_CHALLENGE_PADDED"])
        assert block.startswith(bytes.fromhex(os.environ["MYPASS_CHALLENGE"])) and len(block) == 64
        end = len(block)
        while end > 0 and block[end - 1] == block[-1]:
            end -= 1
        print(hmac.new(bytes.fromhex(os.environ["FAKE_YK_SECRETS"].split(",")[0]), block[:end], hashlib.sha1).hexdigest())
        """
}

/// An independent reader of what `mypass` wrote, in Python with `cryptography`: the challenge from
/// the header (KDBX 4: the KDF seed `S` of field 11; 3.1: the master seed, field 4), the response
/// with `hmac`; `keyfile OUT` writes SHA-256(response) (the key file that stands for the
/// component in KDBX 4), `decrypt` decrypts a KDBX 3.1 file (AES-KDF, AES-256-CBC, hashed blocks,
/// gzip) and prints its XML.
enum IndependentReader {
    static let script = """
        import gzip, hashlib, hmac, struct, sys
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
        path, password, secret, mode = sys.argv[1:5]
        data = open(path, "rb").read()
        assert struct.unpack("<II", data[:8]) == (0x9AA2D903, 0xB54BFB67)
        major = struct.unpack("<H", data[10:12])[0]
        fields, pos, field = {}, 12, None
        while field != 0:
            field = data[pos]
            if major >= 4:
                size = struct.unpack("<I", data[pos + 1:pos + 5])[0]; start = pos + 5
            else:
                size = struct.unpack("<H", data[pos + 1:pos + 3])[0]; start = pos + 3
            fields[field] = data[start:start + size]
            pos = start + size
        if major >= 4:
            dictionary, p, items = fields[11], 2, {}
            while dictionary[p] != 0:
                p += 1
                n = struct.unpack("<I", dictionary[p:p + 4])[0]; name = dictionary[p + 4:p + 4 + n].decode(); p += 4 + n
                n = struct.unpack("<I", dictionary[p:p + 4])[0]; items[name] = dictionary[p + 4:p + 4 + n]; p += 4 + n
            challenge = items["S"]
        else:
            challenge = fields[4]
        assert len(challenge) == 32 and challenge[-1] not in (0x00, 0x20), "a challenge MyPass writes is padding-neutral"
        response = hmac.new(bytes.fromhex(secret), challenge, hashlib.sha1).digest()
        if mode == "keyfile":
            open(sys.argv[5], "wb").write(hashlib.sha256(response).digest())
            sys.exit(0)
        assert major == 3
        seed, rounds = fields[5], struct.unpack("<Q", fields[6])[0]
        transformed = hashlib.sha256(hashlib.sha256(password.encode()).digest()).digest()
        aes = Cipher(algorithms.AES(seed), modes.ECB()).encryptor()
        for _ in range(rounds):
            transformed = aes.update(transformed)
        transformed = hashlib.sha256(transformed).digest()
        key = hashlib.sha256(fields[4] + hashlib.sha256(response).digest() + transformed).digest()
        decryptor = Cipher(algorithms.AES(key), modes.CBC(fields[7])).decryptor()
        plain = decryptor.update(data[pos:]) + decryptor.finalize()
        plain = plain[:-plain[-1]]
        assert plain[:32] == fields[9], "stream start bytes"
        p, body = 32, b""
        while True:
            digest, n = plain[p + 4:p + 36], struct.unpack("<I", plain[p + 36:p + 40])[0]; p += 40
            if n == 0: break
            assert hashlib.sha256(plain[p:p + n]).digest() == digest, "block hash"
            body += plain[p:p + n]; p += n
        if struct.unpack("<I", fields[3])[0] == 1:
            body = gzip.decompress(body)
        sys.stdout.write(body.decode())
        """
}

@Suite("mypass with a hardware key: ykchalresp stand-in, software secret, response command, passwd, agent")
struct ChallengeResponseCommandTests {
    let scratch: Scratch
    let log: String
    var environment: [String: String]
    static let secrets = ["0102030405060708090a0b0c0d0e0f1011121314", "f00df00df00df00df00df00df00df00df00df00d"]
    /// A cheap KDBX 4 vault (Argon2d, 1 MiB, one pass).
    static let cheap = ["--kdf", "argon2d", "--memory", "1MiB", "--iterations", "1", "--parallelism", "1"]

    init() throws {
        scratch = try Scratch()
        let stubs = scratch.path("bin")
        try FileManager.default.createDirectory(atPath: stubs, withIntermediateDirectories: true)
        for (name, text) in [("ykchalresp", YubiKeyStandIn.ykchalresp), ("ykinfo", YubiKeyStandIn.ykinfo),
                             ("respond", YubiKeyStandIn.respond)] {
            let path = stubs + "/" + name
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        }
        log = scratch.path("yk.log")
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = stubs + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["MYPASS_NO_AGENT"] = "1"
        environment["FAKE_YK_LOG"] = log
        environment["FAKE_YK_SECRETS"] = Self.secrets.joined(separator: ",")
        self.environment = environment
    }

    @discardableResult
    func mypass(_ arguments: [String], stdin: String = "pw\n", extra: [String: String] = [:], status: Int32 = 0) throws -> ProcessResult {
        let result = try runProcess(CLI.binary, arguments, stdin: Array(stdin.utf8), environment: environment.merging(extra) { $1 })
        #expect(result.status == status, "mypass \(arguments): \(result.stderrText)")
        return result
    }

    /// The stand-in's calls so far, one line of arguments each.
    var calls: [String] {
        ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    func secretFile(_ index: Int) throws -> String { try scratch.write("secret\(index).hex", Array((Self.secrets[index] + "\n").utf8)) }

    @Test("the fixtures open through ykchalresp (64 padded bytes), a response command and a secret file; without the key the error says how")
    func fixtures() throws {
        let rs = try scratch.copy("kdbx/thirdparty/keepass-rs/test_db_with_challenge_response_key.kdbx")
        let listed = try mypass(["ls", rs, "--yubikey", "2"], stdin: "demopass\n")
        #expect(listed.stdoutText.split(separator: "\n").map { $0.split(separator: " ").first.map(String.init) ?? "" }.sorted()
                == ["entry1", "entry2"])
        let challenge = "22790799f65883d95602d10c6e6ca0f031e081aab7df4c2cf7938561344fd86e"
        #expect(calls == ["-2 -x " + challenge + String(repeating: "20", count: 32)])
        #expect(listed.stderrText.contains("Touch the YubiKey (slot 2)"))
        try mypass(["ls", rs, "--challenge-response-secret-file", try secretFile(0)], stdin: "demopass\n")

        let yubiKey4 = try scratch.copy("kdbx/thirdparty/kdbxweb/YubiKey4.kdbx")
        let shown = try mypass(["show", yubiKey4, "Demo entry", "--challenge-response-command", "echo ae7244b336f3360e4669ec9eaf4ddc23785aef03"],
                               stdin: "demo\n")
        #expect(shown.stdoutText.contains("hello"))
        let yubiKey3 = try scratch.copy("kdbx/thirdparty/kdbxweb/YubiKey3.kdbx")
        let tree = try mypass(["ls", yubiKey3, "--paths", "--challenge-response-command", "echo 18350f73193e1c89211921d3016bfe3ddfc54d3e"],
                              stdin: "demo\n")
        #expect(tree.stdoutText == "Sample Group/Sample\n")

        // The password alone: wrong key (3), and the error says how to give a hardware key.
        let alone = try mypass(["ls", yubiKey3], stdin: "demo\n", status: 3)
        #expect(alone.stderrText == "Error: cannot open '\(yubiKey3)': wrong password or key file" + ErrorTests.hardwareKeyHint + "\n")
        // A wrong response: wrong key, naming the hardware key among the suspects.
        let wrong = try mypass(["ls", yubiKey3, "--challenge-response-command", "echo " + String(repeating: "ab", count: 20)],
                               stdin: "demo\n", status: 3)
        #expect(wrong.stderrText.hasSuffix("wrong password, key file or hardware key\n"))
        // No key inserted, a failing command, an answer that is not a response.
        let absent = try mypass(["ls", rs, "--yubikey", "2"], stdin: "demopass\n", extra: ["FAKE_YK_ABSENT": "1"], status: 3)
        #expect(absent.stderrText.contains("ykchalresp failed: Yubikey core error: no yubikey present"))
        let failing = try mypass(["ls", rs, "--challenge-response-command", "echo unplugged >&2; exit 7"], stdin: "demopass\n", status: 3)
        #expect(failing.stderrText.contains("the challenge-response command failed: unplugged"))
        let garbage = try mypass(["ls", rs, "--challenge-response-command", "echo 1234"], stdin: "demopass\n", status: 3)
        #expect(garbage.stderrText.contains("did not print a 20-byte response as 40 hex digits") && !garbage.stderrText.contains("1234"))
        // Usage errors before anything is asked.
        try mypass(["ls", rs, "--yubikey", "3"], stdin: "", status: 2)
        try mypass(["ls", rs, "--yubikey", "2", "--challenge-response-secret-file", try secretFile(0)], stdin: "", status: 2)
        let badSecret = try scratch.write("bad.hex", Array("0102\n".utf8))
        let refused = try mypass(["ls", rs, "--challenge-response-secret-file", badSecret], stdin: "", status: 1)
        #expect(refused.stderrText.contains("40 hex digits, or as 20 bytes") && !refused.stderrText.contains("0102"))
    }

    @Test("KDBX 4: every save asks ykchalresp again; keepassxc-cli opens the file with SHA-256(response) as its key file; no key at save writes nothing")
    func kdbx4Saves() throws {
        let vault = scratch.path("v.kdbx")
        try mypass(["create", vault, "--yubikey", "2"] + Self.cheap)
        #expect(calls.count == 1)
        let added = try mypass(["add", vault, "GitHub", "--username", "octocat", "--yubikey", "2"])
        #expect(calls.count == 3)  // the open, then the save's new challenge
        #expect(added.stderrText.contains("draws a new challenge: the hardware key is asked again"))
        #expect(calls[0] == calls[1] && calls[2] != calls[1], "the open answered create's challenge, the save a new one")

        if let python = InteropTools.python(withModules: ["cryptography"]) {
            let keyFile = scratch.path("response.key")
            let made = try InteropTools.runPython(python, IndependentReader.script, [vault, "pw", Self.secrets[0], "keyfile", keyFile])
            #expect(made.status == 0, "\(made.stderrText)")
            if let listed = try Interop.keepassxc(["ls", "-k", keyFile, vault], password: "pw", test: "kdbx4Saves") {
                #expect(listed.status == 0, "\(listed.stderrText)")
                #expect(listed.stdoutText.contains("GitHub"))
            }
        } else if let message = InteropTools.missing("python3 with cryptography", test: "kdbx4Saves") {
            Issue.record(Comment(rawValue: message))
        }

        // The key answers the open, then is gone: nothing written, no temporary file left.
        try FileManager.default.removeItem(atPath: log)
        let before = try bytes(vault)
        let failed = try mypass(["edit", vault, "GitHub", "--url", "https://github.com", "--yubikey", "2"],
                                extra: ["FAKE_YK_FAIL_AFTER": "1"], status: 1)
        #expect(failed.stderrText.contains("cannot save '\(vault)': the hardware key did not answer"))
        #expect(failed.stderrText.contains("no yubikey present") && failed.stderrText.contains("nothing was written"))
        #expect(try bytes(vault) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0.hasSuffix(".tmp") }.isEmpty)
        #expect(calls.count == 2)
    }

    @Test("KDBX 3.1: a save with the software secret decrypts in Python (final key = SHA-256(master seed ‖ SHA-256(response) ‖ transformed key)) and through the stand-in")
    func kdbx31Saves() throws {
        let vault = scratch.path("v31.kdbx")
        let secret = try secretFile(0)
        try mypass(["create", vault, "--format", "3.1", "--kdf", "aes", "--rounds", "2000", "--challenge-response-secret-file", secret])
        try mypass(["add", vault, "Forum", "--username", "ada", "--challenge-response-secret-file", secret])
        #expect(Array(try bytes(vault)[8..<12]) == [1, 0, 3, 0])
        if let python = InteropTools.python(withModules: ["cryptography"]) {
            let read = try InteropTools.runPython(python, IndependentReader.script, [vault, "pw", Self.secrets[0], "decrypt"])
            #expect(read.status == 0, "\(read.stderrText)")
            #expect(read.stdoutText.contains("<Value>Forum</Value>") && read.stdoutText.contains("<Value>ada</Value>"))
        } else if let message = InteropTools.missing("python3 with cryptography", test: "kdbx31Saves") {
            Issue.record(Comment(rawValue: message))
        }
        let listed = try mypass(["ls", vault, "--yubikey", "2"])
        #expect(listed.stdoutText.contains("Forum") && calls.count == 1)
        try mypass(["ls", vault], status: 3)
    }

    @Test("passwd adds, replaces and removes the hardware key; :serial picks the key by ykinfo")
    func passwd() throws {
        let vault = scratch.path("p.kdbx")
        try mypass(["create", vault] + Self.cheap)
        let added = try mypass(["passwd", vault, "--new-challenge-response-secret-file", try secretFile(0)], stdin: "pw\npw2\n")
        #expect(added.stdoutText.contains("it now opens with a password and a hardware key (challenge-response)"))
        try mypass(["ls", vault], stdin: "pw2\n", status: 3)
        try mypass(["ls", vault, "--yubikey", "2"], stdin: "pw2\n")

        // Replaced by the second key of two plugged in, picked by its serial number.
        let serials = ["FAKE_YK_SERIALS": "111,222"]
        try mypass(["passwd", vault, "--yubikey", "2", "--new-yubikey", "2:222"], stdin: "pw2\npw3\n", extra: serials)
        #expect(calls.last?.hasPrefix("-n1 -2 -x ") == true)
        try mypass(["ls", vault, "--challenge-response-secret-file", try secretFile(0)], stdin: "pw3\n", status: 3)
        try mypass(["ls", vault, "--challenge-response-secret-file", try secretFile(1)], stdin: "pw3\n")
        let missing = try mypass(["ls", vault, "--yubikey", "2:333"], stdin: "pw3\n", extra: serials, status: 3)
        #expect(missing.stderrText.contains("no YubiKey with serial number 333 is plugged in"))
        // The response command keeps it (no new-* option) while the password changes.
        try mypass(["passwd", vault, "--challenge-response-command", scratch.path("bin/respond")], stdin: "pw3\npw4\n",
                   extra: ["FAKE_YK_SECRETS": Self.secrets[1]])
        try mypass(["ls", vault, "--yubikey", "2:222"], stdin: "pw4\n", extra: serials)

        // Removed: the password alone opens it again.
        try mypass(["passwd", vault, "--yubikey", "2:222", "--remove-challenge-response"], stdin: "pw4\npw5\n", extra: serials)
        try mypass(["ls", vault], stdin: "pw5\n")
        try mypass(["passwd", vault, "--new-yubikey", "2", "--remove-challenge-response"], stdin: "", status: 2)
    }

    @Test("the agent keeps the key: later commands ask no touch; a save needs --yubikey again and asks once")
    func agent() throws {
        let sandbox = try AgentSandbox()
        let extra = ["PATH": environment["PATH"]!, "FAKE_YK_LOG": log, "FAKE_YK_SECRETS": environment["FAKE_YK_SECRETS"]!]
        let vault = sandbox.scratch.path("a.kdbx")
        func run(_ arguments: [String], stdin: String = "", status: Int32 = 0) throws -> ProcessResult {
            let result = try sandbox.run(arguments, stdin: stdin, extra: extra)
            #expect(result.status == status, "mypass \(arguments): \(result.stderrText)")
            return result
        }
        _ = try run(["create", vault, "--yubikey", "2"] + Self.cheap, stdin: "pw\n")
        _ = try run(["unlock", vault, "--yubikey", "2"], stdin: "pw\n")
        #expect(calls.count == 2)
        let listed = try run(["ls", vault])
        #expect(listed.stdoutText.isEmpty && calls.count == 2)
        let before = try bytes(vault)
        let refused = try run(["add", vault, "Mail", "--username", "u"], status: 1)
        #expect(refused.stderrText.contains("give --yubikey SLOT[:SERIAL]"))
        #expect(try bytes(vault) == before)
        _ = try run(["add", vault, "Mail", "--username", "u", "--yubikey", "2"])
        #expect(calls.count == 3)
        // The agent learnt the new transformed key: no touch to read the saved file.
        let after = try run(["ls", vault])
        #expect(after.stdoutText.contains("Mail") && calls.count == 3)
        _ = try run(["lock"])
    }
}
