import Foundation
import MyPassCore
import MyPassCrypto
import MyPassTestSupport
import Testing

/// One `mypass create` setting: KDF, cipher and format, with a small cost so the matrix stays fast.
struct CreateCase: CustomStringConvertible, Sendable {
    var kdf: String
    var cipher: String
    var format: String

    var description: String { "\(kdf)/\(cipher)/\(format)" }

    var arguments: [String] {
        var arguments = ["--kdf", kdf, "--cipher", cipher, "--format", format]
        arguments += kdf == "aes" ? ["--rounds", "1000"] : ["--memory", "1MiB", "--iterations", "2", "--parallelism", "2"]
        return arguments
    }

    /// Every combination MyPass writes (KDBX 3.1 holds AES-KDF only): 21.
    static let all: [CreateCase] = ["argon2d", "argon2id", "aes"].flatMap { kdf in
        ["aes256", "chacha20", "twofish"].flatMap { cipher in
            (kdf == "aes" ? ["4.1", "4.0", "3.1"] : ["4.1", "4.0"]).map { CreateCase(kdf: kdf, cipher: cipher, format: $0) }
        }
    }
}

#if DEBUG
private let isReleaseBuild = false
#else
private let isReleaseBuild = true
#endif

/// `mypass create`, `passwd`, `settings`, `import` and `export --format csv`, read back by
/// KeePassXC (`keepassxc-cli`) and KeePass (`kporacle dump`).
@Suite("mypass create, passwd, settings, import, export csv")
struct LifecycleCommandTests {
    let scratch: Scratch

    init() throws { scratch = try Scratch() }

    func mypass(_ arguments: [String], stdin: String = "pw\n", status: Int32 = 0) throws -> ProcessResult {
        let result = try CLI.run(arguments, stdin: stdin)
        #expect(result.status == status, "mypass \(arguments): \(result.stderrText)")
        return result
    }

    func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// The KDBX version in the file's header (bytes 8-11: minor, major, little-endian).
    func headerVersion(_ path: String) throws -> String {
        let data = try bytes(path)
        return "\(UInt16(data[10]) | UInt16(data[11]) << 8).\(UInt16(data[8]) | UInt16(data[9]) << 8)"
    }

    func kporacleFile(_ path: String, password: String, test: String) throws -> [String: Any]? {
        try Interop.kporacleDump(path, password: password, test: test)?["file"] as? [String: Any]
    }

    @Test("create: every KDF, cipher and format opens in keepassxc-cli and KeePass with exactly those settings", arguments: CreateCase.all)
    func createMatrix(_ setting: CreateCase) throws {
        let vault = scratch.path("new.kdbx")
        let created = try mypass(["create", vault] + setting.arguments + ["--name", "Matrix"], stdin: "pw\npw\n")
        #expect(created.stdoutText.hasPrefix("Created '\(vault)': KDBX \(setting.format), "))
        #expect(try headerVersion(vault) == setting.format)

        guard let info = try Interop.keepassxc(["db-info", vault], password: "pw", test: "createMatrix") else { return }
        #expect(info.status == 0, "keepassxc-cli db-info: \(info.stderrText)")
        let cipherName = ["aes256": "AES 256-bit", "chacha20": "ChaCha20 256-bit", "twofish": "Twofish 256-bit"][setting.cipher]!
        #expect(info.stdoutText.contains("Cipher: \(cipherName)\n"))
        let kdfLine = setting.kdf == "aes" ? "KDF: AES (1000 rounds)\n"
            : "KDF: \(setting.kdf == "argon2d" ? "Argon2d" : "Argon2id") (2 rounds, 1024 KB)\n"
        #expect(info.stdoutText.contains(kdfLine), "\(info.stdoutText)")
        #expect(info.stdoutText.contains("Name: Matrix\n"))

        if setting.cipher == "twofish" {
            // KeePass 2 reads Twofish only with a plugin: kporacle refuses the cipher, nothing else.
            guard let kporacle = InteropTools.kporacle else { return }
            let dump = try runProcess(kporacle, ["dump", vault, "--pw", "pw"])
            #expect(dump.status != 0 && dump.stderrText.contains("unknown encryption algorithm"))
            return
        }
        guard let file = try kporacleFile(vault, password: "pw", test: "createMatrix") else { return }
        #expect(file["version"] as? String == setting.format)
        #expect(file["cipher"] as? String == setting.cipher)
        #expect(file["compression"] as? String == "gzip")
        let kdf = try #require(file["kdf"] as? [String: Any])
        #expect(kdf["type"] as? String == setting.kdf)
        if setting.kdf == "aes" {
            #expect(kdf["rounds"] as? Int == 1000)
        } else {
            #expect(kdf["memory"] as? Int == 1 << 20 && kdf["iterations"] as? Int == 2 && kdf["parallelism"] as? Int == 2)
            #expect(kdf["version"] as? Int == 19)
        }
    }

