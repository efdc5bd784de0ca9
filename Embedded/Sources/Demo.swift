import MyPassBytes
import MyPassCore
import MyPassCompression
import MyPassCrypto
import MyPassKDBX

/// The embedded demo: the AES and SHA-2 backends in use, known answers of the primitives, the
/// hardware backends against the portable code, then a vault round trip on the demo vault (open
/// with its password, list titles, rename one entry, save, reopen, list again), MyPassCore's rules
/// (TOTP, search, match, edit, merge), its generator and import parsers. Prints one line
/// per check; `build.sh` compares the output with `expected-output.txt`, and the first line
/// (`backend ...`) with the backends it expects on the target.
/// - Returns: whether every check passed.
func runDemo() -> Bool {
    var ok = true
    func check(_ name: String, _ actual: [UInt8], _ expectedHex: String) {
        let hex = actual.hexString
        let passed = hex == expectedHex
        ok = ok && passed
        print("\(passed ? "ok" : "FAIL") \(name) \(hex)")
    }
    print("backend \(CryptoBackend.summary)")
    knownAnswers(check)
    ok = backendsAgree() && ok
    ok = vaultRoundTrip() && ok
    #if MYPASS_DEMO_ARGON2_64MIB
    ok = defaultCostVault() && ok
    #endif
    ok = typedErrors() && ok
    ok = vaultRules() && ok
    ok = generatorAndImport() && ok
    print(ok ? "all checks passed" : "SOME CHECKS FAILED")
    return ok
}

