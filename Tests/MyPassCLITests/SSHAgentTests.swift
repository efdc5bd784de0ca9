import Foundation
import MyPassTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `mypass ssh-agent` with OpenSSH as the oracle: `ssh-add`, `ssh-keygen -Y sign/verify`, a real
/// login to an `sshd` started here on 127.0.0.1, and hostile clients on the socket. The vault is
/// `Vectors/ssh/keeagent.kdbx` (written by keepassxc-cli, keys by ssh-keygen and OpenSSL).
@Suite("mypass ssh-agent: the vault's SSH keys served to OpenSSH")
struct SSHAgentTests {
    static let vaultPassword = "ssh-agent-test"
    /// The entries added at unlock, and the key file of each.
    static let addedAtUnlock: [(entry: String, key: String)] = [
        ("ed25519", "ed25519"), ("ed25519-encrypted", "ed25519-encrypted"), ("ecdsa", "ecdsa"),
        ("ecdsa-encrypted", "ecdsa-encrypted"), ("rsa-2048", "rsa-2048"), ("rsa-3072-encrypted", "rsa-3072-encrypted"),
        ("rsa-4096", "rsa-4096"), ("rsa-4096-encrypted", "rsa-4096-encrypted"), ("ecdsa-sec1", "ecdsa-sec1"),
        ("rsa-pkcs1", "rsa-pkcs1"), ("rsa-pkcs8", "rsa-pkcs8"), ("ed25519-pkcs8", "ed25519-pkcs8"),
        ("ecdsa-pkcs8", "ecdsa-pkcs8"), ("ed25519-cbc", "ed25519-cbc"),
    ]

    /// The OpenSSH tools, or a visible skip (a failure under `MYPASS_REQUIRE_INTEROP=1`).
    static func tools(_ test: String) -> (sshAdd: URL, sshKeygen: URL)? {
        guard let add = InteropTools.executable(named: "ssh-add"), let keygen = InteropTools.executable(named: "ssh-keygen") else {
            if let message = InteropTools.missing("ssh-add and ssh-keygen (openssh-client)", test: test) {
                Issue.record(Comment(rawValue: message))
            }
            return nil
        }
        return (add, keygen)
    }

    /// A sandboxed agent with the fixture vault, and `mypass ssh-agent` run on it.
    final class Setup {
        let sandbox: AgentSandbox
        let vault: String
        var socket: String { sandbox.agentDirectory + "/ssh-agent.sock" }
        /// The environment OpenSSH's tools run with: the socket, and nothing of the user's.
        var sshEnvironment: [String: String] {
            var environment = sandbox.environment
            environment["SSH_AUTH_SOCK"] = socket
            environment["DISPLAY"] = nil
            environment["SSH_ASKPASS"] = nil
            return environment
        }

        init() throws {
            sandbox = try AgentSandbox()
            vault = try sandbox.scratch.copy("ssh/keeagent.kdbx")
        }

        /// `mypass ssh-agent VAULT arguments...` with the vault password on standard input.
        @discardableResult
        func serve(_ arguments: [String] = []) throws -> ProcessResult {
            let result = try sandbox.run(["ssh-agent", vault] + arguments, stdin: SSHAgentTests.vaultPassword + "\n")
            #expect(result.status == 0, "\(result.stderrText)")
            return result
        }

        /// Runs an OpenSSH tool against the socket.
        func ssh(_ tool: URL, _ arguments: [String], stdin: String = "", extra: [String: String] = [:]) throws -> ProcessResult {
            try runProcess(tool, arguments, stdin: Array(stdin.utf8), environment: sshEnvironment.merging(extra) { $1 },
                           currentDirectory: sandbox.scratch.url)
        }
    }

