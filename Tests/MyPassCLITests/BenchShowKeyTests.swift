import Foundation
import MyPassTestSupport
import Testing

/// `mypass-bench kdf ... --show-key` against independent implementations: Debian's `argon2` CLI
/// (the reference C implementation) for Argon2, and the generated AES-KDF vectors of
/// `Vectors/aeskdf/` (OpenSSL's AES through Python) for AES-KDF.
@Suite("mypass-bench --show-key")
struct BenchShowKeyTests {
    /// The `mypass-bench` executable built beside this test bundle (`.build/<config>/`), or the one
    /// named by `MYPASS_BENCH_BIN`.
    static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["MYPASS_BENCH_BIN"] { return URL(fileURLWithPath: path) }
        var candidates: [URL] = []
        let selfPath = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments.first ?? ""
        var directory = URL(fileURLWithPath: selfPath).deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(directory.appendingPathComponent("mypass-bench"))
            directory = directory.deletingLastPathComponent()
        }
        for config in ["release", "debug"] {
            candidates.append(TestVectors.repositoryRoot.appendingPathComponent(".build/\(config)/mypass-bench"))
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }()

    /// The first line of `mypass-bench` stdout, after checking it exited 0.
    static func showKey(_ arguments: [String]) throws -> String {
        #expect(FileManager.default.isExecutableFile(atPath: binary.path), "mypass-bench not built at \(binary.path)")
        let result = try runProcess(binary, arguments + ["--show-key", "--runs", "1"])
        #expect(result.status == 0, "mypass-bench \(arguments): \(result.stderrText)")
        return String(result.stdoutText.split(separator: "\n").first ?? "")
    }

    struct Argon2Case: CustomTestStringConvertible, Sendable {
        var variant: String  // "argon2d" or "argon2id"
        var version: Int  // 19 or 16
        var memoryKiB: Int
        var iterations: Int
        var parallelism: Int
        var length: Int
        var password: [UInt8]
        var salt: String  // the argon2 CLI takes the salt as a text argument
        var testDescription: String {
            "\(variant) v\(version) m=\(memoryKiB) KiB t=\(iterations) p=\(parallelism) l=\(length)"
        }
    }

    static let argon2Cases: [Argon2Case] = [
        Argon2Case(variant: "argon2d", version: 19, memoryKiB: 8, iterations: 1, parallelism: 1, length: 32,
                   password: Array("password".utf8), salt: "somesalt"),
        Argon2Case(variant: "argon2id", version: 19, memoryKiB: 64, iterations: 2, parallelism: 2, length: 16,
                   password: Array("correct horse battery staple".utf8), salt: "saltsaltsalt"),
        Argon2Case(variant: "argon2d", version: 16, memoryKiB: 256, iterations: 3, parallelism: 3, length: 64,
                   password: Array("pässwörd".utf8), salt: "a salt with spaces"),
        Argon2Case(variant: "argon2id", version: 16, memoryKiB: 1024, iterations: 1, parallelism: 4, length: 32,
                   password: [0x00, 0xFF, 0x80, 0x0A, 0x01, 0x7F], salt: "binarypw-salt"),
        Argon2Case(variant: "argon2d", version: 19, memoryKiB: 1000, iterations: 2, parallelism: 4, length: 100,
                   password: Array("memory not a multiple of 4p".utf8), salt: "0123456789abcdef"),
        Argon2Case(variant: "argon2id", version: 19, memoryKiB: 4096, iterations: 1, parallelism: 1, length: 4,
                   password: [0x78], salt: "one-byte-password"),  // the CLI refuses an empty password
        Argon2Case(variant: "argon2d", version: 19, memoryKiB: 32, iterations: 4, parallelism: 4, length: 33,
                   password: Array("lanes at the minimum memory".utf8), salt: "12345678"),
        Argon2Case(variant: "argon2id", version: 16, memoryKiB: 2048, iterations: 2, parallelism: 2, length: 1024,
                   password: Array("long output".utf8), salt: "long-output-salt"),
    ]

    @Test("Argon2 key agrees with the argon2 CLI", arguments: argon2Cases)
    func argon2MatchesReference(_ example: Argon2Case) throws {
        guard let argon2 = InteropTools.executable(named: "argon2") else {
            if let failure = InteropTools.missing("argon2", test: "mypass-bench --show-key vs argon2") {
                Issue.record(Comment(rawValue: failure))
            }
            return
        }
        let reference = try runProcess(
            argon2,
            [example.salt, example.variant == "argon2d" ? "-d" : "-id", "-k", String(example.memoryKiB),
             "-t", String(example.iterations), "-p", String(example.parallelism), "-l", String(example.length),
             "-v", example.version == 19 ? "13" : "10", "-r"],
            stdin: example.password)
        #expect(reference.status == 0, "argon2: \(reference.stderrText)")
        let expected = reference.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(expected.count == 2 * example.length)

        let ours = try Self.showKey([
            "kdf", example.variant, "--memory", "\(example.memoryKiB)KiB", "--iterations", String(example.iterations),
            "--parallelism", String(example.parallelism), "--version", String(example.version),
            "--length", String(example.length), "--salt-hex", hexString(Array(example.salt.utf8)),
            "--password-hex", hexString(example.password),
        ])
        #expect(ours == expected)
    }

    /// The text password goes in as its UTF-8 bytes, the same as `--password-hex` of those bytes.
    @Test("Argon2 --password TEXT is the raw UTF-8 bytes")
    func argon2TextPassword() throws {
        let common = ["kdf", "argon2id", "--memory", "64KiB", "--iterations", "1", "--parallelism", "1",
                      "--salt-hex", hexString(Array("saltsalt".utf8))]
        let text = try Self.showKey(common + ["--password", "pässwörd"])
        let hex = try Self.showKey(common + ["--password-hex", hexString(Array("pässwörd".utf8))])
        #expect(text == hex)
        #expect(text.count == 64)
    }

    /// RFC 9106 §5.1's Argon2d vector needs a secret and associated data, which the CLI does not
    /// take; this fixed value is `echo -n password | argon2 somesalt -d -t 2 -k 65536 -p 1 -l 32 -r`
    /// (reference implementation 20171227, Debian's argon2 package), so it runs without the tool.
    @Test("Argon2d known value without the CLI")
    func argon2KnownValue() throws {
        let ours = try Self.showKey([
            "kdf", "argon2d", "--memory", "64MiB", "--iterations", "2", "--parallelism", "1", "--version", "19",
            "--salt-hex", hexString(Array("somesalt".utf8)), "--password", "password",
        ])
        #expect(ours == Self.argon2dKnownKey)
    }

    static let argon2dKnownKey = "955e5d5b163a1b60bba35fc36d0496474fba4f6b59ad53628666f07fb2f93eaf"

    struct AESKDFVector: CustomTestStringConvertible, Sendable {
        var rounds: UInt64
        var key: String
        var seed: String
        var transformed: String
        var testDescription: String { "\(rounds) rounds" }
    }

    /// The vectors of `Vectors/aeskdf/aeskdf-vectors.txt` (generated with OpenSSL's AES, see its PROVENANCE.md).
    static func aesKDFVectors() throws -> [AESKDFVector] {
        var vectors: [AESKDFVector] = []
        var fields: [String: String] = [:]
        let lines: [Substring] = try TestVectors.text("aeskdf/aeskdf-vectors.txt")
            .split(separator: "\n", omittingEmptySubsequences: false) + [""]
        for line in lines {
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, !line.hasPrefix("#") {
                fields[parts[0]] = parts[1]
            } else if line.trimmingCharacters(in: .whitespaces).isEmpty, let rounds = fields["ROUNDS"].flatMap({ UInt64($0) }),
                      let key = fields["KEY"], let seed = fields["SEED"], let transformed = fields["TRANSFORMED"] {
                vectors.append(AESKDFVector(rounds: rounds, key: key, seed: seed, transformed: transformed))
                fields = [:]
            }
        }
        return vectors
    }

    @Test("AES-KDF key agrees with the generated vectors")
    func aesKDFMatchesVectors() throws {
        let vectors = try Self.aesKDFVectors()
        #expect(vectors.count >= 6)
        #expect(vectors.contains { $0.rounds == 60_000 })
        for vector in vectors {
            let ours = try Self.showKey([
                "kdf", "aes", "--rounds", String(vector.rounds), "--seed-hex", vector.seed, "--password-hex", vector.key,
            ])
            #expect(ours == vector.transformed, "AES-KDF \(vector.rounds) rounds")
        }
    }

    /// `--password TEXT` for AES-KDF is KeePass's composite key of that password alone,
    /// SHA-256(SHA-256(TEXT)).
    @Test("AES-KDF --password TEXT is KeePass's composite key")
    func aesKDFTextPassword() throws {
        // SHA-256(SHA-256("password")), computed with Python's hashlib.
        let composite = "73641c99f7719f57d8f4beb11a303afcd190243a51ced8782ca6d3dbe014d146"
        let seed = String(repeating: "5a", count: 32)
        let text = try Self.showKey(["kdf", "aes", "--rounds", "10", "--seed-hex", seed, "--password", "password"])
        let hex = try Self.showKey(["kdf", "aes", "--rounds", "10", "--seed-hex", seed, "--password-hex", composite])
        #expect(text == hex)
    }
}
