import MyPassBytes
import MyPassKDBX
import Testing

@Suite("KDBX model: times and UUIDs")
struct ModelTimeAndUUIDTests {
    @Test("KDBXTime calendar and forms match known values (Python datetime oracle)")
    func knownTimes() throws {
        let t = try #require(KDBXTime(year: 2026, month: 11, day: 29, hour: 22, minute: 3, second: 31))
        #expect(t.secondsSinceEpoch == 63_931_586_611)
        #expect(t.iso8601 == "2026-11-29T22:03:31Z")
        #expect(t.kdbx4Base64 == "M5ie4g4AAAA=")
        #expect(KDBXTime(kdbx4Base64: "M5ie4g4AAAA=") == t)
        #expect(KDBXTime(iso8601: "2026-11-29T22:03:31Z") == t)
        #expect(KDBXTime(year: 2000, month: 2, day: 29, hour: 12)?.secondsSinceEpoch == 63_087_422_400)
        #expect(KDBXTime(year: 2001, month: 2, day: 29) == nil)
        #expect(KDBXTime(unixSeconds: 0).iso8601 == "1970-01-01T00:00:00Z")
        #expect(KDBXTime.minimum.iso8601 == "0001-01-01T00:00:00Z")
        #expect(KDBXTime.maximum.iso8601 == "9999-12-31T23:59:59Z")
        #expect(KDBXTime(iso8601: "9999-12-31T23:59:59Z") == .maximum)
        #expect(KDBXTime(iso8601: "0001-01-01T00:00:00Z") == .minimum)
    }

    @Test("ISO-8601 leniency: fractional seconds, offsets, no zone", arguments: [
        "2026-11-29T22:03:31.1234567Z", "2026-11-29T23:03:31+01:00", "2026-11-29T20:33:31.5-01:30",
        "2026-11-29T22:03:31", " 2026-11-29T22:03:31Z\n", "2026-11-30T00:03:31+0200",
    ])
    func isoLeniency(text: String) {
        #expect(KDBXTime(iso8601: text)?.iso8601 == "2026-11-29T22:03:31Z")
    }

    @Test("Malformed ISO text is refused", arguments: ["", "2026-13-01T00:00:00Z", "2026-11-29X22:03:31Z", "yesterday", "2026-11-29T22:03:31Zjunk"])
    func isoRefused(text: String) {
        #expect(KDBXTime(iso8601: text) == nil)
    }

    @Test("KDBX 4 times shorter or longer than 8 bytes are padded or truncated, as KeePass does")
    func binaryTimeLengths() {
        #expect(KDBXTime(kdbx4Base64: "AQ==")?.secondsSinceEpoch == 1)  // 01
        #expect(KDBXTime(kdbx4Base64: "M5ie4g4AAAD/AQ==") == KDBXTime(kdbx4Base64: "M5ie4g4AAAA="))  // 10 bytes
        #expect(KDBXTime(kdbx4Base64: "") == KDBXTime.minimum)
        // A negative value clamps to the minimum instead of failing.
        #expect(KDBXTime(kdbx4Base64: "//////////8=") == KDBXTime.minimum)
    }

    @Test("The fast KDBX 4 base64 form equals the generic encoder for many values")
    func binaryTimeEncoderMatchesReference() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1
            let t = KDBXTime(secondsSinceEpoch: Int64(state % 315_537_897_600))
            #expect(t.kdbx4Base64 == Base64.encode(t.kdbx4Bytes))
            #expect(KDBXTime(kdbx4Base64: t.kdbx4Base64) == t)
        }
        #expect(KDBXTime.maximum.kdbx4Base64 == Base64.encode(KDBXTime.maximum.kdbx4Bytes))
    }

    @Test("KDBXUUID forms")
    func uuidForms() throws {
        let uuid = try #require(KDBXUUID(base64: "twIk1U4vUUaR6tw4ADVA9Q=="))
        #expect(uuid.hexString == "b70224d54e2f514691eadc38003540f5")
        #expect(uuid.base64 == "twIk1U4vUUaR6tw4ADVA9Q==")
        #expect(KDBXUUID(hex: "b70224d54e2f514691eadc38003540f5") == uuid)
        #expect(uuid.bytes.count == 16 && uuid.bytes.first == 0xB7 && uuid.bytes.last == 0xF5)
        #expect(KDBXUUID(base64: "AAAAAAAAAAAAAAAAAAAAAA==")?.isZero == true)
        #expect(KDBXUUID(base64: "AAAA") == nil)
        let a = KDBXUUID.random(), b = KDBXUUID.random()
        #expect(a != b && !a.isZero)
    }
}

