import Foundation
import MyPassTestSupport
import Testing

/// `mypass passkey ls|show|add|assert` on copies of the demo vault, checked by KeePassXC
/// (`keepassxc-cli show --all`), Python `cryptography` and the `fido2` package's WebAuthn server.
@Suite("mypass passkey")
struct PasskeyCommandTests {
    static let password = "demo"

    /// A copy of the demo vault with an ES256 and an EdDSA passkey added by `mypass passkey add --json`.
    static func vaultWithPasskeys(_ scratch: Scratch) throws -> (vault: String, registrations: [String: [String: Any]]) {
        let vault = try scratch.copy("demo/demo.kdbx")
        var registrations: [String: [String: Any]] = [:]
        for alg in ["es256", "eddsa"] {
            let result = try CLI.run(
                ["passkey", "add", vault, "Work/Passkey \(alg)", "--rp", "example.com", "--user", "alice", "--alg", alg, "--json"],
                stdin: password + "\n")
            #expect(result.status == 0, "\(result.stderrText)")
            registrations[alg] = try parseJSON(result.stdoutText) as? [String: Any]
        }
        return (vault, registrations)
    }

    @Test("add, ls, show and assert: outputs, and no private key without --reveal")
    func commands() throws {
        let scratch = try Scratch()
        let (vault, registrations) = try Self.vaultWithPasskeys(scratch)
        let es256 = try #require(registrations["es256"])
        #expect(es256["publicKeyAlgorithm"] as? Int == -7)
        #expect(registrations["eddsa"]?["publicKeyAlgorithm"] as? Int == -8)
        #expect((es256["credentialId"] as? String)?.count == 43)  // 32 bytes, base64url

        let list = try CLI.run(["passkey", "ls", vault], stdin: Self.password + "\n")
        #expect(list.status == 0)
        #expect(list.stdoutText == "Work/Passkey es256\texample.com\talice\tes256\nWork/Passkey eddsa\texample.com\talice\teddsa\n")

        let show = try CLI.run(["passkey", "show", vault, "Work/Passkey es256", "--json"], stdin: Self.password + "\n")
        let shown = try #require(try parseJSON(show.stdoutText) as? [String: Any])
        #expect(shown["credentialId"] as? String == es256["credentialId"] as? String)
        #expect(shown["publicKeyCose"] as? String == es256["publicKey"] as? String)
        #expect(shown["backupEligible"] as? Bool == true)
        #expect(shown["privateKeyPem"] == nil)
        let revealed = try CLI.run(["passkey", "show", vault, "Work/Passkey es256", "--reveal"], stdin: Self.password + "\n")
        #expect(revealed.stdoutText.contains("-----BEGIN PRIVATE KEY-----"))

        let hash = String(repeating: "ab", count: 32)
        let assert = try CLI.run(["passkey", "assert", vault, "Work/Passkey es256", "--client-data-hash", hash], stdin: Self.password + "\n")
        #expect(assert.status == 0, "\(assert.stderrText)")
        let assertion = try #require(try parseJSON(assert.stdoutText) as? [String: Any])
        #expect(assertion["credentialId"] as? String == es256["credentialId"] as? String)
        #expect(assertion["userHandle"] as? String == es256["userHandle"] as? String)
        // rpIdHash of example.com, flags 0x1D (UP, UV, BE, BS), counter 0.
        #expect(assertion["authenticatorData"] as? String == "o3mm9u6vuaVeN4wRgDTidR5oL6ufLTCrE9ISVYbOGUcdAAAAAA")

        // Nothing but show --reveal prints the key; plain `show` hides the protected field.
        let plainShow = try CLI.run(["show", vault, "Work/Passkey es256"], stdin: Self.password + "\n")
        #expect(plainShow.stdoutText.contains("KPEX_PASSKEY_PRIVATE_KEY_PEM: PROTECTED"))
        for output in [list, show, assert, plainShow] {
            #expect(!(output.stdoutText + output.stderrText).contains("PRIVATE KEY-----"))
        }

        // Usage errors and a relying party mismatch.
        let badHash = try CLI.run(["passkey", "assert", vault, "Work/Passkey es256", "--client-data-hash", "abcd"], stdin: Self.password + "\n")
        #expect(badHash.status == 2)
        let wrongRP = try CLI.run(
            ["passkey", "assert", vault, "Work/Passkey es256", "--client-data-hash", hash, "--rp", "evil.example"], stdin: Self.password + "\n")
        #expect(wrongRP.status == 1)
        #expect(CLI.firstErrorLine(wrongRP).contains("not evil.example"))
        let badAlg = try CLI.run(["passkey", "add", vault, "Work/X", "--rp", "a.com", "--user", "u", "--alg", "rs256"], stdin: Self.password + "\n")
        #expect(badAlg.status == 2)
        let noPasskey = try CLI.run(["passkey", "assert", vault, "Work/GitHub", "--client-data-hash", hash], stdin: Self.password + "\n")
        #expect(noPasskey.status == 1)
    }

