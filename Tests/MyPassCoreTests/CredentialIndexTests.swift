import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX
import MyPassTestSupport
import MyPassXML
import Testing

/// The credential index (issue 14) against the full model: the same suggestions and search
/// results for every fixture and for generated vaults; history, attachments and icons never in
/// it; the budget refusal and its numbers; the cached-key path without a KDF.
///
/// Argon2 fixtures are slow in debug builds: run in release,
/// `swift test -c release --skip-build --filter CredentialIndexTests`.
@Suite struct CredentialIndexTests {
    // MARK: Comparing with the full model

    /// The service identifiers to try on a vault: the hosts of its entries' URLs (as URL, bare
    /// domain and with the default port spelled out), a parent domain, and a few fixed ones.
    static func services(for entries: [FlatEntry]) -> [String] {
        var out = ["github.com", "https://www.example.com/login", "example.org:8443", "http://192.168.1.1"]
        for entry in entries.prefix(40) {
            for url in entry.candidateURLs.prefix(2) {
                guard let address = ServiceAddress(parsing: url) else { continue }
                let host = address.host.labels.joined(separator: ".")
                out.append(url)
                out.append(host)
                out.append("https://" + host + ":443/x")
                out.append("https://login." + host)
            }
        }
        return out
    }

    /// Search texts to try: empty, and pieces of titles, user names and tags.
    static func searches(for entries: [FlatEntry]) -> [String] {
        var out = ["", "a", "E", "zz-nothing-zz", "  mail "]
        for entry in entries.prefix(15) {
            out.append(String(entry.entry.title.prefix(3)))
            out.append(String(entry.entry.userName.suffix(4)).uppercased())
            out.append(contentsOf: entry.entry.tags.prefix(1))
        }
        return out
    }

    /// Expects the index to agree with the full model on every kept value, every match and every search.
    static func expectSame(index: CredentialIndex, vault: Vault, _ comment: Comment) {
        let full = EntryList.displayedEntries(vault.flatEntries, filter: GroupFilter(), searchText: "")
        let kept = index.credentials
        #expect(kept.map(\.uuid) == full.map(\.entry.uuid), comment)
        guard kept.count == full.count else { return }
        let otpNames = ["otp", "TOTP Seed", "TOTP Settings", "TimeOtp-Secret-Base32", "HmacOtp-Secret", "HmacOtp-Counter"]
        for (credential, item) in zip(kept, full) {
            let entry = item.entry
            #expect(credential.title == entry.title, comment)
            #expect(credential.userName == entry.userName, comment)
            #expect(credential.url == entry.url, comment)
            #expect(credential.password.revealed == entry.password.revealed, comment)
            #expect(credential.candidateURLs == entry.candidateURLs, comment)
            #expect(credential.overrideURL == entry.overrideURL, comment)
            #expect(credential.breadcrumb == item.breadcrumb, comment)
            #expect(credential.groupUUID == item.groupUUID, comment)
            #expect(credential.iconID == entry.iconID, comment)
            #expect(credential.customIconUUID == entry.customIconUUID, comment)
            #expect(credential.tags == entry.tags, comment)
            #expect(credential.searchKeys == item.searchKeys, comment)
            for name in otpNames {
                #expect(credential.field(named: name)?.value == entry.field(named: name)?.value, comment)
            }
            // Nothing but the selected fields: no notes, no custom fields.
            #expect(credential.field(named: "Notes") == nil, comment)
            #expect(credential.fields.allSatisfy { !$0.key.hasPrefix("Custom") }, comment)
        }
        let matcher = CredentialMatcher()
        for service in services(for: full) {
            let a = matcher.match(serviceIdentifier: service, in: kept)
            let b = matcher.match(serviceIdentifier: service, in: full)
            #expect(a.suggested.map(\.uuid) == b.suggested.map(\.entry.uuid), "\(comment) \(service)")
            #expect(a.kinds == b.kinds, "\(comment) \(service)")
            #expect(a.others.map(\.uuid) == b.others.map(\.entry.uuid), "\(comment) \(service)")
        }
        for text in searches(for: full) {
            let a = index.search(text).map(\.uuid)
            let b = EntryList.displayedEntries(vault.flatEntries, filter: GroupFilter(), searchText: text).map(\.entry.uuid)
            #expect(a == b, "\(comment) search '\(text)'")
        }
    }