    @Test("create with KeePass's defaults: Argon2d 64 MiB, 2 lanes, iterations calibrated, AES-256, KDBX 4.0, root named after the file",
          .enabled(if: isReleaseBuild, "Argon2 at 64 MiB is run in release builds only"))
    func createDefaults() throws {
        let vault = scratch.path("Family Vault.kdbx")
        _ = try mypass(["create", vault], stdin: "pw\npw\n")
        guard let dump = try Interop.kporacleDump(vault, password: "pw", test: "createDefaults") else { return }
        let file = try #require(dump["file"] as? [String: Any])
        let kdf = try #require(file["kdf"] as? [String: Any])
        #expect(file["version"] as? String == "4.0" && file["cipher"] as? String == "aes256" && file["compression"] as? String == "gzip")
        #expect(kdf["type"] as? String == "argon2d" && kdf["memory"] as? Int == 64 << 20 && kdf["parallelism"] as? Int == 2)
        #expect((kdf["iterations"] as? Int ?? 0) >= 1)
        #expect((dump["meta"] as? [String: Any])?["databaseName"] as? String == "Family Vault")
        #expect((dump["meta"] as? [String: Any])?["recycleBinEnabled"] as? Bool == true)
        let groups = try #require(dump["groups"] as? [[String: Any]])
        #expect(groups.count == 1 && groups[0]["name"] as? String == "Family Vault")
    }