    @Test("keepassxc-cli shows an entry made by mypass passkey add with KeePassXC's attribute names")
    func keepassxcShowsAttributes() throws {
        let scratch = try Scratch()
        let (vault, _) = try Self.vaultWithPasskeys(scratch)
        guard let result = try Interop.keepassxc(["show", "--all", vault, "Work/Passkey es256"], password: Self.password,
                                                 test: "passkey attributes in keepassxc-cli") else { return }
        #expect(result.status == 0, "\(result.stderrText)")
        for line in [
            "Tags: Passkey", "KPEX_PASSKEY_CREDENTIAL_ID: PROTECTED", "KPEX_PASSKEY_FLAG_BE: 1", "KPEX_PASSKEY_FLAG_BS: 1",
            "KPEX_PASSKEY_PRIVATE_KEY_PEM: PROTECTED", "KPEX_PASSKEY_RELYING_PARTY: example.com",
            "KPEX_PASSKEY_USERNAME: alice", "KPEX_PASSKEY_USER_HANDLE: PROTECTED", "UserName: alice", "URL: https://example.com",
        ] {
            #expect(result.stdoutText.contains(line + "\n"), "missing '\(line)'")
        }
        // The PEM KeePassXC reads back is the key Python's cryptography loads (checked below), and
        // KeePassXC hands it out unchanged.
        guard let pem = try Interop.keepassxc(["show", "-a", "KPEX_PASSKEY_PRIVATE_KEY_PEM", vault, "Work/Passkey es256"],
                                              password: Self.password, test: "passkey PEM in keepassxc-cli") else { return }
        #expect(pem.stdoutText.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
    }

    @Test("End to end: the fido2 package's server registers the credential from passkey add and accepts passkey assert")
    func fido2Server() throws {
        guard let python = InteropTools.python(withModules: ["fido2", "cryptography"]) else {
            if let message = InteropTools.missing("python3 with the fido2 package (pip install fido2)", test: "fido2 end to end") {
                Issue.record(Comment(rawValue: message))
            }
            return
        }
        let scratch = try Scratch()
        let vault = try scratch.copy("demo/demo.kdbx")
        let script = TestVectors.url("cli-passkey/fido2_server_check.py").path
        for alg in ["es256", "eddsa"] {
            let add = try CLI.run(
                ["passkey", "add", vault, "Work/Site \(alg)", "--rp", "login.example.org", "--user", "alice", "--alg", alg, "--json"],
                stdin: Self.password + "\n")
            #expect(add.status == 0, "\(add.stderrText)")
            let check = try runProcess(
                python, [script, CLI.binary.path, vault, "Work/Site \(alg)", Self.password, "login.example.org"], stdin: add.stdout)
            #expect(check.status == 0, "\(alg): \(check.stderrText)")
            #expect(check.stdoutText == "registered True\nauthenticated True\ntampered refused\nauthenticated True\ntampered refused\n", "\(alg)")
        }
    }
}
