import Foundation
import MyPassTestSupport
import Testing

/// Runs the built `mypass` binary on scratch copies of vaults.
enum CLI {
    /// The `mypass` executable built beside this test bundle (`.build/<config>/mypass`), or the
    /// one named by `MYPASS_BIN`.
    static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["MYPASS_BIN"] { return URL(fileURLWithPath: path) }
        var candidates: [URL] = []
        // The test runner's own directory (on Linux the .xctest is an executable in .build/<config>/).
        let selfPath = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments.first ?? ""
        var directory = URL(fileURLWithPath: selfPath).deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(directory.appendingPathComponent("mypass"))
            directory = directory.deletingLastPathComponent()
        }
        candidates.append(Bundle.main.bundleURL.appendingPathComponent("mypass"))
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("mypass"))
        for config in ["release", "debug"] {
            candidates.append(TestVectors.repositoryRoot.appendingPathComponent(".build/\(config)/mypass"))
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }()

    /// Runs `mypass arguments...` with `stdin` (for example `"password\n"`).
    static func run(_ arguments: [String], stdin: String = "", in directory: URL? = nil) throws -> ProcessResult {
        try runProcess(binary, arguments, stdin: Array(stdin.utf8), currentDirectory: directory)
    }

    /// The first line of stderr (errors are one line).
    static func firstErrorLine(_ result: ProcessResult) -> String {
        String(result.stderrText.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
    }
}

/// A temporary directory removed when the value is dropped.
final class Scratch {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("mypass-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        // Make read-only test directories writable again so they can be removed.
        try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        try? FileManager.default.removeItem(at: url)
    }

    /// Copies `Vectors/<relativePath>` into the scratch directory and returns the copy's path.
    func copy(_ relativePath: String, as name: String? = nil) throws -> String {
        let source = TestVectors.url(relativePath)
        let target = url.appendingPathComponent(name ?? source.lastPathComponent)
        try? FileManager.default.removeItem(at: target)
        try FileManager.default.copyItem(at: source, to: target)
        return target.path
    }

    /// Writes `bytes` to a file in the scratch directory and returns its path.
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let target = url.appendingPathComponent(name)
        try Data(bytes).write(to: target)
        return target.path
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// The fixtures of `Vectors/kdbx/` (KeePass and KeePassXC vaults with manifests) and their keys,
/// as `../shared/fixtures/README.md` lists them.
struct Fixture: CustomStringConvertible, Sendable {
    /// `keepass/kdbx4-aes-argon2d` (without extension), below `Vectors/kdbx/`.
    var name: String
    /// The master password, or nil for a key-file-only vault.
    var password: String?
    /// The key file below `Vectors/kdbx/`, if any.
    var keyFile: String?

    var description: String { name }
    /// The 5,000-entry timing fixtures.
    var isLarge: Bool { name.hasSuffix("-large-5000") }
    var vaultPath: String { "kdbx/\(name).kdbx" }
    var manifestPath: String { "kdbx/\(name).json" }

    static let standardPassword = "correct horse battery staple"

    /// Every fixture with a manifest, in a stable order.
    static let all: [Fixture] = {
        let stems = [
            "keepass/kdbx31-aes-aeskdf-nocomp", "keepass/kdbx31-aes-aeskdf", "keepass/kdbx31-keyfile-only",
            "keepass/kdbx31-large-5000", "keepass/kdbx4-aes-argon2d-p1", "keepass/kdbx4-aes-argon2d",
            "keepass/kdbx4-chacha20-aeskdf", "keepass/kdbx4-chacha20-argon2id", "keepass/kdbx4-empty-password",
            "keepass/kdbx4-keyfile-only", "keepass/kdbx4-large-5000", "keepass/kdbx4-pw-keyfile-arbitrary",
            "keepass/kdbx4-pw-keyfile-binary32", "keepass/kdbx4-pw-keyfile-hex64", "keepass/kdbx4-pw-keyfile-v1",
            "keepass/kdbx4-pw-keyfile-v2", "keepass/kdbx4-unicode-password", "keepassxc/kxc-edited-argon2id",
            "keepassxc/kxc-import-rich",
        ]
        return stems.map { stem in
            switch stem {
            case "keepass/kdbx31-keyfile-only": return Fixture(name: stem, password: nil, keyFile: "keepass/keyfile-v1.key")
            case "keepass/kdbx4-keyfile-only": return Fixture(name: stem, password: nil, keyFile: "keepass/keyfile-v2.keyx")
            case "keepass/kdbx4-empty-password": return Fixture(name: stem, password: "", keyFile: nil)
            case "keepass/kdbx4-unicode-password": return Fixture(name: stem, password: "pässwörd-日本語-🔑", keyFile: nil)
            case "keepass/kdbx4-pw-keyfile-arbitrary": return Fixture(name: stem, password: standardPassword, keyFile: "keepass/keyfile-arbitrary.bin")
            case "keepass/kdbx4-pw-keyfile-binary32": return Fixture(name: stem, password: standardPassword, keyFile: "keepass/keyfile-binary32.key")
            case "keepass/kdbx4-pw-keyfile-hex64": return Fixture(name: stem, password: standardPassword, keyFile: "keepass/keyfile-hex64.key")
            case "keepass/kdbx4-pw-keyfile-v1": return Fixture(name: stem, password: standardPassword, keyFile: "keepass/keyfile-v1.key")
            case "keepass/kdbx4-pw-keyfile-v2": return Fixture(name: stem, password: standardPassword, keyFile: "keepass/keyfile-v2.keyx")
            default: return Fixture(name: stem, password: standardPassword, keyFile: nil)
            }
        }
    }()

    static func named(_ stem: String) -> Fixture { all.first { $0.name.hasSuffix("/" + stem) }! }

    /// `--keyfile PATH` / `--no-password` arguments for this fixture.
    var keyArguments: [String] {
        var arguments: [String] = []
        if let keyFile { arguments += ["--keyfile", TestVectors.url("kdbx/" + keyFile).path] }
        if password == nil { arguments.append("--no-password") }
        return arguments
    }

    /// What to pipe into stdin.
    var stdin: String { password.map { $0 + "\n" } ?? "" }
}

/// The demo vault (`Vectors/demo/demo.kdbx`, password `demo`).
enum Demo {
    static let vault = "demo/demo.kdbx"
    static let password = "demo"
    static let stdin = "demo\n"
}
