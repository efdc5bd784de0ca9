import MyPassBytes
import MyPassKDBX
import MyPassXML
import Testing

@Suite("KDBX XML body at scale")
struct XMLBodyLargeTests {
    /// 200 groups and 5,000 entries with one history item each, like the large fixtures.
    static func largeVault() -> Vault {
        let t = KDBXTime(year: 2026, month: 11, day: 29)!
        var vault = Vault.new(name: "Large", now: t, format: VaultFormat(version: .v4_0))
        for g in 0..<200 {
            var group = Group(uuid: .random(), name: "Group \(g)", times: Times(all: t))
            for e in 0..<25 {
                var entry = Entry(uuid: .random(), times: Times(all: t))
                entry.title = "Entry \(g)-\(e)"
                entry.userName = "user\(e)@example.com"
                entry.password = ProtectedString("pw-\(g)-\(e)-xyzzy")
                entry.url = "https://site\(e).example.com/login"
                entry.notes = "Notes for entry \(e)\nsecond line"
                entry.setValue("otpauth://totp/x?secret=JBSWY3DPEHPK3PXP", for: "otp", isProtected: true)
                entry.tags = ["t\(e % 5)"]
                var old = entry
                old.password = ProtectedString("old-\(e)")
                entry.history = [old]
                if e == 0 { entry.attachments = [Attachment(name: "a.txt", data: Array("attachment \(g)".utf8))] }
                group.entries.append(entry)
            }
            vault.root.groups.append(group)
        }
        return vault
    }

    @Test("5,000 entries with history write and read back equal, with the stream consumed alike")
    func largeRoundTrip() throws {
        let vault = Self.largeVault()
        let pool = BinaryPool(vault: vault)
        #expect(pool.items.count == 200)
        var write = TestKeystream(seed: 11)
        let clock = ContinuousClock()
        var xml: [UInt8] = []
        let writeTime = clock.measure {
            xml = VaultXMLWriter.write(vault, version: .v4_0, stream: &write, binaryPool: pool)
        }
        var read = TestKeystream(seed: 11)
        var body: VaultBody?
        let readTime = try clock.measure {
            body = try VaultXMLReader.read(xml, version: .v4_0, binaryPool: pool.items, stream: &read)
        }
        var events = 0
        let tokenizeTime = try clock.measure {
            var tokenizer = XMLTokenizer()
            tokenizer.feed(xml[...])
            tokenizer.finish()
            while try tokenizer.next() != nil { events += 1 }
        }
        print("tokenizer alone: \(events) events in \(tokenizeTime)")
        print("XML body, 5,000 entries (\(xml.count) bytes): write \(writeTime), read \(readTime)")
        #expect(read.consumed == write.consumed)
        #expect(body.map { Vault(format: vault.format, body: $0) } == vault)
    }
}