@Suite("KDBX model: entries, groups, versions")
struct ModelStructureTests {
    static func sampleVault() -> Vault {
        let now = KDBXTime(year: 2026, month: 1, day: 2)!
        var vault = Vault.new(name: "Root", now: now, format: VaultFormat(version: .v3_1, kdf: .aes(rounds: 6000)))
        var work = Group(name: "Work", times: Times(all: now))
        var mail = Group(name: "Email", times: Times(all: now))
        var entry = Entry(times: Times(all: now))
        entry.title = "Mail"
        entry.userName = "alice"
        entry.password = "s3cret"
        entry.url = "https://mail.example"
        entry.notes = "n"
        entry.setValue("123456", for: "PIN", isProtected: true)
        mail.entries.append(entry)
        work.groups.append(mail)
        vault.root.groups.append(work)
        vault.root.groups.append(Group(name: "Personal", times: Times(all: now)))
        return vault
    }

    @Test("Standard field accessors keep protection and order")
    func standardFields() {
        var entry = Entry()
        entry.title = "T"
        entry.password = "pw"
        entry.setValue("u", for: "UserName", isProtected: true)
        entry.userName = "v"
        #expect(entry.fields.map(\.key) == ["Title", "Password", "UserName"])
        #expect(entry.field(named: "Password")?.isProtected == true)
        #expect(entry.field(named: "UserName")?.isProtected == true)  // setter keeps the flag
        #expect(entry.userName == "v")
        #expect(entry.password.revealed == "pw")
        #expect(entry.field(named: "Title")?.isProtected == false)
        #expect(entry.removeField(named: "Title") && entry.title == "")
        #expect(String(describing: entry.field(named: "Password")!).contains("pw") == false)
    }

    @Test("EntryField.hasSameValue compares UTF-8 bytes as ProtectedString's == does, flags aside")
    func sameValue() {
        let pairs: [(EntryField, EntryField, Bool)] = [
            (EntryField(key: "A", value: "x"), EntryField(key: "B", value: "x"), true),
            (EntryField(key: "A", value: "x"), EntryField(key: "A", value: "x", isProtected: true), true),
            (EntryField(key: "A", value: "x", isProtected: true), EntryField(key: "A", value: "x", isProtected: true), true),
            (EntryField(key: "A", value: "x", isProtected: true), EntryField(key: "A", value: "y"), false),
            (EntryField(key: "A", value: "x"), EntryField(key: "A", value: "xx"), false),
            (EntryField(key: "A", value: ""), EntryField(key: "A", value: "", isProtected: true), true),
            // Canonically equivalent but different bytes (é precomposed, e + combining acute):
            // String's == says equal, the byte comparison of protected values does not.
            (EntryField(key: "A", value: "caf\u{E9}"), EntryField(key: "A", value: "cafe\u{301}"), false),
            (EntryField(key: "A", value: "caf\u{E9}", isProtected: true), EntryField(key: "A", value: "cafe\u{301}"), false),
        ]
        for (a, b, same) in pairs {
            #expect(a.hasSameValue(as: b) == same, "\(a.key) \(a.isProtected) \(b.isProtected) \(a.utf8Count) \(b.utf8Count)")
            #expect(b.hasSameValue(as: a) == same)
            #expect((a.protectedValue == b.protectedValue) == same)
        }
    }

    @Test("The binary pool keeps one copy per content and flag, also when sizes and sampled bytes agree")
    func binaryPoolDeduplicates() {
        var big = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        let shared = big
        let copy = Array(big[...])  // same bytes, storage of its own
        big[50_100] ^= 1  // outside the bytes the fingerprint samples (start, middle, end)
        let nearTwin = big
        var entry = Entry()
        entry.attachments = [
            Attachment(name: "a", data: shared), Attachment(name: "b", data: copy), Attachment(name: "c", data: nearTwin),
            Attachment(name: "d", data: shared, isProtected: true), Attachment(name: "e", data: []),
            Attachment(name: "f", data: [1, 2, 3]), Attachment(name: "g", data: [1, 2, 3]),
        ]
        var old = entry
        old.attachments = [Attachment(name: "a", data: shared), Attachment(name: "g", data: [1, 2, 4])]
        entry.history = [old]
        var vault = Vault.new(name: "pool", now: .minimum)
        vault.root.entries = [entry]
        let pool = BinaryPool(vault: vault)
        // History first (KeePass's order): shared, [1, 2, 4]; then the entry's new contents.
        #expect(pool.items.map(\.data.count) == [100_000, 3, 100_000, 100_000, 0, 3])
        #expect(pool.items.map(\.isProtected) == [false, false, false, true, false, false])
        #expect(pool.items[2].data == nearTwin && pool.items[5].data == [1, 2, 3])
        #expect(entry.attachments.map { pool.reference(for: $0) } == [0, 0, 2, 3, 4, 5, 5])
        #expect(pool.reference(for: Attachment(name: "x", data: [9])) == nil)
        #expect(pool.reference(for: Attachment(name: "x", data: nearTwin, isProtected: true)) == nil)
    }