    @Test("create and settings calibrate AES-KDF on the AES backend that opens the vault here and name it; MYPASS_CRYPTO_BACKEND=portable rules the hardware out")
    func calibrationNamesTheAESBackend() throws {
        // What this CPU runs: AES-NI on an x86_64 Linux with aes, SSE4.1 and SSSE3 (the mypass
        // binary links MyPassCryptoHardware), ARMv8 on an arm64 with aes, else the portable code.
        let features = SystemPlatform.cpuFeatures()
        #if arch(x86_64) && os(Linux)
        let hardware = features.isSuperset(of: ["aes", "sse4_1", "ssse3"]) ? "aes-ni" : "portable"
        #elseif arch(arm64)
        let hardware = features.contains("aes") ? "armv8" : "portable"
        #else
        let hardware = "portable"
        #endif
        var environment = ProcessInfo.processInfo.environment
        environment["MYPASS_CRYPTO_BACKEND"] = nil
        for (backend, value) in [(hardware, nil), ("portable", "portable")] as [(String, String?)] {
            environment["MYPASS_CRYPTO_BACKEND"] = value
            let vault = scratch.path("calibrated-\(backend).kdbx")
            let created = try runProcess(CLI.binary, ["create", vault, "--kdf", "aes", "--unlock-time", "0.05"],
                                         stdin: Array("pw\npw\n".utf8), environment: environment)
            #expect(created.status == 0, "\(created.stderrText)")
            #expect(created.stdoutText.contains("\nAES-KDF calibrated to 0.05 s on this machine's AES backend (\(backend)).\n"),
                    "\(created.stdoutText)")
            let changed = try runProcess(CLI.binary, ["settings", vault, "--unlock-time", "0.05"], stdin: Array("pw\n".utf8),
                                         environment: environment)
            #expect(changed.status == 0, "\(changed.stderrText)")
            #expect(changed.stdoutText.hasSuffix("\nAES-KDF calibrated to 0.05 s on this machine's AES backend (\(backend)).\n"),
                    "\(changed.stdoutText)")
        }
        // Argon2 has no hardware path: no such line.
        let argon2 = try mypass(["create", scratch.path("argon2.kdbx"), "--kdf", "argon2id", "--memory", "1MiB", "--parallelism", "1",
                                 "--unlock-time", "0.05"], stdin: "pw\npw\n")
        #expect(!argon2.stdoutText.contains("calibrated"), "\(argon2.stdoutText)")
    }

    @Test("create refuses an existing file (untouched), mismatched passwords, and 3.1 with Argon2; a generated key file is KeePass XML 2.0")
    func createRefusalsAndKeyFile() throws {
        let existing = try scratch.copy(Demo.vault)
        let before = try bytes(existing)
        let refused = try mypass(["create", existing, "--kdf", "aes", "--rounds", "1000"], status: 1)
        #expect(CLI.firstErrorLine(refused) == "Error: cannot create '\(existing)': a file is already there; nothing was written")
        #expect(try bytes(existing) == before)
        let other = scratch.path("other.kdbx")
        let mismatch = try mypass(["create", other, "--kdf", "aes", "--rounds", "1000"], stdin: "one\ntwo\n", status: 1)
        #expect(CLI.firstErrorLine(mismatch) == "Error: the two passwords do not match; nothing was changed")
        _ = try mypass(["create", other, "--kdf", "argon2d", "--format", "3.1", "--iterations", "1"], status: 1)
        #expect(!FileManager.default.fileExists(atPath: other))

        let keyFile = scratch.path("new.keyx")
        _ = try mypass(["create", other, "--generate-keyfile", keyFile, "--no-password", "--kdf", "aes", "--rounds", "1000"], stdin: "")
        let text = String(decoding: try bytes(keyFile), as: UTF8.self)
        #expect(text.contains("<Version>2.0</Version>") && text.contains("<Data Hash=\""))
        guard let tool = InteropTools.executable(named: "keepassxc-cli") else {
            if let message = InteropTools.missing("keepassxc-cli", test: "createRefusalsAndKeyFile") { Issue.record(Comment(rawValue: message)) }
            return
        }
        let listed = try runProcess(tool, ["ls", "--no-password", "-k", keyFile, other])
        #expect(listed.status == 0, "\(listed.stderrText)")
        guard let kporacle = InteropTools.kporacle else { return }
        let dump = try runProcess(kporacle, ["dump", other, "--nopw", "--keyfile", keyFile])
        #expect(dump.status == 0, "\(dump.stderrText)")
    }

    @Test("passwd: the old password is refused and the new one accepted by mypass, keepassxc-cli and KeePass; MasterKeyChanged moves")
    func passwd() throws {
        let vault = try scratch.copy(Demo.vault)
        let before = try CLI.run(["export", vault], stdin: Demo.stdin).stdoutText
        let changed = try mypass(["passwd", vault], stdin: "demo\nnew secret\nnew secret\n")
        #expect(changed.stdoutText == "Changed the key of '\(vault)': it now opens with a password.\n")
        _ = try mypass(["ls", vault], stdin: Demo.stdin, status: 3)
        let after = try mypass(["export", vault], stdin: "new secret\n").stdoutText
        let old = try #require(try parseJSON(before) as? [String: Any]), new = try #require(try parseJSON(after) as? [String: Any])
        #expect(manifestDifferences(expected: old["entries"]!, actual: new["entries"]!).isEmpty)
        let settings = try mypass(["settings", vault], stdin: "new secret\n").stdoutText
        #expect(!settings.contains("Master key changed:  2026-01-15"))

        if let oldKX = try Interop.keepassxc(["ls", vault], password: Demo.password, test: "passwd") {
            #expect(oldKX.status != 0)
            let newKX = try Interop.keepassxc(["ls", vault], password: "new secret", test: "passwd")
            #expect(newKX?.status == 0, "\(newKX?.stderrText ?? "")")
        }
        if let kporacle = InteropTools.kporacle {
            #expect(try runProcess(kporacle, ["dump", vault, "--pw", Demo.password]).status != 0)
        }
        guard let dump = try Interop.kporacleDump(vault, password: "new secret", test: "passwd") else { return }
        #expect((dump["entries"] as? [Any])?.count == (old["entries"] as? [Any])?.count)
    }

    @Test("passwd to a key file alone and back: each step refuses the old key in all three tools")
    func passwdKeyFile() throws {
        let vault = try scratch.copy(Demo.vault)
        let keyFile = TestVectors.url("kdbx/keepass/keyfile-v2.keyx").path
        _ = try mypass(["passwd", vault, "--new-keyfile", keyFile, "--new-no-password"], stdin: "demo\n")
        _ = try mypass(["ls", vault], stdin: Demo.stdin, status: 3)
        _ = try mypass(["ls", vault, "--keyfile", keyFile, "--no-password"], stdin: "")
        if let tool = InteropTools.executable(named: "keepassxc-cli") {
            #expect(try runProcess(tool, ["ls", "--no-password", "-k", keyFile, vault]).status == 0)
        }
        if let kporacle = InteropTools.kporacle {
            #expect(try runProcess(kporacle, ["dump", vault, "--nopw", "--keyfile", keyFile]).status == 0)
            #expect(try runProcess(kporacle, ["dump", vault, "--pw", Demo.password]).status != 0)
        }
        _ = try mypass(["passwd", vault, "--keyfile", keyFile, "--no-password", "--remove-keyfile"], stdin: "back\n")
        _ = try mypass(["ls", vault, "--keyfile", keyFile, "--no-password"], stdin: "", status: 3)
        _ = try mypass(["ls", vault], stdin: "back\n")
        // A key with neither part is refused before anything changes.
        _ = try mypass(["passwd", vault, "--new-no-password"], stdin: "back\n", status: 2)
        _ = try mypass(["passwd", vault], stdin: "back\nx\ny\n", status: 1)
        _ = try mypass(["ls", vault], stdin: "back\n")
    }

    @Test("settings: KDF, cipher, format, compression, name, description, recycle bin and history limits read back by KeePass")
    func settingsReadBack() throws {
        let vault = try scratch.copy(Demo.vault)
        let changed = try mypass(["settings", vault, "--kdf", "argon2id", "--memory", "2MiB", "--iterations", "3", "--parallelism", "1",
                                  "--cipher", "chacha20", "--format", "4.1", "--compression", "none", "--name", "Renamed",
                                  "--description", "Shared family vault", "--recycle-bin", "off", "--history-max-items", "4",
                                  "--history-max-size", "1MiB"], stdin: Demo.stdin)
        #expect(changed.stdoutText.contains("KDF:                 Argon2id (memory 2.0 MiB, 3 iterations, parallelism 1, version 1.3)\n"))
        guard let dump = try Interop.kporacleDump(vault, password: Demo.password, test: "settingsReadBack") else { return }
        let file = try #require(dump["file"] as? [String: Any]), meta = try #require(dump["meta"] as? [String: Any])
        #expect(file["version"] as? String == "4.1" && file["cipher"] as? String == "chacha20" && file["compression"] as? String == "none")
        let kdf = try #require(file["kdf"] as? [String: Any])
        #expect(kdf["type"] as? String == "argon2id" && kdf["memory"] as? Int == 2 << 20 && kdf["iterations"] as? Int == 3
                && kdf["parallelism"] as? Int == 1)
        #expect(meta["databaseName"] as? String == "Renamed" && meta["databaseDescription"] as? String == "Shared family vault")
        #expect(meta["recycleBinEnabled"] as? Bool == false && meta["historyMaxItems"] as? Int == 4 && meta["historyMaxSize"] as? Int == 1 << 20)

        // Down to 3.1 with AES-KDF, calibrated quickly; KeePass reads it.
        _ = try mypass(["settings", vault, "--format", "3.1", "--kdf", "aes", "--unlock-time", "0.05", "--cipher", "aes256"], stdin: Demo.stdin)
        guard let file31 = try kporacleFile(vault, password: Demo.password, test: "settingsReadBack") else { return }
        #expect(file31["version"] as? String == "3.1" && (file31["kdf"] as? [String: Any])?["type"] as? String == "aes")
        #expect(((file31["kdf"] as? [String: Any])?["rounds"] as? Int ?? 0) >= 1)
        // Refusals change nothing.
        let before = try bytes(vault)
        let refused = try mypass(["settings", vault, "--format", "3.1", "--kdf", "argon2d", "--iterations", "1"], stdin: Demo.stdin, status: 1)
        #expect(CLI.firstErrorLine(refused).contains("KDBX 3.1 has AES-KDF only"))
        _ = try mypass(["settings", vault, "--iterations", "2", "--unlock-time", "1"], stdin: Demo.stdin, status: 2)
        #expect(try bytes(vault) == before)
    }

    @Test("export --format csv of every fixture equals keepassxc-cli export -f csv of it", arguments: Fixture.all.filter { !$0.isLarge })
    func csvExportMatchesKeePassXC(_ fixture: Fixture) throws {
        let vault = TestVectors.url(fixture.vaultPath).path
        let ours = try mypass(["export", vault, "--format", "csv"] + fixture.keyArguments, stdin: fixture.stdin)
        guard let tool = InteropTools.executable(named: "keepassxc-cli") else {
            if let message = InteropTools.missing("keepassxc-cli", test: "csvExportMatchesKeePassXC") { Issue.record(Comment(rawValue: message)) }
            return
        }
        var arguments = ["export", "-f", "csv"]
        if let keyFile = fixture.keyFile { arguments += ["-k", TestVectors.url("kdbx/" + keyFile).path] }
        if fixture.password == nil { arguments.append("--no-password") }
        let theirs = try runProcess(tool, arguments + [vault], stdin: Array(fixture.stdin.utf8))
        #expect(theirs.status == 0, "\(theirs.stderrText)")
        #expect(ours.stdoutText == theirs.stdoutText)
    }

    @Test("import: KeePassXC's CSV into a new vault and Bitwarden's JSON into it as a group; KeePass and KeePassXC read the entries")
    func importFiles() throws {
        let vault = scratch.path("imported.kdbx")
        let csv = TestVectors.url("import/demo-keepassxc.csv").path, json = TestVectors.url("import/bitwarden.json").path
        let created = try mypass(["import", vault, csv, "--from", "keepassxc-csv", "--create", "--kdf", "aes", "--rounds", "1000",
                                  "--name", "Demo"], stdin: "pw\npw\n")
        #expect(created.stdoutText.hasSuffix("Imported 7 entries from '\(csv)'.\n"))
        let exported = try mypass(["export", vault, "--format", "csv"]).stdoutText
        #expect(exported == (try TestVectors.text("import/demo-keepassxc.csv")))
        let added = try mypass(["import", vault, json, "--from", "bitwarden-json"])
        #expect(added.stdoutText == "Imported 4 entries from '\(json)' into group 'bitwarden' of '\(vault)'.\n")

        guard let dump = try Interop.kporacleDump(vault, password: "pw", test: "importFiles") else { return }
        let github = try #require((dump["entries"] as? [[String: Any]])?.first {
            Interop.fieldValue($0, "Title") == "GitHub" && ($0["path"] as? [String]) == ["bitwarden", "Work"]
        })
        #expect(Interop.fieldValue(github, "Password") == "gh-Xq8!vR2#mT5pL" && Interop.fieldProtected(github, "Password") == true)
        #expect(Interop.fieldValue(github, "otp") == "otpauth://totp/GitHub:sam-dev?secret=JBSWY3DPEHPK3PXP&issuer=GitHub")
        #expect(Interop.fieldValue(github, "API token") == "ghp_ExampleToken123" && Interop.fieldProtected(github, "API token") == true)
        #expect(Interop.fieldValue(github, "KP2A_URL_1") == "https://gist.github.com/")
        let visa = try #require(Interop.entry(dump, titled: "Visa"))
        #expect(Interop.fieldValue(visa, "Card Number") == "4111111111111111" && visa["path"] as? [String] == ["bitwarden", "Finance"])
        let demoGitHub = try #require((dump["entries"] as? [[String: Any]])?.first {
            Interop.fieldValue($0, "Title") == "GitHub" && ($0["path"] as? [String]) == ["Work"]
        })
        #expect(Interop.fieldValue(demoGitHub, "otp") == "otpauth://totp/GitHub:sam-dev?secret=JBSWY3DPEHPK3PXP&period=30&digits=6&issuer=GitHub")
        // KeePassXC computes the imported TOTP.
        let totp = try Interop.keepassxc(["show", "-t", vault, "bitwarden/Work/GitHub"], password: "pw", test: "importFiles")
        #expect(totp?.status == 0 && totp?.stdoutText.count == 7, "\(totp?.stderrText ?? "")")
    }

    @Test("import of KeePass's plain XML export into a new vault: KeePass reads the same entries")
    func importKeePassXML() throws {
        let vault = scratch.path("from-xml.kdbx")
        let xml = TestVectors.url("kdbx-xml/rich-export.xml").path
        _ = try mypass(["import", vault, xml, "--from", "keepass-xml", "--create", "--kdf", "aes", "--rounds", "1000"], stdin: "pw\n")
        guard let dump = try Interop.kporacleDump(vault, password: "pw", test: "importKeePassXML") else { return }
        let expected = try #require(try parseJSON(try TestVectors.text("kdbx-xml/kxc-import-rich.json")) as? [String: Any])
        // The reference is KeePassXC's import of the same XML: it adds `_LAST_MODIFIED` custom data
        // and may write tags in another order; everything else must be equal.
        let differences = manifestDifferences(expected: MergeCommandTests.sortingTags(expected["entries"]!),
                                              actual: MergeCommandTests.sortingTags(dump["entries"]!),
                                              ignore: { $0.hasSuffix("._LAST_MODIFIED") })
        #expect(differences.isEmpty, "\(differences.prefix(5))")
    }

    @Test("Bad import files: an error naming the line, exit 1, and the vault is byte for byte as it was", arguments: [
        ("bad-columns.csv", "keepassxc-csv", "line 1: the header is not KeePassXC's"),
        ("bad-short-record.csv", "keepassxc-csv", "line 3: 6 fields, expected 10"),
        ("bad-broken.json", "bitwarden-json", "line 5: broken JSON"),
        ("bad-duplicate-folder.json", "bitwarden-json", "line 5: the folder id 'f1' appears twice"),
    ])
    func badImports(file: String, format: String, message: String) throws {
        let vault = try scratch.copy(Demo.vault)
        let before = try bytes(vault)
        let path = TestVectors.url("import/" + file).path
        let result = try mypass(["import", vault, path, "--from", format], stdin: Demo.stdin, status: 1)
        #expect(CLI.firstErrorLine(result).hasPrefix("Error: cannot import '\(path)': \(message)"), "\(result.stderrText)")
        #expect(try bytes(vault) == before)
        // A duplicate group name is refused too, after the vault is opened, and changes nothing.
        let csv = TestVectors.url("import/demo-keepassxc.csv").path
        _ = try mypass(["import", vault, csv, "--from", "keepassxc-csv", "--group", "Work"], stdin: Demo.stdin, status: 1)
        #expect(try bytes(vault) == before)
    }
}
