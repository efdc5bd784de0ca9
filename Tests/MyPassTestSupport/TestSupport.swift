import Foundation
import MyPassCore

/// Locates the repository's `Vectors/` folder and reads test data from it.
public enum TestVectors {
    /// The repository root, derived from this file's path (Tests/MyPassTestSupport/TestSupport.swift).
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Vectors/` inside the repository. Its first read also installs the system platform
    /// (`SystemPlatform.install()`), as the programs do first thing in `main`: the test process
    /// has no `main`, and nearly every test reads a vector before it hashes or encrypts anything,
    /// so that the whole run gets the huge-page Argon2 matrix and parallel lanes whichever test
    /// runs first.
    public static let directory: URL = {
        SystemPlatform.install()
        return repositoryRoot.appendingPathComponent("Vectors")
    }()

    /// The URL of `Vectors/<relativePath>`.
    public static func url(_ relativePath: String) -> URL {
        directory.appendingPathComponent(relativePath)
    }

    /// The bytes of `Vectors/<relativePath>`; fails loudly when the file is missing.
    public static func bytes(_ relativePath: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(relativePath)))
    }

    /// The text of `Vectors/<relativePath>` (UTF-8).
    public static func text(_ relativePath: String) throws -> String {
        String(decoding: try bytes(relativePath), as: UTF8.self)
    }

    /// The names of the files in `Vectors/<relativePath>`, sorted.
    public static func files(in relativePath: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url(relativePath).path).sorted()
    }
}

/// `count` random letters and digits, without the look-alikes (I, O, l, 0, 1): an unusual
/// needle for memory scans, fresh each run.
public func randomLetters(_ count: Int) -> String {
    let letters = Array("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789")
    return String((0..<count).map { _ in letters.randomElement()! })
}

/// Parses hexadecimal text (white space ignored) into bytes; traps on malformed hex in test data.
public func hexBytes(_ text: String) -> [UInt8] {
    let digits = Array(text.utf8.filter { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) })
    precondition(digits.count % 2 == 0, "odd hex length in test data")
    func value(_ c: UInt8) -> UInt8 {
        switch c {
        case 48...57: return c - 48
        case 97...102: return c - 87
        case 65...70: return c - 55
        default: preconditionFailure("bad hex digit in test data")
        }
    }
    var out = [UInt8]()
    out.reserveCapacity(digits.count / 2)
    var i = 0
    while i < digits.count {
        out.append(value(digits[i]) << 4 | value(digits[i + 1]))
        i += 2
    }
    return out
}

/// Lowercase hex of bytes, for messages and comparisons in tests.
public func hexString<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
    bytes.map { String(format: "%02x", $0) }.joined()
}

/// Splits `bytes` into consecutive pieces at pseudo-random points (deterministic for `seed`), so
/// that streaming APIs are fed in odd chunks. Returns slices whose start indices are not 0.
public func randomSplits(_ bytes: [UInt8], seed: UInt64, maxPiece: Int = 97) -> [ArraySlice<UInt8>] {
    var state = seed | 1
    var pieces: [ArraySlice<UInt8>] = []
    var start = 0
    while start < bytes.count {
        state ^= state << 13; state ^= state >> 7; state ^= state << 17
        let length = min(bytes.count - start, Int(state % UInt64(maxPiece)) + 1)
        pieces.append(bytes[start..<(start + length)])
        start += length
    }
    return pieces
}

/// Returns `bytes` as a slice that does not start at index 0 (tests that APIs honour slice indices).
public func offsetSlice(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
    let padded = [0xA5, 0x5A, 0xA5] + bytes
    return padded[3...]
}

/// The external tools that interop tests call: KeePass through `kporacle`, `keepassxc-cli`, and others.
public enum InteropTools {
    /// `MYPASS_REQUIRE_INTEROP=1` (set by `.ci/run`) turns a skipped interop test into a failure.
    public static var isRequired: Bool {
        ProcessInfo.processInfo.environment["MYPASS_REQUIRE_INTEROP"] == "1"
    }

    /// `../shared/tools/kporacle/kporacle` beside the repository, when present and KeePass is installed.
    public static var kporacle: URL? {
        let url = TestVectors.repositoryRoot.deletingLastPathComponent()
            .appendingPathComponent("shared/tools/kporacle/kporacle")
        guard FileManager.default.isExecutableFile(atPath: url.path),
              FileManager.default.fileExists(atPath: "/usr/lib/keepass2/KeePass.exe"),
              executable(named: "mcs") != nil
        else { return nil }
        return url
    }

    /// `Tests/Tools/kporacle/kporacle`, the repository's copy of kporacle with the verbs the
    /// fidelity tests need (`kdf`, `edit`, KDF item options of `save`), when KeePass is installed.
    public static var kporacleTests: URL? {
        let url = TestVectors.repositoryRoot.appendingPathComponent("Tests/Tools/kporacle/kporacle")
        guard FileManager.default.isExecutableFile(atPath: url.path),
              FileManager.default.fileExists(atPath: "/usr/lib/keepass2/KeePass.exe"),
              executable(named: "mcs") != nil
        else { return nil }
        return url
    }

    /// The full path of an executable on PATH, or `nil`.
    public static func executable(named name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(dir)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// What a test should do when a tool is missing: print a visible skip message, or, when
    /// interop is required, report that as a failure message. Returns the message when the
    /// test must fail, or `nil` when it may skip.
    public static func missing(_ tool: String, test: String) -> String? {
        let message = "interop: \(tool) not found; \(test) skipped"
        if isRequired { return message + " but MYPASS_REQUIRE_INTEROP=1 requires it" }
        FileHandle.standardError.write(Data(("SKIP " + message + "\n").utf8))
        return nil
    }
}

/// The result of running an external process.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: [UInt8]
    public var stderr: [UInt8]
    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
}

/// Runs `executable` with `arguments`, feeding `stdin`, and collects its output.
public func runProcess(
    _ executable: URL, _ arguments: [String], stdin: [UInt8] = [], environment: [String: String]? = nil,
    currentDirectory: URL? = nil
) throws -> ProcessResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    if let currentDirectory { process.currentDirectoryURL = currentDirectory }
    // stdin, stdout and stderr go through temporary files: no pipe to drain (so no deadlock and no
    // second thread), and no blocking read that a signal can interrupt (Foundation's
    // `readDataToEndOfFile` traps on EINTR).
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("mypass-proc-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let inURL = scratch.appendingPathComponent("stdin")
    let outURL = scratch.appendingPathComponent("stdout"), errURL = scratch.appendingPathComponent("stderr")
    try Data(stdin).write(to: inURL)
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let inHandle = try FileHandle(forReadingFrom: inURL)
    let outHandle = try FileHandle(forWritingTo: outURL)
    let errHandle = try FileHandle(forWritingTo: errURL)
    defer { try? inHandle.close(); try? outHandle.close(); try? errHandle.close() }
    process.standardInput = inHandle
    process.standardOutput = outHandle
    process.standardError = errHandle
    try process.run()
    process.waitUntilExit()
    let outData = try Data(contentsOf: outURL)
    let errData = try Data(contentsOf: errURL)
    return ProcessResult(
        status: process.terminationStatus, stdout: [UInt8](outData), stderr: [UInt8](errData))
}

/// Parses JSON text with Foundation (manifests in tests).
public func parseJSON(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
}

/// The differences between an expected and an actual vault manifest (parsed JSON) under the
/// comparison rules of `shared/docs/vault-manifest.md`: every key of `expected` must be in `actual`
/// with an equal value (keys only in `actual` are ignored); arrays compare in order. `ignore`
/// skips paths such as `$.meta.customData._LAST_MODIFIED`. Empty when they agree.
public func manifestDifferences(
    expected: Any, actual: Any, path: String = "$", ignore: (String) -> Bool = { _ in false }
) -> [String] {
    if ignore(path) { return [] }
    switch (expected, actual) {
    case (let e as [String: Any], let a as [String: Any]):
        return e.keys.sorted().flatMap { key -> [String] in
            let childPath = path + "." + key
            if ignore(childPath) { return [] }
            guard let value = a[key] else { return ["\(childPath): missing"] }
            return manifestDifferences(expected: e[key]!, actual: value, path: childPath, ignore: ignore)
        }
    case (let e as [Any], let a as [Any]):
        guard e.count == a.count else { return ["\(path): \(e.count) items expected, \(a.count) found"] }
        return zip(e, a).enumerated().flatMap {
            manifestDifferences(expected: $1.0, actual: $1.1, path: "\(path)[\($0)]", ignore: ignore)
        }
    case (let e as NSObject, let a as NSObject):
        return e.isEqual(a) ? [] : ["\(path): expected \(e), found \(a)"]
    default:
        return ["\(path): type mismatch"]
    }
}
