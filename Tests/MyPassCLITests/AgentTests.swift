import Foundation
import MyPassBytes
import MyPassCrypto
import MyPassKDBX
import MyPassTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `mypass unlock`, `lock`, `status` and the agent, run as built binaries with a private
/// `XDG_RUNTIME_DIR` each.
@Suite("mypass agent: unlock once")
struct AgentTests {
    /// A fixed TOTP time so that outputs compare exactly.
    static let time = "1770000000"

    /// The demo vault's composite key: SHA-256(SHA-256("demo")).
    static let demoCompositeKey = SHA256.hash(SHA256.hash(Array("demo".utf8)))

    @Test("unlock, then show, totp, add and edit ask nothing; status lists the vault; lock ends it")
    func unlockOnce() throws {
        let sandbox = try AgentSandbox()
        let vault = try sandbox.scratch.copy(Demo.vault)
        let expectedShow = try sandbox.run(["show", vault, "Work/GitHub", "--time", Self.time, "--no-agent"], stdin: Demo.stdin)
        let expectedTOTP = try sandbox.run(["totp", vault, "Work/GitHub", "--time", Self.time, "--no-agent"], stdin: Demo.stdin)
        #expect(expectedShow.status == 0)

        let unlock = try sandbox.run(["unlock", vault], stdin: Demo.stdin)
        #expect(unlock.status == 0, "\(unlock.stderrText)")
        #expect(unlock.stderrText.contains("Unlocked"))
        let held = try sandbox.held()
        let left = try #require(held[vault])
        #expect((890...900).contains(left), "default timeout 900 s, got \(left)")

        // Nothing on stdin from here on.
        let show = try sandbox.run(["show", vault, "Work/GitHub", "--time", Self.time])
        #expect(show.status == 0, "\(show.stderrText)")
        #expect(show.stdoutText == expectedShow.stdoutText)
        let totp = try sandbox.run(["totp", vault, "Work/GitHub", "--time", Self.time])
        #expect(totp.status == 0)
        #expect(totp.stdoutText == expectedTOTP.stdoutText)
        let add = try sandbox.run(["add", vault, "Work/Agent Entry", "--username", "agent-user"])
        #expect(add.status == 0, "\(add.stderrText)")
        let edit = try sandbox.run(["edit", vault, "Work/Agent Entry", "--username", "edited-user", "--url", "https://example.org"])
        #expect(edit.status == 0, "\(edit.stderrText)")
        // After our own saves (new seeds) the agent still opens it, and the file holds the edit.
        let field = try sandbox.run(["show", vault, "Work/Agent Entry", "--field", "UserName"])
        #expect(field.status == 0)
        #expect(field.stdoutText == "edited-user\n")
        let direct = try sandbox.run(["show", vault, "Work/Agent Entry", "--field", "URL", "--no-agent"], stdin: Demo.stdin)
        #expect(direct.stdoutText == "https://example.org\n")

        // --no-agent and MYPASS_NO_AGENT=1 ask again (and find no password on stdin).
        let bypassed = try sandbox.run(["show", vault, "Work/GitHub", "--no-agent"])
        #expect(bypassed.status == 1)
        #expect(CLI.firstErrorLine(bypassed).contains("no password on standard input"))
        let bypassedByEnvironment = try sandbox.run(["ls", vault], extra: ["MYPASS_NO_AGENT": "1"])
        #expect(bypassedByEnvironment.status == 1)

        let lock = try sandbox.run(["lock", vault])
        #expect(lock.status == 0)
        #expect(lock.stderrText == "Locked '\(vault)'.\n")
        #expect(try sandbox.held().isEmpty)
        let after = try sandbox.run(["show", vault, "Work/GitHub"])
        #expect(after.status == 1)
        #expect(CLI.firstErrorLine(after).contains("no password on standard input"))
        // Holding nothing, the agent exits and removes its socket.
        #expect(sandbox.eventually { sandbox.agentPID == nil })
        #expect(!FileManager.default.fileExists(atPath: sandbox.socketPath))
        let lockAgain = try sandbox.run(["lock"])
        #expect(lockAgain.status == 0)
        #expect(lockAgain.stderrText == "No agent is running: nothing is unlocked.\n")
    }

