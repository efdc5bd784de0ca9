import MyPassCore
import MyPassTestSupport
import Testing

@Suite("Punycode and host names")
struct PunycodeTests {
    // RFC 3492 §7.1 samples (lower-cased where the sample has upper-case basic code points) and
    // well-known IDN examples.
    @Test(arguments: [
        ("bücher", "bcher-kva"),
        ("münchen", "mnchen-3ya"),
        ("他们为什么不说中文", "ihqwcrb4cv8a8dqg056pqjye"),
        ("почемужеонинеговорятпорусски", "b1abfaaepdrnnbgefbadotcwatmq2g4l"),
        ("3年b組金八先生", "3b-ww4c5e180e575a65lsy2b"),
        ("例え", "r8jz45g"),
        ("テスト", "zckzah"),
    ])
    func encodes(_ pair: (String, String)) {
        #expect(Punycode.encode(pair.0) == pair.1)
    }

    @Test func normalisesHosts() throws {
        #expect(HostName("Bücher.Example.")?.description == "xn--bcher-kva.example")
        #expect(HostName("例え.テスト")?.description == "xn--r8jz45g.xn--zckzah")
        #expect(HostName("例え。テスト")?.description == "xn--r8jz45g.xn--zckzah")
        #expect(HostName("MÜNCHEN.de")?.description == "xn--mnchen-3ya.de")
        #expect(HostName("mu\u{0308}nchen.de")?.description == "xn--mnchen-3ya.de")
        #expect(HostName("192.168.001.010")?.description == "192.168.1.10")
        #expect(HostName("192.168.1.10")?.isIPAddress == true)
        #expect(HostName("[::1]")?.description == "0:0:0:0:0:0:0:1")
        #expect(HostName("[2001:DB8::0:1]") == HostName("[2001:db8:0:0:0:0:0:1]"))
        #expect(HostName("a..b") == nil)
        #expect(HostName("") == nil)
        #expect(HostName("exa mple.com") == nil)
        #expect(HostName(String(repeating: "a", count: 64) + ".com") == nil)
    }

    @Test func parsesAddresses() throws {
        let a = try #require(ServiceAddress(parsing: "https://user:pw@Login.GitHub.com:8443/x?y#z"))
        #expect(a.scheme == "https")
        #expect(a.host.description == "login.github.com")
        #expect(a.explicitPort == 8443)
        let b = try #require(ServiceAddress(parsing: "example.com:1234/path"))
        #expect(b.scheme == nil)
        #expect(b.host.description == "example.com")
        #expect(b.explicitPort == 1234)
        let c = try #require(ServiceAddress(parsing: "http://[fe80::1]:8080/"))
        #expect(c.host.isIPAddress)
        #expect(c.effectivePort == 8080)
        #expect(ServiceAddress(parsing: "https://example.com")?.effectivePort == 443)
        #expect(ServiceAddress(parsing: "https://example.com:443")?.hasDefaultPort == true)
        #expect(ServiceAddress(parsing: "example.com:99999") == nil)
        #expect(ServiceAddress(parsing: "example.com:port") == nil)
        #expect(ServiceAddress(parsing: "   ") == nil)
        #expect(ServiceAddress(parsing: "https://") == nil)
        #expect(ServiceAddress(parsing: "1nvalid scheme://x.com") == nil)
    }
}

@Suite("Public suffix list")
struct PublicSuffixListTests {
    let list = PublicSuffixList.bundled

