import MyPassBytes
import MyPassCore
import MyPassKDBX
import Testing

@Suite("Entries in matching and OTP")
struct EntryAdapterTests {
    let now = KDBXTime(unixSeconds: 1_111_111_109)

    func entry(_ title: String, url: String, extra: [(String, String)] = []) -> Entry {
        var e = Entry()
        e.title = title
        e.url = url
        for (key, value) in extra { e.setValue(value, for: key) }
        return e
    }

    @Test func additionalURLFieldsCount() {
        let e = entry("multi", url: "https://a.example", extra: [
            ("KP2A_URL_2", "c.example"), ("KP2A_URL", "b.example"), ("KP2A_URL_1", "https://d.example:8443"),
            ("KP2A_URL_x", "ignored.example"), ("KP2A_URL_3", ""),
        ])
        #expect(e.candidateURLs == ["https://a.example", "b.example", "https://d.example:8443", "c.example"])
        let others = [entry("plain", url: "https://b.example"), entry("none", url: ""), e]
        let matcher = CredentialMatcher()
        let result = matcher.match(serviceIdentifier: "https://login.c.example/", in: others)
        #expect(result.suggested.map(\.title) == ["multi"])
        #expect(result.others.map(\.title) == ["plain", "none"])
        #expect(matcher.match(serviceIdentifier: "d.example:8443", in: others).suggested.map(\.title) == ["multi"])
        #expect(matcher.match(serviceIdentifier: "https://ignored.example", in: others).suggested.isEmpty)
    }

    @Test func matchingOnTheFlatList() {
        let sample = SampleVault()
        let result = CredentialMatcher().match(serviceIdentifier: "https://github.com/login", in: sample.vault.flatEntries)
        #expect(result.suggested.map(\.entry.title) == ["GitHub"])
        #expect(result.others.count == 7)
    }

    @Test func totpFromEntry() throws {
        let e = entry("otp", url: "", extra: [("otp", "otpauth://totp/x?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&digits=8")])
        #expect(e.hasOTP)
        #expect(try e.otpParameters()?.kind == .totp(periodSeconds: 30))
        var vault = Vault.new(name: "V", now: now)
        let uuid = try vault.addEntry(e, to: vault.root.uuid, now: now)
        let before = vault
        let code = try #require(try vault.oneTimePassword(forEntry: uuid, now: now))
        #expect(code.value == "07081804")
        #expect(code.secondsRemaining == 1)
        #expect(vault == before)
        #expect(!entry("no", url: "").hasOTP)
        #expect(try vault.oneTimePassword(forEntry: try vault.addEntry(entry("no", url: ""), to: vault.root.uuid, now: now), now: now) == nil)
    }

    @Test(arguments: [
        ("HmacOtp-Counter", [("HmacOtp-Secret", "12345678901234567890"), ("HmacOtp-Counter", "0")], "HmacOtp-Counter"),
        ("otp", [("otp", "otpauth://hotp/x?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&counter=0&issuer=i")], "otp"),
        ("keeotp", [("otp", "key=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&type=hotp")], "otp"),
    ])
    func hotpCounterAdvancesAndIsSaved(_ row: (String, [(String, String)], String)) throws {
        var vault = Vault.new(name: "V", now: now)
        let uuid = try vault.addEntry(entry("hotp", url: "", extra: row.1), to: vault.root.uuid, now: KDBXTime(unixSeconds: 0))
        var codes: [String] = []
        for _ in 0..<3 {
            let code = try #require(try vault.oneTimePassword(forEntry: uuid, now: now))
            #expect(code.secondsRemaining == nil)
            codes.append(code.value)
        }
        // RFC 4226 Appendix D, counters 0, 1, 2.
        #expect(codes == ["755224", "287082", "359152"])
        let stored = try #require(vault.entry(withUUID: uuid))
        #expect(try stored.otpParameters()?.kind == .hotp(counter: 3))
        #expect(stored.history.isEmpty)
        #expect(stored.times.lastModification == now)
        if row.0 == "otp" {
            #expect(stored.value(of: "otp") == "otpauth://hotp/x?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&counter=3&issuer=i")
        }
        if row.0 == "keeotp" {
            #expect(stored.value(of: "otp") == "key=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&type=hotp&counter=3")
        }
    }

    @Test func unreadableEntryOTPNamesTheField() throws {
        var vault = Vault.new(name: "V", now: now)
        let uuid = try vault.addEntry(entry("bad", url: "", extra: [("TimeOtp-Secret-Base32", "0189")]),
                                      to: vault.root.uuid, now: now)
        do {
            _ = try vault.oneTimePassword(forEntry: uuid, now: now)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidOTP)
            #expect(error.location == "TimeOtp-Secret-Base32")
            #expect(error.description == "the one-time password settings cannot be read (TimeOtp-Secret-Base32): the secret is not base32")
        }
        #expect(throws: CoreError(.notFound)) { try vault.oneTimePassword(forEntry: .random(), now: now) }
    }

    @Test func replacingCounter() {
        #expect(OTPParser.replacingCounter(in: "otpauth://hotp/x?secret=A", with: 5) == "otpauth://hotp/x?secret=A&counter=5")
        #expect(OTPParser.replacingCounter(in: "otpauth://hotp/x", with: 5) == "otpauth://hotp/x?counter=5")
        #expect(OTPParser.replacingCounter(in: "otpauth://hotp/x?Counter=9&secret=A#f", with: 10) == "otpauth://hotp/x?counter=10&secret=A#f")
    }
}
