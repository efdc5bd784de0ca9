import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX
import MyPassTestSupport
import Testing

/// The Embedded demo's generator and import lines (Embedded/Sources/GeneratorAndImport.swift),
/// computed here in the normal build from the same inputs and seed, and found in
/// Embedded/expected-output.txt: the expected output is what MyPassCore gives, not only what an
/// Embedded build once printed. And the number reader that the Embedded build uses in place of
/// strtod, against `Double(String)`.
@Suite("Embedded demo output and the Embedded number reader")
struct EmbeddedDemoOutputTests {
    let expectedLines = Set(((try? String(contentsOf: TestVectors.repositoryRoot.appendingPathComponent("Embedded/expected-output.txt"),
                                          encoding: .utf8)) ?? "").split(separator: "\n").map(String.init))

    @Test("the seeded password and passphrase are the demo's")
    func generator() throws {
        var random = SplitMix64(state: 2026)
        let options = PasswordGeneratorOptions(length: 20, classes: [.upperCase, .lowerCase, .digits, .special])
        let password = try PasswordGenerator.generate(options, randomBelow: { random.below($0) }).revealed
        let passphrase = try PassphraseGenerator.generate(words: 6, separator: "-", randomBelow: { random.below($0) }).revealed
        #expect(password == "qP!zlBZxg'tB=z4pBd=Z")
        #expect(passphrase == "eclair-ripeness-perky-modified-thumping-outlying")
        #expect(expectedLines.contains("ok password, 20 characters of 4 classes (seed 2026): \(password)"))
        #expect(expectedLines.contains("ok passphrase, 6 words (seed 2026): \(passphrase)"))
    }

    @Test("the two exports are detected and read as the demo prints, and add up in the demo vault")
    func imports() throws {
        let now = KDBXTime(unixSeconds: 1_800_000_000)
        var vault = try KDBXCodec.open(try TestVectors.bytes("demo/demo.kdbx"), key: try CompositeKey(password: "demo", keyFileContents: nil))
        let before = vault.flatEntries.count
        for (name, file) in [("KeePassXC", "import/demo-keepassxc.csv"), ("Bitwarden", "import/bitwarden.json")] {
            let bytes = try TestVectors.bytes(file)
            let format = try #require(VaultImport.detectFormat(fileName: nil, bytes: bytes)?.format)
            let contents = try VaultImport.read(bytes, format: format, now: now)
            var paths: [String] = []
            contents.root.forEachGroup { group, path in
                for entry in group.entries { paths.append((path + [entry.title]).joined(separator: "/")) }
            }
            try vault.addImported(contents, asGroupNamed: name, now: now)
            let line = "ok import \(VaultImport.describe(format)) (detected): \(paths.count) entries: \(paths.joined(separator: ", "))"
            #expect(expectedLines.contains(line), "\(line)")
        }
        let github = try vault.resolveEntry(path: "KeePassXC/Work/GitHub").entry
        let code = try #require(try github.otpParameters().map { TOTPGenerator.code(for: $0, unixTime: 1_700_000_000) })
        #expect(try vault.resolveEntry(path: "Bitwarden/Work/Servers/db-1 \"primary\"").entry.password.revealed == "s3rv3r-Pässwörd")
        #expect(expectedLines.contains(
            "ok imported into the demo vault: \(before) + \(vault.flatEntries.count - before) entries, KeePassXC/Work/GitHub totp \(code.value)"))
    }

    @Test("the Embedded number reader: equal to Double(String) on the fast path, within 4 ulp beyond, nil where it is nil")
    func decimalValue() {
        func value(_ text: String) -> Double? { ImportJSON.decimalValue(ArraySlice(text.utf8)) }
        var random = SplitMix64(state: 37)
        var exact: [String] = ["0", "-0", "1", "+1", "-1", "1.", ".5", "-.5", "0.0012", "1e5", "1E+22", "2.5e-3", "9007199254740992",
                               "123456789012345e-22", "00012.3400", "4.0", "1", "2", "3", "5", "0.1", "0.2", "0.3", "1e-22"]
        for _ in 0..<2000 {
            let digits = String(random.below(1 << 40))
            let point = random.below(digits.count + 1)
            let mantissa = digits.prefix(point) + "." + digits.dropFirst(point)
            exact.append(mantissa + (random.below(2) == 0 ? "" : "e\(random.below(15) - 7)"))
        }
        for text in exact {
            #expect(value(text) == Double(text), "\(text)")
            #expect(value(text)?.sign == Double(text)?.sign, "\(text)")
        }
        var wide = ["1e23", "1e308", "1.7976931348623157e308", "2.2250738585072014e-308", "123456789012345678901234567890",
                    "0.000000000000000000000000000001234", "3.14159265358979323846264338327950288"]
        for _ in 0..<2000 {
            wide.append("\(random.below(1 << 62))\(random.below(1 << 30))e\(random.below(500) - 250)")
        }
        for text in wide {
            guard let expected = Double(text), let actual = value(text) else {
                Issue.record("\(text): \(String(describing: Double(text))) vs \(String(describing: value(text)))")
                continue
            }
            #expect(abs(actual - expected) <= 4 * expected.ulp, "\(text): \(actual) vs \(expected)")
        }
        for text in ["1e400", "-1e400"] { #expect(value(text) == Double(text), "\(text)") }
        for text in ["", "+", "-", ".", "e5", "1e", "1e+", "1-2", "1.2.3", "--1", "1e5e5", "+.e1"] {
            #expect(value(text) == nil && Double(text) == nil, "\(text)")
        }
    }
}