    /// `ssh-keygen -l -E sha256 -f keys/NAME.pub` split into (bits, fingerprint, type).
    static func keygenLine(_ keygen: URL, _ name: String) throws -> (bits: String, fingerprint: String, type: String) {
        let result = try runProcess(keygen, ["-l", "-E", "sha256", "-f", TestVectors.url("ssh/keys/\(name).pub").path])
        let parts = result.stdoutText.split(separator: " ")
        return (String(parts[0]), String(parts[1]), String(parts.last!.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test("ssh-add -l -E sha256 lists exactly what ssh-keygen -lf says of each key added at unlock, and status lists them too")
    func listMatchesKeygen() throws {
        guard let (sshAdd, keygen) = Self.tools("ssh-agent listing") else { return }
        let setup = try Setup()
        let served = try setup.serve()
        #expect(served.stdoutText == "SSH_AUTH_SOCK=\(setup.socket); export SSH_AUTH_SOCK;\n")
        #expect(served.stderrText.contains("Warning: the SSH key cannot be used (SSH/missing-attachment)"))
        let socket = try #require(AgentSandbox.mode(setup.socket))
        #expect(socket.type == S_IFSOCK && socket.permissions == 0o600)

        let listed = try setup.ssh(sshAdd, ["-l", "-E", "sha256"])
        #expect(listed.status == 0, "\(listed.stderrText)")
        let lines = listed.stdoutText.split(separator: "\n").map(String.init)
        var expected: [String] = []
        for (entry, key) in Self.addedAtUnlock {
            let line = try Self.keygenLine(keygen, key)
            // OpenSSH files carry their comment; PEM ones take the entry's user name (KeePassXC's rule).
            let comment = key.contains("pkcs") || key.contains("sec1") ? "\(entry)-user" : "\(key)@mypass-test"
            expected.append("\(line.bits) \(line.fingerprint) \(comment) \(line.type)")
        }
        #expect(lines == expected)
        // Not added at unlock, or not usable: not listed.
        #expect(!listed.stdoutText.contains("not-at-open") && !listed.stdoutText.contains("confirm-user"))

        let status = try setup.sandbox.run(["status"])
        #expect(status.stdoutText.contains("  SSH agent on \(setup.socket):\n"))
        for line in expected { #expect(status.stdoutText.contains("    " + line + "\n"), "\(line)") }
        let json = try #require(try parseJSON(setup.sandbox.run(["status", "--json"]).stdoutText) as? [[String: Any]])
        let ssh = try #require(json.first?["ssh"] as? [[String: Any]])
        #expect(ssh.first?["socket"] as? String == setup.socket)
        #expect((ssh.first?["keys"] as? [[String: Any]])?.count == Self.addedAtUnlock.count)

        // Loading again replaces, never duplicates.
        try setup.serve()
        #expect(try setup.ssh(sshAdd, ["-l", "-E", "sha256"]).stdoutText.split(separator: "\n").count == expected.count)
        // Locking the vault: the keys, and the socket, go.
        #expect(try setup.sandbox.run(["lock"]).status == 0)
        #expect(setup.sandbox.eventually { !FileManager.default.fileExists(atPath: setup.socket) })
        #expect(try setup.ssh(sshAdd, ["-l"]).status != 0)
    }

    @Test("ssh-keygen -Y sign through the agent gives signatures ssh-keygen -Y verify accepts, for every key type")
    func signAndVerify() throws {
        guard let (_, keygen) = Self.tools("ssh-agent signatures") else { return }
        let setup = try Setup()
        try setup.serve(["--key", "SSH/ed25519", "--key", "SSH/ecdsa-encrypted", "--key", "SSH/rsa-2048",
                         "--key", "SSH/rsa-3072-encrypted", "--key", "SSH/rsa-4096", "--key", "SSH/ed25519-pkcs8"])
        let data = try setup.sandbox.scratch.write("message.txt", Array("signed through mypass\n".utf8))
        for key in ["ed25519", "ecdsa-encrypted", "rsa-2048", "rsa-3072-encrypted", "rsa-4096", "ed25519-pkcs8"] {
            let publicKey = try setup.sandbox.scratch.copy("ssh/keys/\(key).pub")
            try? FileManager.default.removeItem(atPath: data + ".sig")
            let sign = try setup.ssh(keygen, ["-Y", "sign", "-f", publicKey, "-n", "file", data])
            #expect(sign.status == 0, "\(key): \(sign.stderrText)")
            let fields = try String(contentsOfFile: publicKey, encoding: .utf8).split(separator: " ")
            let allowed = try setup.sandbox.scratch.write("allowed", Array("tester \(fields[0]) \(fields[1])\n".utf8))
            let verify = try runProcess(keygen, ["-Y", "verify", "-f", allowed, "-I", "tester", "-n", "file", "-s", data + ".sig"],
                                        stdin: Array("signed through mypass\n".utf8))
            #expect(verify.status == 0, "\(key): \(verify.stdoutText) \(verify.stderrText)")
            #expect(verify.stdoutText.hasPrefix("Good \"file\" signature for tester"), "\(key)")
            let tampered = try runProcess(keygen, ["-Y", "verify", "-f", allowed, "-I", "tester", "-n", "file", "-s", data + ".sig"],
                                          stdin: Array("signed through mypasS\n".utf8))
            #expect(tampered.status != 0, "\(key)")
        }
    }

    @Test("a login to sshd on 127.0.0.1 succeeds with each key type through the agent, and fails after mypass lock")
    func realLogin() throws {
        guard let (_, keygen) = Self.tools("ssh-agent login") else { return }
        let sshd = URL(fileURLWithPath: "/usr/sbin/sshd")
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: sshd.path),
              let ssh = InteropTools.executable(named: "ssh") else {
            if let message = InteropTools.missing("root, sshd (openssh-server) and ssh", test: "ssh-agent login") {
                Issue.record(Comment(rawValue: message))
            }
            return
        }
        let setup = try Setup()
        let keys = ["ed25519", "ecdsa", "rsa-2048", "rsa-3072-encrypted", "rsa-4096-encrypted", "ecdsa-sec1"]
        try setup.serve(keys.map { ["--key", "SSH/" + $0] }.flatMap { $0 })
        let server = try SSHServer(scratch: setup.sandbox.scratch, keygen: keygen, sshd: sshd,
                                   authorizedKeys: keys.map { try String(contentsOf: TestVectors.url("ssh/keys/\($0).pub"), encoding: .utf8) })
        defer { server.stop() }
        func login(_ key: String) throws -> ProcessResult {
            let publicKey = try setup.sandbox.scratch.copy("ssh/keys/\(key).pub")
            return try setup.ssh(ssh, [
                "-F", "/dev/null", "-p", String(server.port), "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
                "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes", "-o", "IdentityFile=\(publicKey)",
                "-o", "PreferredAuthentications=publickey", "-o", "ConnectTimeout=20", "-o", "LogLevel=ERROR",
                "root@127.0.0.1", "echo logged-in-with-\(key)",
            ])
        }
        for key in keys {
            let result = try login(key)
            #expect(result.status == 0, "\(key): \(result.stderrText) \(server.log)")
            #expect(result.stdoutText == "logged-in-with-\(key)\n", "\(key)")
        }
        #expect(try setup.sandbox.run(["lock", setup.vault]).status == 0)
        let refused = try login("ed25519")
        #expect(refused.status == 255, "\(refused.stdoutText)")
        #expect(refused.stdoutText.isEmpty)
    }

    @Test("a key with a lifetime goes when it ends; the vault's other keys stay")
    func lifetime() throws {
        guard let (sshAdd, _) = Self.tools("ssh-agent lifetime") else { return }
        let setup = try Setup()
        let served = try setup.serve(["--key", "SSH/lifetime", "--key", "SSH/ed25519"])
        #expect(served.stderrText.contains("for 2 s"))
        #expect(try setup.ssh(sshAdd, ["-l"]).stdoutText.split(separator: "\n").count == 2)
        #expect(try setup.sandbox.eventually(within: 20) {
            try setup.ssh(sshAdd, ["-l"]).stdoutText.split(separator: "\n").count == 1
        })
        #expect(try setup.ssh(sshAdd, ["-l"]).stdoutText.contains("ed25519@mypass-test"))
    }

    @Test("confirm before use, without a terminal: warned at load, listed, every signature refused")
    func confirmWithoutTerminal() throws {
        guard let (sshAdd, keygen) = Self.tools("ssh-agent confirmation") else { return }
        let setup = try Setup()
        let served = try setup.serve(["--key", "SSH/confirm"])
        #expect(served.stderrText.contains("there is no terminal to ask on"), "\(served.stderrText)")
        #expect(try setup.ssh(sshAdd, ["-l"]).stdoutText.contains("ecdsa@mypass-test"))
        let status = try setup.sandbox.run(["status"])
        #expect(status.stdoutText.contains("[confirm each use]"))
        let data = try setup.sandbox.scratch.write("message.txt", Array("x".utf8))
        let publicKey = try setup.sandbox.scratch.copy("ssh/keys/ecdsa.pub")
        let sign = try setup.ssh(keygen, ["-Y", "sign", "-f", publicKey, "-n", "file", data])
        #expect(sign.status != 0)
        #expect(!FileManager.default.fileExists(atPath: data + ".sig"))
    }

    @Test("confirm before use on a terminal (tmux): y signs, n refuses")
    func confirmOnTerminal() throws {
        guard let (_, keygen) = Self.tools("ssh-agent confirmation on a terminal") else { return }
        guard let tmux = InteropTools.executable(named: "tmux") else {
            if let message = InteropTools.missing("tmux", test: "ssh-agent confirmation on a terminal") { Issue.record(Comment(rawValue: message)) }
            return
        }
        let setup = try Setup()
        let session = "mypass-confirm-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let socketDirectory = setup.sandbox.scratch.path("tmux")
        try FileManager.default.createDirectory(atPath: socketDirectory, withIntermediateDirectories: true)
        let tmuxBase = ["-f", "/dev/null", "-S", socketDirectory + "/socket"]
        func tmuxRun(_ arguments: [String]) throws -> (status: Int32, output: String) {
            try TmuxScreen.spawnAndWait(tmux, tmuxBase + arguments, environment: setup.sshEnvironment)
        }
        #expect(try tmuxRun(["new-session", "-d", "-s", session, "-x", "200", "-y", "50", "/bin/sh"]).status == 0)
        defer { _ = try? tmuxRun(["kill-server"]) }
        func type(_ text: String) throws { _ = try tmuxRun(["send-keys", "-t", session, "-l", text]); _ = try tmuxRun(["send-keys", "-t", session, "Enter"]) }
        func screen() throws -> String { try tmuxRun(["capture-pane", "-p", "-t", session]).output }
        let data = try setup.sandbox.scratch.write("message.txt", Array("confirmed\n".utf8))
        let publicKey = try setup.sandbox.scratch.copy("ssh/keys/ecdsa.pub")
        let passwordFile = try setup.sandbox.scratch.write("password", Array((Self.vaultPassword + "\n").utf8))
        let environment = "XDG_RUNTIME_DIR='\(setup.sandbox.runtime.path)' SSH_AUTH_SOCK='\(setup.socket)'"
        try type("env \(environment) '\(CLI.binary.path)' ssh-agent '\(setup.vault)' --key SSH/confirm < '\(passwordFile)' && echo LOADED")
        #expect(setup.sandbox.eventually(within: 60) { (try? screen())?.contains("\nLOADED") == true }, "\((try? screen()) ?? "")")

        for (answer, succeeds) in [("y", true), ("n", false)] {
            try? FileManager.default.removeItem(atPath: data + ".sig")
            try type("env \(environment) '\(keygen.path)' -Y sign -f '\(publicKey)' -n file '\(data)'; echo SIGNED-\(answer)-$?")
            #expect(setup.sandbox.eventually(within: 60) {
                (try? screen())?.components(separatedBy: "allow use of the SSH key 'ecdsa@mypass-test'").count == (succeeds ? 2 : 3)
            }, "\((try? screen()) ?? "")")
            try type(answer)
            #expect(setup.sandbox.eventually(within: 60) { (try? screen())?.contains("\nSIGNED-\(answer)-") == true }, "\((try? screen()) ?? "")")
            let text = try screen()
            #expect(text.contains("SIGNED-\(answer)-0") == succeeds, "\(answer): \(text)")
            #expect(FileManager.default.fileExists(atPath: data + ".sig") == succeeds, "\(answer)")
        }
    }

    @Test("ssh-add -x locks the socket (no key listed or used) until -X with the same passphrase; add and remove are refused")
    func lockAndRefusals() throws {
        guard let (sshAdd, _) = Self.tools("ssh-agent lock") else { return }
        let setup = try Setup()
        try setup.serve(["--key", "SSH/ed25519"])
        let askpass = try setup.sandbox.scratch.write("askpass", Array("#!/bin/sh\nprintf '%s\\n' \"$MYPASS_TEST_PASSPHRASE\"\n".utf8))
        chmod(askpass, 0o755)
        func withPassphrase(_ passphrase: String) -> [String: String] {
            ["SSH_ASKPASS": askpass, "SSH_ASKPASS_REQUIRE": "force", "DISPLAY": ":0", "MYPASS_TEST_PASSPHRASE": passphrase]
        }
        #expect(try setup.ssh(sshAdd, ["-x"], extra: withPassphrase("lock phrase")).status == 0)
        #expect(try setup.ssh(sshAdd, ["-l"]).stdoutText == "The agent has no identities.\n")
        #expect(try setup.ssh(sshAdd, ["-x"], extra: withPassphrase("again")).status != 0, "already locked")
        #expect(try setup.ssh(sshAdd, ["-X"], extra: withPassphrase("wrong phrase")).status != 0)
        #expect(try setup.ssh(sshAdd, ["-X"], extra: withPassphrase("lock phrase")).status == 0)
        #expect(try setup.ssh(sshAdd, ["-l"]).stdoutText.contains("ed25519@mypass-test"))
        // The keys are the vault's: ssh-add cannot add or remove them.
        let key = try setup.sandbox.scratch.copy("ssh/keys/ecdsa")
        chmod(key, 0o600)
        #expect(try setup.ssh(sshAdd, [key]).stderrText.contains("agent refused operation"))
        #expect(try setup.ssh(sshAdd, ["-D"]).status != 0)
        #expect(try setup.ssh(sshAdd, ["-d", try setup.sandbox.scratch.copy("ssh/keys/ed25519.pub")]).status != 0)
        #expect(try setup.ssh(sshAdd, ["-l"]).stdoutText.contains("ed25519@mypass-test"))
    }

    @Test("a hostile client (garbage, huge lengths, truncated requests, unknown keys) gets failures, and the agent keeps serving")
    func hostileClient() throws {
        guard let (sshAdd, _) = Self.tools("ssh-agent hostile client") else { return }
        let setup = try Setup()
        try setup.serve(["--key", "SSH/ed25519"])
        func exchange(_ bytes: [UInt8], read: Bool = true) throws -> [UInt8]? {
            let connection = try #require(RawConnection(path: setup.socket))
            _ = connection.send(bytes)
            return read ? connection.receive(seconds: 15) : nil
        }
        func frame(_ body: [UInt8]) -> [UInt8] {
            [UInt8(body.count >> 24 & 0xFF), UInt8(body.count >> 16 & 0xFF), UInt8(body.count >> 8 & 0xFF), UInt8(body.count & 0xFF)] + body
        }
        func string(_ bytes: [UInt8]) -> [UInt8] { frame(bytes) }
        let failure: [UInt8] = [0, 0, 0, 1, 5]
        // Unknown types, add/remove, extensions: SSH_AGENT_FAILURE, the connection stays usable.
        for type: UInt8 in [0, 1, 17, 18, 19, 20, 21, 25, 26, 99, 255] {
            #expect(try exchange(frame([type])) == failure, "type \(type)")
        }
        #expect(try exchange(frame([27] + string(Array("session-bind@openssh.com".utf8)) + [1, 2, 3])) == failure)
        // A sign request for a key the agent does not hold.
        let unknownKey = string(Array("ssh-ed25519".utf8)) + string([UInt8](repeating: 7, count: 32))
        #expect(try exchange(frame([13] + string(unknownKey) + string(Array("data".utf8)) + [0, 0, 0, 0])) == failure)
        // Malformed: truncated contents, trailing bytes: the connection is closed unanswered.
        #expect(try exchange(frame([13, 0, 0, 0, 50, 1, 2])) == [])
        #expect(try exchange(frame([11, 0])) == [])
        // Lengths: zero, over 256 KiB, 4 GiB: closed without reading on.
        #expect(try exchange([0, 0, 0, 0]) == [])
        #expect(try exchange([0, 4, 0, 1]) == [])
        #expect(try exchange([0xFF, 0xFF, 0xFF, 0xFF] + [UInt8](repeating: 0x41, count: 1000)) == [])
        // Garbage.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let garbage = (0..<Int.random(in: 1...300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = try exchange(garbage)
        }
        // Several requests on one connection, and a truncated one left hanging while others are served.
        let connection = try #require(RawConnection(path: setup.socket))
        _ = connection.send(frame([99]) + frame([98]))
        #expect(connection.receive(count: 10, seconds: 15) == failure + failure)
        let hanging = try #require(RawConnection(path: setup.socket))
        _ = hanging.send([0, 0, 0, 100, 13])
        let listed = try setup.ssh(sshAdd, ["-l", "-E", "sha256"])
        #expect(listed.status == 0 && listed.stdoutText.contains("ed25519@mypass-test"), "\(listed.stderrText)")
        #expect(hanging.receive(seconds: 30) == [], "the trickling request is closed at its deadline")
    }

    @Test("another user cannot use the socket (SO_PEERCRED), and a socket in a directory others may write is refused")
    func otherUsers() throws {
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
              let perl = InteropTools.executable(named: "perl") else {
            if let message = InteropTools.missing("root, setpriv and perl", test: "ssh-agent peer check") { Issue.record(Comment(rawValue: message)) }
            return
        }
        let setup = try Setup()
        let open = setup.sandbox.scratch.path("open")
        try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: true)
        chmod(open, 0o1777)
        let refused = try setup.sandbox.run(["ssh-agent", setup.vault, "--socket", open + "/agent.sock"], stdin: Self.vaultPassword + "\n")
        #expect(refused.status == 1)
        #expect(CLI.firstErrorLine(refused).contains("writable by other users"), "\(refused.stderrText)")

        let shared = setup.sandbox.scratch.path("shared")
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        chmod(shared, 0o755)
        chmod(setup.sandbox.scratch.url.path, 0o755)
        let socket = shared + "/agent.sock"
        let served = try setup.sandbox.run(["ssh-agent", setup.vault, "--socket", socket, "--key", "SSH/ed25519"], stdin: Self.vaultPassword + "\n")
        #expect(served.status == 0, "\(served.stderrText)")
        #expect(served.stdoutText == "SSH_AUTH_SOCK=\(socket); export SSH_AUTH_SOCK;\n")
        #expect(AgentSandbox.mode(socket)?.permissions == 0o600)
        chmod(socket, 0o666)
        // The agent may close the connection before the request is written: SIGPIPE ignored, so that
        // the write fails quietly instead of killing perl (status 13 under load).
        let script = "$SIG{PIPE} = 'IGNORE'; my $s = IO::Socket::UNIX->new(Peer => $ARGV[0]) or die \"connect: $!\"; print $s pack('H*', '000000010b'); "
            + "my $n = read($s, my $b, 64); print defined $n ? unpack('H*', $b) : 'error';"
        let nobody = try runProcess(URL(fileURLWithPath: "/usr/bin/setpriv"),
                                    ["--reuid=65534", "--regid=65534", "--clear-groups", perl.path, "-MIO::Socket::UNIX", "-e", script, socket])
        #expect(nobody.status == 0, "\(nobody.stderrText)")
        #expect(nobody.stdoutText == "" || nobody.stdoutText == "error", "closed unanswered: \(nobody.stdoutText)")
    }

    @Test("after lock the agent's memory holds none of the private keys (/proc/PID/mem); the other vault's keys remain")
    func memoryAfterLock() throws {
        guard geteuid() == 0 else {
            if let message = InteropTools.missing("root", test: "ssh-agent memory scan") { Issue.record(Comment(rawValue: message)) }
            return
        }
        let setup = try Setup()
        // A second vault keeps the agent alive for the scan.
        let other = try setup.sandbox.scratch.copy(Demo.vault)
        #expect(try setup.sandbox.run(["unlock", other], stdin: Demo.stdin).status == 0)
        try setup.serve(["--key", "SSH/ed25519", "--key", "SSH/ecdsa"])
        let keys = try [Self.ed25519Seed(), Self.ecdsaScalar()]
        let pid = try #require(setup.sandbox.agentPID)
        #expect(ProcessMemory.contains(pid: pid, keys) == [true, true], "the scan finds the keys while they are served")
        #expect(try setup.sandbox.run(["lock", setup.vault]).status == 0)
        #expect(setup.sandbox.agentPID == pid)
        #expect(ProcessMemory.contains(pid: pid, keys) == [false, false], "the keys are wiped with the vault")
    }

    /// The 32-byte seed of `keys/ed25519` (OpenSSH format: the private section's 64-byte key).
    static func ed25519Seed() throws -> [UInt8] {
        let text = try TestVectors.text("ssh/keys/ed25519")
        let body = text.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let der = try #require(Data(base64Encoded: body)).map { $0 }
        // The private section ends with: string(64) seed ‖ public, string comment, padding.
        let marker = [UInt8]([0, 0, 0, 64])
        let at = try #require(Self.lastIndex(of: marker, in: der))
        return Array(der[(at + 4)..<(at + 36)])
    }

    /// The private scalar of `keys/ecdsa`, read with Python's cryptography; a key that is never
    /// present when Python is missing.
    static func ecdsaScalar() throws -> [UInt8] {
        let script = "import sys; from cryptography.hazmat.primitives import serialization as s; "
            + "k = s.load_ssh_private_key(open(sys.argv[1], 'rb').read(), None); "
            + "print('%064x' % k.private_numbers().private_value)"
        guard let python = InteropTools.executable(named: "python3") else { return [UInt8](repeating: 0xA5, count: 32) }
        let result = try runProcess(python, ["-c", script, TestVectors.url("ssh/keys/ecdsa").path])
        #expect(result.status == 0, "\(result.stderrText)")
        return hexBytes(result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    static func lastIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in stride(from: haystack.count - needle.count, through: 0, by: -1) where Array(haystack[start..<(start + needle.count)]) == needle {
            return start
        }
        return nil
    }
}