    @Test func loadsTheBundledList() {
        // 9,957 normal, 283 wildcard and 8 exception rules: every rule line of the .dat file.
        #expect(list.ruleCount == 10_248)
        #expect(list.ruleLists.wildcards.count == 283)
        #expect(list.ruleLists.exceptions == ["city.kawasaki.jp", "city.kitakyushu.jp", "city.kobe.jp", "city.nagoya.jp",
                                              "city.sapporo.jp", "city.sendai.jp", "city.yokohama.jp", "www.ck"])
    }

    /// The generated source (`PublicSuffixList+Embedded.swift`) holds the .dat file's rules, rule
    /// for rule, as the Swift parser reads them; each table strictly sorted, as the search needs.
    @Test func embeddedListEqualsTheDatFile() throws {
        let parsed = PublicSuffixList(text: try TestVectors.text("core/public_suffix_list.dat"))
        let file = parsed.ruleLists, embedded = list.ruleLists
        #expect(parsed.ruleCount == 10_248)
        #expect(embedded.normal == file.normal)
        #expect(embedded.wildcards == file.wildcards)
        #expect(embedded.exceptions == file.exceptions)
        for table in [embedded.normal, embedded.wildcards, embedded.exceptions] {
            #expect(zip(table, table.dropFirst()).allSatisfy { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        }
    }

    /// Every rule is found by the embedded table's search as by the parsed sets: a host two
    /// labels under each rule gets the same public suffix from both (first and last lines too).
    @Test func embeddedSearchFindsEveryRule() throws {
        let parsed = PublicSuffixList(text: try TestVectors.text("core/public_suffix_list.dat"))
        let lists = parsed.ruleLists
        var checked = 0
        for rule in lists.normal + lists.wildcards + lists.exceptions {
            let host = try #require(HostName("a.b." + rule))
            #expect(list.publicSuffix(of: host) == parsed.publicSuffix(of: host), "\(rule)")
            checked += 1
        }
        #expect(checked == 10_248)
        #expect(list.publicSuffix(of: try #require(HostName("x.0.bg"))) == "0.bg")
        #expect(list.publicSuffix(of: try #require(HostName("zz.unlisted-tld"))) == "unlisted-tld")
    }

    @Test(arguments: [
        ("www.example.com", "com", "example.com"),
        ("sitea.com.au", "com.au", "sitea.com.au"),
        ("a.b.sitea.com.au", "com.au", "sitea.com.au"),
        ("user1.github.io", "github.io", "user1.github.io"),
        ("foo.bar.uk", "uk", "bar.uk"),
        ("www.bbc.co.uk", "co.uk", "bbc.co.uk"),
        ("example.localhost-unlisted", "localhost-unlisted", "example.localhost-unlisted"),
        // Wildcard *.ck and its exception !www.ck.
        ("foo.bar.ck", "bar.ck", "foo.bar.ck"),
        ("www.ck", "ck", "www.ck"),
        // Exception !city.kawasaki.jp under *.kawasaki.jp.
        ("www.city.kawasaki.jp", "kawasaki.jp", "city.kawasaki.jp"),
        ("a.b.kawasaki.jp", "b.kawasaki.jp", "a.b.kawasaki.jp"),
        // IDN rules are matched in Punycode: 公司.cn is a listed suffix.
        ("例子.公司.cn", "xn--55qx5d.cn", "xn--fsqu00a.xn--55qx5d.cn"),
    ])
    func registrableDomains(_ row: (String, String, String)) throws {
        let host = try #require(HostName(row.0))
        #expect(list.publicSuffix(of: host) == row.1)
        #expect(list.registrableDomain(of: host) == row.2)
    }

    @Test func publicSuffixesHaveNoRegistrableDomain() throws {
        for text in ["com", "com.au", "github.io", "co.uk", "bar.ck"] {
            #expect(list.registrableDomain(of: try #require(HostName(text))) == nil, "\(text)")
        }
    }

    @Test func parsesTheTextFormat() throws {
        let small = PublicSuffixList(text: "// comment\ncom\n*.ck\n!www.ck\n\nco.uk  trailing words\n")
        #expect(small.ruleCount == 4)
        #expect(small.registrableDomain(of: try #require(HostName("a.b.co.uk"))) == "b.co.uk")
    }
}

@Suite("Credential matcher")
struct CredentialMatcherTests {
    let matcher = CredentialMatcher()

    func candidate(_ id: String, _ urls: String...) -> SimpleCredentialCandidate {
        SimpleCredentialCandidate(id: id, title: id, urls: urls)
    }

    func suggested(_ service: String, _ candidates: [SimpleCredentialCandidate]) -> [String] {
        matcher.match(serviceIdentifier: service, in: candidates).suggested.map(\.id)
    }

    @Test func hostEqualityIgnoresPathAndScheme() {
        let entries = [candidate("gh", "github.com"), candidate("other", "https://gitlab.com")]
        let result = matcher.match(serviceIdentifier: "https://github.com/login", in: entries)
        #expect(result.suggested.map(\.id) == ["gh"])
        #expect(result.kinds == [.exactHost])
        #expect(result.others.map(\.id) == ["other"])
        #expect(suggested("github.com", [candidate("gh", "https://github.com/login?return=/x")]) == ["gh"])
        #expect(suggested("http://GITHUB.COM.", [candidate("gh", "https://github.com")]) == ["gh"])
    }

    @Test func subdomainsMatchParentsAfterExactMatches() {
        let entries = [
            candidate("parent", "https://example.com"),
            candidate("exact", "https://login.example.com"),
            candidate("grandparent-ish", "example.com"),
            candidate("sibling", "https://mail.example.com"),
            candidate("deeper", "https://a.login.example.com"),
        ]
        let result = matcher.match(serviceIdentifier: "https://login.example.com/signin", in: entries)
        #expect(result.suggested.map(\.id) == ["exact", "parent", "grandparent-ish"])
        #expect(result.kinds == [.exactHost, .parentDomain(levels: 1), .parentDomain(levels: 1)])
        #expect(result.others.map(\.id) == ["sibling", "deeper"])
        // Nearer parents rank first.
        let nested = [candidate("far", "example.com"), candidate("near", "b.example.com")]
        #expect(suggested("a.b.example.com", nested) == ["near", "far"])
    }