    @Test("lock without a vault forgets every vault; a wrong password unlocks nothing")
    func lockAll() throws {
        let sandbox = try AgentSandbox()
        let first = try sandbox.scratch.copy(Demo.vault, as: "first.kdbx")
        let second = try sandbox.scratch.copy(Demo.vault, as: "second.kdbx")
        let wrong = try sandbox.run(["unlock", first], stdin: "not the password\n")
        #expect(wrong.status == 3)
        #expect(try sandbox.held().isEmpty)
        #expect(try sandbox.run(["unlock", first, "--timeout", "600"], stdin: Demo.stdin).status == 0)
        #expect(try sandbox.run(["unlock", second], stdin: Demo.stdin).status == 0)
        let held = try sandbox.held()
        #expect(held.keys.sorted() == [first, second])
        #expect((590...600).contains(held[first] ?? 0))
        let json = try sandbox.run(["status", "--json"])
        let list = try #require(try parseJSON(json.stdoutText) as? [[String: Any]])
        #expect(list.compactMap { $0["vault"] as? String } == [first, second])
        let lock = try sandbox.run(["lock"])
        #expect(lock.stderrText == "Locked 2 vaults.\n")
        #expect(try sandbox.held().isEmpty)
        #expect(sandbox.eventually { sandbox.agentPID == nil })
    }

    @Test("a lock that leaves nothing held is answered before the agent exits (10 rounds of unlock, then lock)")
    func lockThatEndsTheAgentIsAnswered() throws {
        // The lock's thread wakes the main loop, which ends the agent; the answer must still go
        // out first, or the client reports "No agent is running" (seen in loaded CI runs).
        let sandbox = try AgentSandbox()
        let vault = try sandbox.scratch.copy(Demo.vault)
        for round in 0..<10 {
            let unlock = try sandbox.run(["unlock", vault], stdin: Demo.stdin)
            #expect(unlock.status == 0, "round \(round): \(unlock.stderrText)")
            let lock = try sandbox.run(["lock", round.isMultiple(of: 2) ? vault : nil].compactMap { $0 })
            #expect(lock.status == 0, "round \(round): \(lock.stderrText)")
            #expect(lock.stderrText == (round.isMultiple(of: 2) ? "Locked '\(vault)'.\n" : "Locked 1 vault.\n"), "round \(round)")
            #expect(sandbox.eventually { sandbox.agentPID == nil }, "round \(round): the agent outlived its last vault")
        }
    }

    @Test("the timeout ends it: the agent forgets the vault and exits")
    func timeout() throws {
        let sandbox = try AgentSandbox()
        let vault = try sandbox.scratch.copy(Demo.vault)
        #expect(try sandbox.run(["unlock", vault, "--timeout", "1"], stdin: Demo.stdin).status == 0)
        #expect(try sandbox.eventually { try sandbox.held().isEmpty })
        #expect(sandbox.eventually { sandbox.agentPID == nil })
        let show = try sandbox.run(["show", vault, "Work/GitHub"])
        #expect(show.status == 1)
        let usage = try sandbox.run(["unlock", vault, "--timeout", "0"], stdin: Demo.stdin)
        #expect(usage.status == 2)
    }

    @Test("socket 0600 in a 0700 directory; a killed agent leaves no file but its socket, and clients ask again")
    func modesAndKilledAgent() throws {
        let sandbox = try AgentSandbox()
        let vault = try sandbox.scratch.copy(Demo.vault)
        #expect(try sandbox.run(["unlock", vault], stdin: Demo.stdin).status == 0)
        let directory = try #require(AgentSandbox.mode(sandbox.agentDirectory))
        #expect(directory.type == S_IFDIR)
        #expect(directory.permissions == 0o700)
        #expect(directory.owner == geteuid())
        let socket = try #require(AgentSandbox.mode(sandbox.socketPath))
        #expect(socket.type == S_IFSOCK)
        #expect(socket.permissions == 0o600)

        let pid = try #require(sandbox.agentPID)
        kill(pid, SIGKILL)
        #expect(sandbox.eventually { sandbox.agentPID == nil })
        // Nothing but directories and the dead socket anywhere below the runtime directory.
        let files = FileManager.default.enumerator(atPath: sandbox.runtime.path)?.allObjects as? [String] ?? []
        let kinds = files.map { AgentSandbox.mode(sandbox.runtime.path + "/" + $0)?.type }
        #expect(files.sorted() == ["mypass", "mypass/agent.sock"])
        #expect(!kinds.contains(S_IFREG))

        let asks = try sandbox.run(["show", vault, "Work/GitHub"])
        #expect(asks.status == 1)
        #expect(CLI.firstErrorLine(asks).contains("no password on standard input"))
        let answered = try sandbox.run(["show", vault, "Work/GitHub", "--field", "UserName"], stdin: Demo.stdin)
        #expect(answered.stdoutText == "sam-dev\n")
        #expect(try sandbox.run(["status"]).stderrText == "No vault is unlocked.\n")
        // A new unlock replaces the stale socket.
        #expect(try sandbox.run(["unlock", vault], stdin: Demo.stdin).status == 0)
        #expect(try sandbox.run(["show", vault, "Work/GitHub", "--field", "UserName"]).stdoutText == "sam-dev\n")
    }