/// SHA-256 (FIPS 180-4 example "abc"), AES-256 (FIPS-197 C.3), ChaCha20 (RFC 8439 §2.4.2 first
/// block), Argon2d (RFC 9106 §5.1) and raw inflate of a stream written by zlib.
func knownAnswers(_ check: (String, [UInt8], String) -> Void) {
    check("sha256", SHA256.hash(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")

    let aesKey = [UInt8](0..<32), aesPlain: [UInt8] = (0..<16).map { UInt8($0) &* 0x11 }
    let aes = try? AES256(key: aesKey)
    check("aes256", aes?.encrypt(block: aesPlain) ?? [], "8ea2b7ca516745bfeafc49904b496089")

    let chachaKey = [UInt8](0..<32), nonce: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0x4a, 0, 0, 0, 0]
    var sunscreen = Array("Ladies and Gentlemen of the class of '99: If I could offer you o".utf8)
    if var chacha = try? ChaCha20(key: chachaKey, nonce: nonce, counter: 1) {
        chacha.apply(to: &sunscreen)
    }
    check("chacha20", sunscreen,
          "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0bf91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8")

    let parameters = Argon2.Parameters(
        variant: .argon2d, memoryKiB: 32, iterations: 3, parallelism: 4,
        salt: [UInt8](repeating: 2, count: 16), secret: [UInt8](repeating: 3, count: 8),
        associatedData: [UInt8](repeating: 4, count: 12))
    let tag = try? Argon2.deriveKey(password: [UInt8](repeating: 1, count: 32), parameters: parameters)
    check("argon2d", tag ?? [], "512b391b6f1162975371d30919734294f868e3be3984f3c1a13a4db9fabe4acb")

    // zlib.compressobj(9, DEFLATED, -15) over "MyPass embedded: " x 8 (fixed Huffman, matches).
    let deflated: [UInt8] = [
        0xf3, 0xad, 0x0c, 0x48, 0x2c, 0x2e, 0x56, 0x48, 0xcd, 0x4d, 0x4a, 0x4d, 0x49, 0x49, 0x4d, 0xb1,
        0x52, 0xf0, 0x1d, 0x18, 0x01, 0x00,
    ]
    var inflater = Inflater(format: .raw)
    var inflated = (try? inflater.update(deflated)) ?? []
    inflated += (try? inflater.finish()) ?? [0]
    let expected = Array(String(repeating: "MyPass embedded: ", count: 8).utf8)
    check("inflate", inflated == expected ? Array("136 bytes as written".utf8) : inflated,
          Array("136 bytes as written".utf8).hexString)
}

/// MyPassCore's rules in Embedded Swift on the demo vault: the TOTP code of Work/GitHub at a fixed
/// time (RFC 6238 with the demo secret; `mypass totp --time 1700000000` prints the same), the flat
/// list's search, a match for a web address (public suffix list; `mypass match` suggests the
/// same), an edit that keeps history, and a merge of two edited copies (each side's change
/// kept, as KeePass's Synchronize does).
func vaultRules() -> Bool {
    do throws(CoreError) {
        let base: Vault
        do throws(KDBXError) {
            base = try KDBXCodec.open(demoVaultBytes, key: try CompositeKey(password: ProtectedString("demo"), keyFileContents: nil))
        } catch {
            print("FAIL rules: \(error)")
            return false
        }
        var ok = true
        func check(_ passed: Bool, _ text: String) {
            ok = ok && passed
            print("\(passed ? "ok" : "FAIL") \(text)")
        }
        let github = try base.resolveEntry(path: "Work/GitHub").entry
        let code = try github.otpParameters().map { TOTPGenerator.code(for: $0, unixTime: 1_700_000_000) }
        check(code?.value == "324550", "totp Work/GitHub at 1700000000: \(code?.value ?? "none")")
        let found = EntryList.displayedEntries(base.flatEntries, filter: GroupFilter(), searchText: "EXAMPLE")
        check(found.count == 4, "search EXAMPLE: \(found.map { $0.entry.title }.joined(separator: ", "))")

        let matches = CredentialMatcher().match(serviceIdentifier: "https://mail.example.com/inbox",
                                                in: base.flatEntries.map { $0.entry })
        check(matches.suggested.map { $0.title } == ["Company Mail"],
              "match mail.example.com: \(matches.suggested.map { $0.title }.joined(separator: ", "))")

        // Two copies edited apart: the remote renames Jira an hour later, the local adds an entry.
        var local = base, remote = base
        let jira = try base.resolveEntry(path: "Work/Jira").entry.uuid
        try remote.editEntry(jira, now: KDBXTime(unixSeconds: 1_800_003_600)) { entry throws(EditFailure) in
            entry.title = "Jira Cloud"
        }
        var note = local.newEntry()
        note.title = "Local note"
        _ = try local.addEntry(note, to: local.root.uuid, now: KDBXTime(unixSeconds: 1_800_000_000))
        let merged = try VaultMerge.merge(local: local, remote: remote).vault
        let titles = merged.flatEntries.map { $0.entry.title }
        let history = merged.entry(withUUID: jira)?.history.count ?? -1
        check(titles.contains("Jira Cloud") && titles.contains("Local note") && titles.count == 8 && history == 1,
              "merge: \(titles.count) entries, Jira Cloud (history \(history)) and Local note kept")
        return ok
    } catch {
        print("FAIL rules: \(error)")
        return false
    }
}

/// Every available hardware backend against the portable code: AES-256 known answers (FIPS 197
/// C.3), CBC encryption and decryption of every length up to 300 bytes, AES-KDF of 0...40 rounds
/// and 1,000 rounds, SHA-256 of every length up to 300 bytes. Prints one line; the same on every
/// target (a target without hardware kernels has nothing to compare).
func backendsAgree() -> Bool {
    var disagreements: [String] = []
    var data = [UInt8](repeating: 0, count: 300)
    var state: UInt32 = 0x1234_5678
    for i in 0..<data.count {
        state = state &* 1_664_525 &+ 1_013_904_223
        data[i] = UInt8(truncatingIfNeeded: state >> 24)
    }
    let key = Array(data[0..<32]), iv = Array(data[32..<48]), seed = Array(data[48..<80])
    let available = CryptoBackend.available
    for backend in available.aes where backend.name != "portable" {
        do throws(CryptoError) {
            let aes = try AES256(key: [UInt8](0..<32), backend: backend)
            let plain: [UInt8] = (0..<16).map { UInt8($0) &* 0x11 }
            if aes.encrypt(block: plain).hexString != "8ea2b7ca516745bfeafc49904b496089" { disagreements.append("aes encrypt") }
            if aes.decrypt(block: aes.encrypt(block: plain)) != plain { disagreements.append("aes decrypt") }
            for length in 0...300 {
                let message = Array(data[0..<length])
                let expected = try AESCBC.encrypt(message, key: key, iv: iv, backend: .portable)
                let ciphertext = try AESCBC.encrypt(message, key: key, iv: iv, backend: backend)
                if ciphertext != expected { disagreements.append("cbc encrypt \(length)") }
                if try AESCBC.decrypt(expected, key: key, iv: iv, backend: backend) != message {
                    disagreements.append("cbc decrypt \(length)")
                }
            }
            for rounds in Array(0...40) + [1000] as [UInt64] {
                let expected = try AESKDF.transformRaw(key: key, seed: seed, rounds: rounds, backend: .portable)
                if try AESKDF.transformRaw(key: key, seed: seed, rounds: rounds, backend: backend) != expected {
                    disagreements.append("aes-kdf \(rounds)")
                }
            }
        } catch {
            disagreements.append("aes threw")
        }
    }
    for backend in available.sha256 where backend.name != "portable" {
        for length in 0...300 {
            var portable = SHA256(backend: .portableSHA256), hardware = SHA256(backend: backend)
            portable.update(Array(data[0..<length]))
            hardware.update(Array(data[0..<length / 2]))
            hardware.update(Array(data[(length / 2)..<length]))
            if hardware.finalize() != portable.finalize() { disagreements.append("sha256 \(length)") }
        }
    }
    print(disagreements.isEmpty ? "ok backends agree" : "FAIL backends disagree: \(disagreements.prefix(5))")
    return disagreements.isEmpty
}

/// Opens the demo vault from bytes, lists it, renames "Jira" to "Jira Cloud", saves, reopens the
/// saved bytes and lists again.
func vaultRoundTrip() -> Bool {
    do throws(KDBXError) {
        let key = try CompositeKey(password: ProtectedString("demo"), keyFileContents: nil)
        var vault = try KDBXCodec.open(demoVaultBytes, key: key)
        print("opened \(demoVaultBytes.count) bytes: \(vault.allEntries.count) entries")
        listTitles(vault)
        guard let jira = vault.allEntries.first(where: { $0.title == "Jira" }) else {
            print("FAIL no entry Jira")
            return false
        }
        vault.root.modifyEntry(withUUID: jira.uuid) { $0.title = "Jira Cloud" }
        let saved = try KDBXCodec.save(vault, key: key)
        let reopened = try KDBXCodec.open(saved, key: key)
        print("reopened the saved vault: \(reopened.allEntries.count) entries")
        listTitles(reopened)
        let renamed = reopened.allEntries.contains { $0.title == "Jira Cloud" }
        print("\(renamed ? "ok" : "FAIL") rename survived the save")
        return renamed
    } catch {
        print("FAIL vault: \(error)")
        return false
    }
}

/// Prints "group path/title" for every current entry, in manifest order.
func listTitles(_ vault: Vault) {
    vault.root.forEachGroup { group, path in
        for entry in group.entries {
            print("  \(path.isEmpty ? "" : path.joined(separator: "/") + "/")\(entry.title)")
        }
    }
}

/// Opens the demo vault as KeePass saved it with Argon2d at 64 MiB, 2 iterations, 2 lanes (what a
/// new vault gets in KeePassXC; on wasm32 the heap grows memory for the matrix). Built for wasm32
/// only (`-D MYPASS_DEMO_ARGON2_64MIB`): build.sh checks its line there; at -Onone under qemu the
/// 64 MiB derivation would cost minutes of CI.
func defaultCostVault() -> Bool {
    do throws(KDBXError) {
        let key = try CompositeKey(password: ProtectedString("demo"), keyFileContents: nil)
        let (header, _) = try KDBXHeader.read(from: argon2d64MiBVaultBytes[...])
        var memory: UInt64 = 0
        if case .argon2(let settings) = header.kdf.settings { memory = settings.memoryBytes }
        let vault = try KDBXCodec.open(argon2d64MiBVaultBytes, key: key)
        print("opened the Argon2d vault (memory \(memory) bytes): \(vault.allEntries.count) entries")
        return true
    } catch {
        print("FAIL Argon2d 64 MiB vault: \(error)")
        return false
    }
}

/// A wrong password and a damaged file end in their typed errors.
func typedErrors() -> Bool {
    var ok = true
    func expectError(_ name: String, _ file: [UInt8], _ password: String, _ expected: KDBXError.Code) {
        do throws(KDBXError) {
            let key = try CompositeKey(password: ProtectedString(password), keyFileContents: nil)
            _ = try KDBXCodec.open(file, key: key)
            print("FAIL \(name): opened")
            ok = false
        } catch {
            let passed = error.code == expected
            ok = ok && passed
            print("\(passed ? "ok" : "FAIL") \(name): \(error.code.rawValue)")
        }
    }
    expectError("wrong password", demoVaultBytes, "Demo", .wrongKey)
    var damaged = demoVaultBytes
    damaged[damaged.count - 40] ^= 0x01
    expectError("damaged file", damaged, "demo", .corruptedFile)
    return ok
}