    // Substring and suffix matching bugs seen in other clients: a host must equal, or be a
    // subdomain at a label boundary, never merely contain or end with the entry's text.
    @Test func neverMatchesByString() {
        #expect(suggested("https://dropbox.com", [candidate("box", "box.com")]).isEmpty)
        #expect(suggested("https://box.com", [candidate("dropbox", "dropbox.com")]).isEmpty)
        #expect(suggested("https://example.com.evil.net", [candidate("e", "example.com")]).isEmpty)
        #expect(suggested("https://notexample.com", [candidate("e", "example.com")]).isEmpty)
        #expect(suggested("https://evil.com/?next=github.com", [candidate("gh", "github.com")]).isEmpty)
        #expect(suggested("https://github.com@evil.com/", [candidate("gh", "github.com")]).isEmpty)
        #expect(suggested("https://example.com", [candidate("sub", "https://login.example.com")]).isEmpty)
    }

    // Public-suffix over-matching: sites under one public suffix are different sites.
    @Test func neverCrossesRegistrableDomains() {
        #expect(suggested("https://siteb.com.au", [candidate("a", "sitea.com.au")]).isEmpty)
        #expect(suggested("https://sitea.com.au", [candidate("suffix", "com.au")]).isEmpty)
        #expect(suggested("https://www.sitea.com.au", [candidate("a", "sitea.com.au")]) == ["a"])
        #expect(suggested("https://user2.github.io", [candidate("u1", "user1.github.io")]).isEmpty)
        #expect(suggested("https://user1.github.io", [candidate("gh", "github.io")]).isEmpty)
        #expect(suggested("https://www.bbc.co.uk", [candidate("uk", "co.uk")]).isEmpty)
        // An entry for a public suffix still matches that exact host.
        #expect(suggested("https://github.io", [candidate("gh", "github.io")]) == ["gh"])
    }

    @Test func portsMustAgree() {
        let entries = [candidate("port", "example.com:1234"), candidate("plain", "https://example.com")]
        #expect(suggested("https://example.com:1234/", entries) == ["port"])
        #expect(suggested("https://example.com/", entries) == ["plain"])
        #expect(suggested("https://example.com:443/", entries) == ["plain"])
        #expect(suggested("https://example.com:8443/", entries).isEmpty)
        #expect(suggested("example.com", entries) == ["plain"])
        #expect(suggested("https://example.com", [candidate("p", "https://example.com:443")]) == ["p"])
        // A default port spelled out is the same as none (issue 14): https://example.com:443 is
        // https://example.com, which matches http://example.com as any port-less entry does.
        #expect(suggested("http://example.com", [candidate("p", "https://example.com:443")]) == ["p"])
        #expect(suggested("https://a.example.com:1234", entries) == ["port"])
    }

    @Test func ipAddressesMatchOnlyExactly() {
        let entries = [candidate("ip", "http://192.168.1.1"), candidate("v6", "http://[::1]:8080")]
        #expect(suggested("http://192.168.1.1/admin", entries) == ["ip"])
        #expect(suggested("http://192.168.1.10", entries).isEmpty)
        #expect(suggested("http://1.192.168.1.1", entries).isEmpty)
        #expect(suggested("http://[0:0:0:0:0:0:0:1]:8080", entries) == ["v6"])
        #expect(suggested("http://168.1.1", [candidate("x", "1.1")]).isEmpty)
    }

    @Test func internationalisedNamesCompareInPunycode() {
        let entries = [candidate("unicode", "https://bücher.example"), candidate("ascii", "xn--mnchen-3ya.de")]
        #expect(suggested("https://xn--bcher-kva.example/", entries) == ["unicode"])
        #expect(suggested("https://BÜCHER.example", entries) == ["unicode"])
        #expect(suggested("münchen.de", entries) == ["ascii"])
    }

    @Test func unreadableAndMissingURLsGoToOthers() {
        let entries = [
            candidate("empty"), candidate("blank", ""), candidate("junk", "http://exa mple.com"),
            candidate("badport", "example.com:http"), candidate("ok", "not a url", "example.com"),
        ]
        let result = matcher.match(serviceIdentifier: "example.com", in: entries)
        #expect(result.suggested.map(\.id) == ["ok"])
        #expect(result.others.map(\.id) == ["empty", "blank", "junk", "badport"])
        let none = matcher.match(serviceIdentifier: "", in: entries)
        #expect(none.suggested.isEmpty)
        #expect(none.others.count == 5)
    }

    @Test func severalServiceIdentifiers() {
        let entries = [candidate("a", "a.example"), candidate("b", "b.example"), candidate("c", "c.example")]
        let result = matcher.match(serviceIdentifiers: ["https://x.b.example", "not a host!", "a.example"], in: entries)
        #expect(result.suggested.map(\.id) == ["a", "b"])
        #expect(result.kinds == [.exactHost, .parentDomain(levels: 1)])
        #expect(result.others.map(\.id) == ["c"])
        #expect(matcher.match(serviceIdentifiers: [], in: entries).others.count == 3)
    }

    @Test func bestURLOfAnEntryDecidesItsRank() {
        let entries = [
            candidate("parent-only", "example.com"),
            candidate("both", "example.com", "https://www.example.com"),
        ]
        #expect(suggested("https://www.example.com", entries) == ["both", "parent-only"])
    }
}