    @Test("Tags split on , and ; and join with ;")
    func tags() {
        #expect(Entry.parseTags(" dev, 2fa;;work ;") == ["dev", "2fa", "work"])
        #expect(Entry.joinTags(["dev", "2fa"]) == "dev;2fa")
    }

    @Test("Navigation: pre-order walk, lookups, paths, edits in place")
    func navigation() throws {
        var vault = Self.sampleVault()
        #expect(vault.allGroups.map(\.name) == ["Root", "Work", "Email", "Personal"])
        let mail = try #require(vault.allGroups.first(where: { $0.name == "Email" }))
        #expect(vault.path(ofGroup: mail.uuid) == ["Work", "Email"])
        #expect(vault.path(ofGroup: vault.root.uuid) == [])
        let entry = try #require(vault.allEntries.first)
        #expect(vault.entry(withUUID: entry.uuid)?.title == "Mail")
        #expect(vault.root.parentOfEntry(entry.uuid)?.uuid == mail.uuid)
        vault.root.modifyEntry(withUUID: entry.uuid) { $0.title = "Changed" }
        #expect(vault.entry(withUUID: entry.uuid)?.title == "Changed")
        #expect(vault.root.removeEntry(withUUID: entry.uuid)?.title == "Changed")
        #expect(vault.allEntries.isEmpty)
        #expect(vault.root.removeGroup(withUUID: mail.uuid)?.name == "Email")
        #expect(vault.root.groupCount == 3)
    }

    @Test("Minimum version: the loaded version is the floor, content raises it (KeePass rules)")
    func minimumVersion() {
        var vault = Self.sampleVault()
        #expect(vault.requiredVersion == .v3_1)
        #expect(vault.minimumVersion == .v3_1)
        vault.root.groups[0].groups[0].entries[0].previousParentGroup = vault.root.uuid
        #expect(vault.minimumVersion == .v3_1)  // PreviousParentGroup alone does not raise it
        vault.root.groups[0].customData.setCustomData("v", forKey: "k")
        #expect(vault.minimumVersion == .v4_0)
        vault.root.groups[0].customData = []
        vault.format.kdf = .argon2(.keePassDefault)
        #expect(vault.minimumVersion == .v4_0)
        vault.format.kdf = .aes(rounds: 1)
        vault.format.cipher = .chacha20
        #expect(vault.minimumVersion == .v3_1)  // KDBX 3.1 names any cipher by UUID (KeePassXC writes these)
        vault.format.cipher = .aes256
        vault.root.groups[1].tags = ["x"]
        #expect(vault.minimumVersion == .v4_1)
        vault.root.groups[1].tags = []
        vault.root.groups[0].groups[0].entries[0].qualityCheck = false
        #expect(vault.minimumVersion == .v4_1)
        vault.root.groups[0].groups[0].entries[0].qualityCheck = true
        vault.meta.customIcons = [CustomIcon(uuid: .random(), data: [1], name: "icon")]
        #expect(vault.requiredVersion == .v4_1)
        vault.meta.customIcons = [CustomIcon(uuid: .random(), data: [1])]
        vault.meta.customData = [CustomDataItem(key: "k", value: "v", lastModification: .minimum)]
        #expect(vault.requiredVersion == .v4_1)
        vault.meta.customData = [CustomDataItem(key: "k", value: "v")]
        #expect(vault.minimumVersion == .v3_1)
        vault.format.version = .v4_1
        #expect(vault.minimumVersion == .v4_1)  // never downgraded
        vault.format.version = .v3_0
        #expect(vault.minimumVersion == .v3_1)
    }

    @Test("printing an entry never shows attachment content (a protected attachment is a secret)")
    func attachmentDescriptionHidesContent() {
        let attachment = Attachment(name: "key.pem", data: Array("BEGIN PRIVATE KEY".utf8), isProtected: true)
        #expect("\(attachment)" == #"Attachment("key.pem", 17 bytes, protected)"#)
        #expect("\(BinaryPoolItem(data: [1, 2, 3], isProtected: false))" == "BinaryPoolItem(3 bytes)")
        var entry = Entry()
        entry.attachments = [attachment]
        #expect(!String(describing: entry).contains("66, 69, 71"))  // "BEG" as bytes
        #expect(String(describing: entry).contains("17 bytes, protected"))
    }
}