    static let fixtures = FixtureCatalog.withManifest.filter { !$0.name.hasSuffix(".kdb") } + FixtureCatalog.large

    @Test(arguments: fixtures)
    func fixtureIndexMatchesFullModel(_ fixture: Fixture) throws {
        let path = TestVectors.url("kdbx/" + fixture.name + ".kdbx").path
        let key = try fixture.compositeKey()
        let opened = try CredentialIndex.open(path, key: key)
        #expect(opened.ranKDF)
        // The full model, through the document with the index's transformed key (one KDF per fixture).
        let counter = KDFCounter()
        let document = try VaultDocument.open(path, key: key, cachedKey: opened.cachedKey,
                                              options: VaultDocument.Options(keyDerivation: counter.derivation))
        #expect(counter.count == 0)
        Self.expectSame(index: opened.index, vault: document.vault, "\(fixture.name)")
        let historyItems = document.vault.allEntries.reduce(0) { $0 + $1.history.count }
        #expect(opened.index.skipped.historyItems == historyItems, "\(fixture.name)")
    }

    // MARK: Generated vaults

    /// A deterministic generator (SplitMix64).
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) } }
    }

    /// A vault with what the index must skip around: history items with protected fields,
    /// protected and plain attachments, custom icons, protected unknown elements, notes and
    /// protected custom fields, a recycle bin, a group with searching off, entries after subgroups.
    static func generatedVault(seed: UInt64, entries: Int, history: Int, attachmentBytes: Int,
                               format: VaultFormat) -> (vault: Vault, attachmentBytes: Int) {
        var random = Generator(state: seed)
        let t0 = KDBXTime(year: 2026, month: 1, day: 2, hour: 3, minute: 4, second: 5)!
        var vault = Vault.new(name: "Generated", now: t0, format: format)
        let icon = CustomIcon(uuid: .random(), data: random.bytes(300))
        vault.meta.customIcons = [icon]
        let hosts = ["example.com", "login.example.com", "github.com", "mail.example.org", "example.com:8443", "xn--caf-dma.example"]
        var groups = [Group(name: "Work", times: Times(all: t0)), Group(name: "Home", times: Times(all: t0)),
                      Group(name: "Hidden", times: Times(all: t0)), Group(name: "Recycle Bin", times: Times(all: t0))]
        groups[2].enableSearching = false
        var sub = Group(name: "Sub", times: Times(all: t0))
        var attached = 0
        for n in 0..<entries {
            var entry = Entry(times: Times(all: t0))
            entry.title = "Entry \(n) " + ["café", "Crème", "日本", "plain"][n % 4]
            entry.userName = "user\(random.below(1000))@example.com"
            entry.url = ["https://", "http://", "", "HTTPS://"][n % 4] + hosts[random.below(hosts.count)] + (n % 7 == 0 ? ":443" : "")
            entry.password = ProtectedString("pw-\(n)-\(random.next())")
            entry.notes = String(repeating: "note \(n) ", count: 1 + random.below(20))
            entry.tags = n % 3 == 0 ? ["tag\(n % 5)", "Shared"] : []
            entry.iconID = random.below(69)
            if n % 5 == 0 { entry.customIconUUID = icon.uuid }
            if n % 4 == 1 { entry.fields.append(EntryField(key: "KP2A_URL_1", value: "https://" + hosts[random.below(hosts.count)])) }
            if n % 6 == 2 { entry.fields.append(EntryField(key: "otp", value: "otpauth://totp/x?secret=JBSWY3DPEHPK3PXP", isProtected: true)) }
            entry.fields.append(EntryField(key: "Custom secret", protectedValue: ProtectedString(String(repeating: "s", count: random.below(50)))))
            if n % 9 == 4 { entry.overrideURL = "cmd://firefox {URL}" }
            if attachmentBytes > 0 {
                let size = attachmentBytes / max(entries, 1)
                entry.attachments = [Attachment(name: "a\(n).bin", data: random.bytes(size), isProtected: n % 2 == 0)]
                attached += size
            }
            // An unknown element with a protected value: it advances the inner stream.
            let secretText = "unknown-\(n)"
            entry.unknownElements = [UnknownElement(node: XMLElementNode(name: "Extension", children: [
                .element(XMLElementNode(name: "Secret", attributes: [XMLAttribute("Protected", "True")], children: [.text(secretText)])),
            ]), precedingElement: "Tags")]
            for h in 0..<history {
                var old = entry
                old.unknownElements = []
                old.attachments = []
                old.password = ProtectedString("old-\(h)-\(random.next())")
                old.title = "Old \(h)"
                entry.history.append(old)
            }
            switch n % 6 {
            case 0: vault.root.entries.append(entry)
            case 1, 2: groups[0].entries.append(entry)
            case 3: sub.entries.append(entry)
            case 4: groups[n % 12 == 4 ? 2 : 1].entries.append(entry)
            default: groups[3].entries.append(entry)
            }
        }
        groups[0].groups = [sub]
        vault.root.groups = groups
        vault.meta.recycleBinUUID = groups[3].uuid
        return (vault, attached)
    }

    static func write(_ bytes: [UInt8], name: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mypass-index-\(UUID().uuidString)-\(name).kdbx")
        try Data(bytes).write(to: url)
        return url.path
    }

    static let fastAES = KDFSettings.aes(rounds: 1_000)

    @Test(arguments: [
        VaultFormat(version: .v4_0, cipher: .aes256, kdf: fastAES, compression: .gzip, innerStream: .chacha20),
        VaultFormat(version: .v4_1, cipher: .chacha20, kdf: fastAES, compression: .none, innerStream: .salsa20),
        VaultFormat(version: .v3_1, cipher: .aes256, kdf: fastAES, compression: .gzip, innerStream: .salsa20),
        VaultFormat(version: .v3_1, cipher: .twofish, kdf: fastAES, compression: .none, innerStream: .chacha20),
    ])
    func generatedIndexMatchesFullModel(_ format: VaultFormat) throws {
        let key = try CompositeKey(password: ProtectedString("generated"), keyFileContents: nil)
        let (vault, attached) = Self.generatedVault(seed: 14, entries: 120, history: 3, attachmentBytes: 120 * 700, format: format)
        let file = try KDBXCodec.save(vault, key: key, options: KDBXSaveOptions(targetVersion: format.version))
        let path = try Self.write(file, name: "generated")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let opened = try CredentialIndex.open(path, key: key)
        let reread = try KDBXCodec.open(file, key: key)
        Self.expectSame(index: opened.index, vault: reread, "\(format.version) \(format.cipher) \(format.innerStream)")
        // History and attachments never reach the index; they were streamed past and counted.
        #expect(opened.index.skipped.historyItems == 120 * 3)
        if format.version == .v3_1 && format.compression == .gzip {
            // KDBX 3.1 stores plain binaries gzip-compressed (`Compressed="True"`) and the index
            // counts stored bytes, without inflating them: random data grows a little.
            #expect(opened.index.skipped.attachmentBytes > attached)
        } else {
            #expect(opened.index.skipped.attachmentBytes == attached)
        }
        #expect(opened.index.skipped.unknownElements >= 120)
        #expect(opened.index.credentials.allSatisfy { !$0.title.hasPrefix("Old ") })
        // The recycle bin and the group with searching off are left out, as the list leaves them out.
        #expect(opened.index.credentials.count == 120 - 20 - 10)
        #expect(opened.index.skipped.unsearchableEntries == 30)
    }

    // MARK: Budget and cached key

    @Test func budgetRefusesKeePassDefaultArgon2BeforeTheKDF() throws {
        let key = try CompositeKey(password: ProtectedString("budget"), keyFileContents: nil)
        // KeePass's default: Argon2d 64 MiB. The save runs it once (release: a fraction of a second).
        let format = VaultFormat(kdf: .argon2(Argon2Settings(variant: .argon2d, memoryBytes: 64 << 20, iterations: 1, parallelism: 1)))
        let (vault, _) = Self.generatedVault(seed: 1, entries: 10, history: 0, attachmentBytes: 0, format: format)
        let path = try Self.write(try KDBXCodec.save(vault, key: key), name: "argon64")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let counter = KDFCounter()
        let options = CredentialIndex.OpenOptions(budgetBytes: 50_000_000, keyDerivation: counter.derivation)
        var refusal: CoreError?
        do throws(CoreError) { _ = try CredentialIndex.open(path, key: key, options: options) } catch { refusal = error }
        #expect(refusal?.code == .memoryBudgetExceeded)
        let numbers = refusal?.underlying as? MemoryBudgetExceeded
        #expect(numbers?.argon2MemoryBytes == 67_108_864)
        #expect(numbers?.budgetBytes == 50_000_000)
        #expect(numbers?.workingMarginBytes == 12_582_912)
        #expect(numbers?.requiredBytes == 79_691_776)
        #expect(refusal?.reason.contains("67108864") == true && refusal?.reason.contains("50000000") == true)
        #expect(counter.count == 0)

        // Exactly at the budget it opens; one byte under, it does not.
        let needed: UInt64 = 67_108_864 + 12_582_912
        #expect(throws: CoreError(.memoryBudgetExceeded)) {
            try CredentialIndex.open(path, key: key, options: CredentialIndex.OpenOptions(budgetBytes: needed - 1, keyDerivation: counter.derivation))
        }
        #expect(counter.count == 0)
        let opened = try CredentialIndex.open(path, key: key, options: CredentialIndex.OpenOptions(budgetBytes: needed, keyDerivation: counter.derivation))
        #expect(counter.count == 1)
        #expect(opened.kdfMemoryBytes == 67_108_864)

        // With the cached key no KDF runs, and any budget holds.
        let again = try CredentialIndex.open(path, key: key, cachedKey: opened.cachedKey,
                                             options: CredentialIndex.OpenOptions(budgetBytes: 1, keyDerivation: counter.derivation))
        #expect(counter.count == 1)
        #expect(!again.ranKDF)
        #expect(again.kdfMemoryBytes == 0)
        #expect(again.index.credentials.map(\.uuid) == opened.index.credentials.map(\.uuid))
    }

    @Test func cachedKeyRunsNoKDFAndMustFitTheSeed() throws {
        let fixture = FixtureCatalog.keepass.first { $0.name == "keepass/kdbx4-aes-argon2d" }!
        let path = TestVectors.url("kdbx/" + fixture.name + ".kdbx").path
        let key = try fixture.compositeKey()
        let counter = KDFCounter()
        let options = CredentialIndex.OpenOptions(keyDerivation: counter.derivation)
        let first = try CredentialIndex.open(path, key: key, options: options)
        #expect(counter.count == 1 && first.ranKDF)
        for _ in 0..<3 {
            let next = try CredentialIndex.open(path, key: key, cachedKey: first.cachedKey, options: options)
            #expect(!next.ranKDF)
            #expect(next.index.credentials.map { $0.title } == first.index.credentials.map { $0.title })
        }
        #expect(counter.count == 1)
        // A cached key for other KDF parameters (another seed) is not used: the KDF runs.
        var otherSeed = first.cachedKey.kdf
        otherSeed.seed[0] ^= 1
        _ = try CredentialIndex.open(path, key: key, cachedKey: CachedTransformedKey(transformedKey: first.cachedKey.transformedKey, kdf: otherSeed), options: options)
        #expect(counter.count == 2)
        // A wrong transformed key for the right parameters is a wrong key, not garbage.
        let wrong = CachedTransformedKey(transformedKey: SecureBytes([UInt8](repeating: 7, count: 32)), kdf: first.cachedKey.kdf)
        #expect(throws: CoreError(.wrongKey)) { try CredentialIndex.open(path, key: key, cachedKey: wrong, options: options) }
        #expect(counter.count == 2)
    }

    // MARK: Bad input

    @Test func damagedFilesAreTypedErrors() throws {
        let key = try CompositeKey(password: ProtectedString("damaged"), keyFileContents: nil)
        for format in [VaultFormat(kdf: Self.fastAES), VaultFormat(version: .v3_1, kdf: Self.fastAES)] {
            let (vault, _) = Self.generatedVault(seed: 3, entries: 30, history: 1, attachmentBytes: 3000, format: format)
            let file = try KDBXCodec.save(vault, key: key, options: KDBXSaveOptions(targetVersion: format.version))
            var cases: [[UInt8]] = [Array(file.prefix(file.count / 2)), Array(file.prefix(100)), []]
            var flipped = file
            flipped[file.count - 40] ^= 0x55
            cases.append(flipped)
            for damaged in cases {
                let path = try Self.write(damaged, name: "damaged")
                defer { try? FileManager.default.removeItem(atPath: path) }
                #expect(throws: CoreError.self) { try CredentialIndex.open(path, key: key) }
            }
            let path = try Self.write(file, name: "wrongkey")
            defer { try? FileManager.default.removeItem(atPath: path) }
            #expect(throws: CoreError(.wrongKey)) { try CredentialIndex.open(path, key: try CompositeKey(password: ProtectedString("nope"), keyFileContents: nil)) }
        }
    }

    // MARK: Default ports

    static func suggested(_ service: String, _ urls: [String]) -> [String] {
        let candidates = urls.map { SimpleCredentialCandidate(id: $0, urls: [$0]) }
        return CredentialMatcher().match(serviceIdentifier: service, in: candidates).suggested.map(\.id)
    }

    @Test func defaultPortOnTheEntrySide() {
        let entries = ["https://example.com:443", "HTTPS://EXAMPLE.COM:443/login", "http://example.com:80", "HTTP://Example.Com:80",
                       "https://example.com:8443", "http://example.com:443"]
        #expect(Self.suggested("https://example.com", entries) == Array(entries.prefix(4)) + ["http://example.com:443"])
        #expect(Self.suggested("example.com", entries) == Array(entries.prefix(4)) + ["http://example.com:443"])
        #expect(Self.suggested("http://example.com", entries) == Array(entries.prefix(4)))
        #expect(Self.suggested("https://example.com:8443", entries) == ["https://example.com:8443"])
        #expect(Self.suggested("http://example.com:80", ["http://example.com:80", "example.com:80"]) == ["http://example.com:80", "example.com:80"])
    }

    @Test func defaultPortOnTheServiceSide() {
        let entries = ["https://example.com", "example.com", "http://example.com", "example.com:443", "example.com:8080"]
        let portless = ["https://example.com", "example.com", "http://example.com"]
        #expect(Self.suggested("https://example.com:443/", entries) == portless + ["example.com:443"])
        #expect(Self.suggested("HTTPS://EXAMPLE.COM:443", entries) == portless + ["example.com:443"])
        #expect(Self.suggested("http://example.com:80", entries) == portless)
        #expect(Self.suggested("HTTP://Example.COM:80/a", entries) == portless)
        // No scheme: taken as https, so :443 is the default and :80 is not.
        #expect(Self.suggested("example.com:443", entries) == portless + ["example.com:443"])
        #expect(Self.suggested("example.com:80", entries).isEmpty)
        #expect(Self.suggested("example.com:8080", entries) == ["example.com:8080"])
    }
}