/// `sshd` from openssh-server on 127.0.0.1 and a free port, with a throwaway host key and the
/// given authorized keys, in the foreground (`-D -e`), stopped by ``stop()``.
final class SSHServer {
    let port: Int
    let process: Process
    let logURL: URL
    let pidURL: URL

    init(scratch: Scratch, keygen: URL, sshd: URL, authorizedKeys: [String]) throws {
        let directory = scratch.url.appendingPathComponent("sshd")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        pidURL = directory.appendingPathComponent("sshd.pid")
        let hostKey = directory.appendingPathComponent("host_ed25519").path
        let generated = try runProcess(keygen, ["-q", "-t", "ed25519", "-N", "", "-f", hostKey])
        #expect(generated.status == 0)
        let authorized = directory.appendingPathComponent("authorized_keys")
        try authorizedKeys.joined().write(to: authorized, atomically: true, encoding: .utf8)
        // Privilege separation's empty directory, which the openssh-server package creates at boot.
        try? FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o755])
        port = try Self.freePort()
        let config = directory.appendingPathComponent("sshd_config")
        try """
            Port \(port)
            ListenAddress 127.0.0.1
            HostKey \(hostKey)
            AuthorizedKeysFile \(authorized.path)
            PidFile \(directory.appendingPathComponent("sshd.pid").path)
            UsePAM no
            StrictModes no
            PermitRootLogin prohibit-password
            PubkeyAuthentication yes
            PasswordAuthentication no
            KbdInteractiveAuthentication no
            PubkeyAcceptedAlgorithms ssh-ed25519,ecdsa-sha2-nistp256,rsa-sha2-512,rsa-sha2-256
            LogLevel VERBOSE

            """.write(to: config, atomically: true, encoding: .utf8)
        logURL = directory.appendingPathComponent("log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        process = Process()
        // Under timeout(1): a test run killed midway never leaves sshd behind for long.
        if let timeout = InteropTools.executable(named: "timeout") {
            process.executableURL = timeout
            process.arguments = ["-s", "KILL", "300", sshd.path, "-D", "-e", "-f", config.path]
        } else {
            process.executableURL = sshd
            process.arguments = ["-D", "-e", "-f", config.path]
        }
        let log = try FileHandle(forWritingTo: logURL)
        process.standardError = log
        process.standardOutput = log
        try process.run()
        // Ready when it accepts a connection; bounded.
        let end = Date().addingTimeInterval(20)
        while Date() < end && process.isRunning && !Self.accepts(port) { usleep(50_000) }
        #expect(Self.accepts(port), "sshd did not start: \(self.log)")
    }

    var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    /// Kills sshd (SIGKILL: a SIGTERM can find it ignoring the signal, inherited from whoever
    /// started the tests) and waits for it.
    func stop() {
        guard process.isRunning else { return }
        if let text = try? String(contentsOf: pidURL, encoding: .utf8), let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            kill(pid, SIGKILL)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }

    /// A port on 127.0.0.1 that was free a moment ago (bound to port 0, then closed).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw CocoaError(.fileWriteUnknown) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}

