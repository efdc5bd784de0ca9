import MyPassBytes
import MyPassCore
import MyPassKDBX

/// The generator and the import parsers of MyPassCore in Embedded Swift: a password and a
/// passphrase drawn from a seeded source (SplitMix64, seed 2026, through the generators'
/// `randomBelow` seam; a real embedder passes nothing and gets `arc4random_buf`, which its
/// platform provides), and KeePassXC's CSV export of the demo vault and a Bitwarden JSON export
/// (Vectors/import/demo-keepassxc.csv and bitwarden.json), each detected by its content, read,
/// and added to the demo vault as a group. `EmbeddedDemoOutputTests` computes the same lines in
/// a normal build and finds each one in `expected-output.txt`.
func generatorAndImport() -> Bool {
    var ok = true
    func check(_ passed: Bool, _ text: String) {
        ok = ok && passed
        print("\(passed ? "ok" : "FAIL") \(text)")
    }
    do throws(CoreError) {
        var random = SplitMix64(state: 2026)
        let options = PasswordGeneratorOptions(length: 20, classes: [.upperCase, .lowerCase, .digits, .special])
        let password = try PasswordGenerator.generate(options, randomBelow: { random.below($0) }).revealed
        let classes = PasswordGenerator.pools(for: options).filter { pool in password.contains { pool.1.contains($0) } }
        check(password.count == 20 && classes.count == 4, "password, 20 characters of 4 classes (seed 2026): \(password)")
        let passphrase = try PassphraseGenerator.generate(words: 6, separator: "-", randomBelow: { random.below($0) }).revealed
        check(passphrase.split(separator: "-").count == 6, "passphrase, 6 words (seed 2026): \(passphrase)")

        let now = KDBXTime(unixSeconds: 1_800_000_000)
        var vault: Vault
        do throws(KDBXError) {
            vault = try KDBXCodec.open(demoVaultBytes, key: try CompositeKey(password: ProtectedString("demo"), keyFileContents: nil))
        } catch {
            print("FAIL import: \(error)")
            return false
        }
        let before = vault.flatEntries.count
        for (name, bytes) in [("KeePassXC", demoKeePassXCCSVBytes), ("Bitwarden", demoBitwardenJSONBytes)] {
            guard let format = VaultImport.detectFormat(fileName: nil, bytes: bytes)?.format else {
                check(false, "import \(name): format not detected")
                continue
            }
            let contents = try VaultImport.read(bytes, format: format, now: now)
            var paths: [String] = []
            contents.root.forEachGroup { group, path in
                for entry in group.entries { paths.append((path + [entry.title]).joined(separator: "/")) }
            }
            try vault.addImported(contents, asGroupNamed: name, now: now)
            check(!paths.isEmpty, "import \(VaultImport.describe(format)) (detected): \(paths.count) entries: \(paths.joined(separator: ", "))")
        }
        let github = try vault.resolveEntry(path: "KeePassXC/Work/GitHub").entry
        let code = try github.otpParameters().map { TOTPGenerator.code(for: $0, unixTime: 1_700_000_000) }
        let server = try vault.resolveEntry(path: "Bitwarden/Work/Servers/db-1 \"primary\"").entry
        check(code?.value == "324550" && server.password.revealed == "s3rv3r-Pässwörd",
              "imported into the demo vault: \(before) + \(vault.flatEntries.count - before) entries, KeePassXC/Work/GitHub totp \(code?.value ?? "none")")
    } catch {
        print("FAIL generator and import: \(error)")
        return false
    }
    return ok
}

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA
/// 2014), the seeded source of the demo and of MyPassCoreTests' generator tests: the same numbers
/// on every target. `below(n)` rejects the biased top of the range, so it is uniform.
struct SplitMix64 {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ n: Int) -> Int {
        let bound = UInt64(n)
        let limit = UInt64.max - UInt64.max % bound
        while true {
            let value = next()
            if value < limit { return Int(value % bound) }
        }
    }
}