    @Test("a client running as another user (nobody) gets nothing: the directory stops it, and SO_PEERCRED when it is opened")
    func otherUserRefused() throws {
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            if let message = InteropTools.missing("root and setpriv", test: "agent peer check") { Issue.record(Comment(rawValue: message)) }
            return
        }
        let sandbox = try AgentSandbox()
        let vault = try sandbox.scratch.copy(Demo.vault)
        #expect(try sandbox.run(["unlock", vault], stdin: Demo.stdin).status == 0)

        // The 0700 directory: nobody cannot even reach the socket, and falls back to asking.
        let blocked = try sandbox.runAsNobody(["show", vault, "Work/GitHub"])
        #expect(blocked.status == 1)
        #expect(CLI.firstErrorLine(blocked).contains("no password on standard input"))
        let blockedStatus = try sandbox.runAsNobody(["status"])
        #expect(blockedStatus.status == 0)
        #expect(blockedStatus.stdoutText.isEmpty)

        // Opened up: the agent checks the peer's uid and refuses; our client refuses a foreign agent.
        chmod(sandbox.runtime.path, 0o755)
        chmod(sandbox.agentDirectory, 0o755)
        chmod(sandbox.socketPath, 0o666)
        let raw = try runProcess(
            URL(fileURLWithPath: "/usr/bin/setpriv"),
            ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/perl", "-MIO::Socket::UNIX", "-e",
             "my $s = IO::Socket::UNIX->new(Peer => $ARGV[0]) or die \"connect: $!\"; read($s, my $b, 64); print unpack('H*', $b // '');",
             sandbox.socketPath])
        #expect(raw.status == 0, "\(raw.stderrText)")
        #expect(raw.stdoutText == "0100000002", "a 1-byte frame with response code 2 (refused), nothing else")
        let foreign = try sandbox.runAsNobody(["status"])
        #expect(foreign.status == 1)
        #expect(CLI.firstErrorLine(foreign).contains("served by another user"))
        let show = try sandbox.runAsNobody(["show", vault, "Work/GitHub"])
        #expect(show.status == 1)
        #expect(CLI.firstErrorLine(show).contains("no password on standard input"))
        // The owner is still served.
        #expect(try sandbox.run(["show", vault, "Work/GitHub", "--field", "UserName"]).stdoutText == "sam-dev\n")
    }

    @Test("malformed frames get 'bad request' or a closed connection; the agent keeps serving")
    func malformedFrames() throws {
        guard let perl = InteropTools.executable(named: "perl") else {
            if let message = InteropTools.missing("perl", test: "agent malformed frames") { Issue.record(Comment(rawValue: message)) }
            return
        }
        let sandbox = try AgentSandbox()
        let vault = try sandbox.scratch.copy(Demo.vault)
        #expect(try sandbox.run(["unlock", vault], stdin: Demo.stdin).status == 0)
        /// Sends hex bytes on one connection and returns the reply in hex.
        func send(_ hex: String) throws -> String {
            let script = "my $s = IO::Socket::UNIX->new(Peer => $ARGV[0]) or die \"connect: $!\"; "
                + "print $s pack('H*', $ARGV[1]); shutdown($s, 1); read($s, my $b, 4096); print unpack('H*', $b // '');"
            let result = try runProcess(perl, ["-MIO::Socket::UNIX", "-e", script, sandbox.socketPath, hex])
            #expect(result.status == 0, "\(result.stderrText)")
            return result.stdoutText
        }
        #expect(try send("ffffffff") == "", "a frame over 64 KiB: closed without reading it")
        #expect(try send("00000000") == "", "an empty frame: closed")
        let status = try send("0100000053")
        #expect(status.count > 10 && status.dropFirst(8).hasPrefix("00"), "a well-formed status request is answered: ok, \(status)")
        #expect(try send("010000005a") == "0100000003", "an unknown request code: bad request")
        #expect(try send("0600000047ff000000") == "", "a field longer than the frame: closed")
        #expect(try send("0500000047000000") == "", "a truncated frame: closed")
        #expect(try send("0b00000050010000002f010000002f") == "0100000003", "a put with missing fields: bad request")
        #expect(try send("0500000047" + "00000000") == "0100000001", "get of the empty path: not held")
        #expect(try send("0a0000004705000000" + hexString(Array("/nope".utf8))) == "0100000001")
        // Still serving the vault.
        #expect(try sandbox.run(["show", vault, "Work/GitHub", "--field", "UserName"]).stdoutText == "sam-dev\n")
    }

    @Test("a vault re-saved by keepassxc-cli (new seed) opens without a prompt; a changed password asks again")
    func resavedByKeePassXC() throws {
        guard let keepassxc = InteropTools.executable(named: "keepassxc-cli") else {
            if let message = InteropTools.missing("keepassxc-cli", test: "agent re-saved vault") { Issue.record(Comment(rawValue: message)) }
            return
        }
        let sandbox = try AgentSandbox()
        let vault = try sandbox.scratch.copy(Demo.vault)
        #expect(try sandbox.run(["unlock", vault], stdin: Demo.stdin).status == 0)
        let seedBefore = try KDBXReader(file: TestVectors.bytes("demo/demo.kdbx")).header.kdf.seed
        let edit = try runProcess(keepassxc, ["edit", "-q", vault, "Work/Jira", "-u", "changed-by-keepassxc"], stdin: Array(Demo.stdin.utf8))
        #expect(edit.status == 0, "\(edit.stderrText)")
        let seedAfter = try KDBXReader(file: Array(try Data(contentsOf: URL(fileURLWithPath: vault)))).header.kdf.seed
        #expect(seedAfter != seedBefore, "keepassxc-cli drew a new KDF seed")

        for _ in 0..<2 {
            let show = try sandbox.run(["show", vault, "Work/Jira", "--field", "UserName"])
            #expect(show.status == 0, "\(show.stderrText)")
            #expect(show.stdoutText == "changed-by-keepassxc\n")
        }
        #expect(try sandbox.held()[vault] != nil)

        // A new master password: the kept composite key no longer opens it.
        let change = try runProcess(keepassxc, ["db-edit", "-q", "-p", vault], stdin: Array("demo\nnew-password\nnew-password\n".utf8))
        #expect(change.status == 0, "\(change.stderrText)")
        let asks = try sandbox.run(["show", vault, "Work/Jira", "--field", "UserName"])
        #expect(asks.status == 1)
        #expect(asks.stderrText.contains("no longer opens"))
        #expect(try sandbox.held()[vault] == nil)
        let answered = try sandbox.run(["show", vault, "Work/Jira", "--field", "UserName"], stdin: "new-password\n")
        #expect(answered.stdoutText == "changed-by-keepassxc\n")
    }

    @Test("after lock the agent's memory no longer holds the composite or the transformed key (/proc/PID/mem)")
    func memoryAfterLock() throws {
        guard geteuid() == 0 else {
            if let message = InteropTools.missing("root", test: "agent memory scan") { Issue.record(Comment(rawValue: message)) }
            return
        }
        let sandbox = try AgentSandbox()
        let demo = try sandbox.scratch.copy(Demo.vault)
        // A second vault with another password keeps the agent alive and is the scan's control.
        let other = try sandbox.scratch.copy("kdbx/keepass/kdbx4-chacha20-aeskdf.kdbx")
        #expect(try sandbox.run(["unlock", demo], stdin: Demo.stdin).status == 0)
        #expect(try sandbox.run(["unlock", other], stdin: Fixture.standardPassword + "\n").status == 0)
        #expect(try sandbox.run(["show", demo, "Work/GitHub"]).status == 0)

        let demoReader = try KDBXReader(file: TestVectors.bytes(Demo.vault))
        let demoKey = try CompositeKey(password: ProtectedString("demo"), keyFileContents: nil)
        let demoTransformed = try MasterKeys.transform(compositeKey: demoKey, kdf: demoReader.header.kdf, limits: KDBXLimits()).unsafeArray
        let otherKey = SHA256.hash(SHA256.hash(Array(Fixture.standardPassword.utf8)))
        #expect(demoKey.rawKey.unsafeArray == Self.demoCompositeKey)

        let pid = try #require(sandbox.agentPID)
        let before = try #require(ProcessMemory.contains(pid: pid, [Self.demoCompositeKey, demoTransformed, otherKey]))
        #expect(before == [true, true, true], "the scan finds the keys while they are held")

        #expect(try sandbox.run(["lock", demo]).status == 0)
        #expect(sandbox.agentPID == pid, "the agent still runs for the other vault")
        let after = try #require(ProcessMemory.contains(pid: pid, [Self.demoCompositeKey, demoTransformed, otherKey]))
        #expect(after == [false, false, true], "the locked vault's keys are gone; the other vault's are still held")
    }
}
