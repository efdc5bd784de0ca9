import Foundation
import MyPassCore
import MyPassTestSupport
import Testing

/// The byte-level `ServiceAddress(parsing:)` and `HostName(_:)` against the readable reference
/// parsers they replaced (`referenceParse`, `init(referenceParsing:)`): equal results, `nil`s
/// included, over a table of edge cases, every URL of the KDBX manifests and seeded random text.
@Suite("Host parsing: byte path against the reference")
struct HostParsingDifferentialTests {
    static let table: [String] = {
        var rows = [
            "", " ", "\t\n", "\r\n", "\r\nexample.com", "example.com\r\n", "  \r\n  example.com", "example.com \r\n ",
            "\n\r\nexample.com", "\r\rexample.com", "example.com\n\r", " example.com ", "\texample.com\n",
            "https://example.com", "HTTPS://EXAMPLE.COM/", "HtTp://Example.Com:80", "hxxp://a.b", "ftp://ftp.x.org:21",
            "ws://a.b", "WSS://a.b:443", "git+ssh://host.x", "a.b-c+d://h.x", "1http://x.com", "://x.com", "-a://x.com",
            "https:/x.com", "https:x.com", "//example.com", "///example.com", "//", "/", "?", "#", "\\", "http://\\x.com",
            "user@host.com", "user:pw@host.com:8080/x", "a@b@c.com", "@host.com", "host.com@", "https://u@p@h.com",
            "192.168.0.1", "192.168.001.010", "192.168.0.256", "1.2.3", "1.2.3.4.5", "168.1.1", "0.0.0.0", "255.255.255.255",
            "01.2.3.4", "0001.2.3.4", "1.2.3.04", "1.2.3.4.", "1..2.3", "http://10.0.0.1:8080/admin", "123", "a.123",
            "[::1]", "[::1]:8080", "http://[fe80::1]:8080/", "[2001:DB8::0:1]", "[2001:db8:0:0:0:0:0:1]", "[::]", "[]",
            "[:::]", "[::::]", "[1:2:3:4:5:6:7:8]", "[1:2:3:4:5:6:7:8:9]", "[::ffff:1.2.3.4]", "[::1.2.3.4:5]", "[12345::]",
            "[::1]x", "[::1]:", "[::1", "::1", "[g::1]", "[::1]:99999", "x[::1]", "[a]b]",
            "example.com:0", "example.com:65535", "example.com:65536", "example.com:00080", "example.com:000080",
            "example.com:", "example.com:port", "example.com:-1", "example.com:+1", "example.com: 80", "example.com:1:2",
            "https://example.com:443", "https://example.com:0443", "example.com:99999",
            "example.com.", "example.com..", ".example.com", ".", "..", "a..b", "a.b.", "-a.com", "a-.com", "a_b.com",
            String(repeating: "a", count: 63) + ".com", String(repeating: "a", count: 64) + ".com",
            String(repeating: "B", count: 63) + ".com", "x." + String(repeating: "c", count: 64),
            "exa mple.com", "exa%20mple.com", "exa\u{7F}mple.com", "exa\u{1}mple.com", "a!b.com", "a~b.com", "a=b.com",
            "a\"b.com", "a<b>.com", "a{b}.com", "a|b.com", "a^b.com", "a`b.com", "a'b.com", "a,b.com", "a;b.com",
            "a*b.com", "a(b).com", "a$b.com", "a&b.com", "a]b.com", "a[b.com", "https://a.com?x", "https://a.com#x",
            "a.com/b://c", "example.com/redirect?u=http://x", "https://a.com\\b", "   ", "https://", "1nvalid scheme://x.com",
            "Bücher.Example.", "https://bücher.example/", "mu\u{0308}nchen.de", "m\u{00FC}nchen.de", "MÜNCHEN.de",
            "例え.テスト", "例え。テスト", "例え．テスト", "例え｡テスト", "a\u{3002}b.com", "xn--bcher-kva.example",
            "https://example.com/über", "https://example.com/\u{0301}x", "https://example.com\u{0301}/x", "/\u{0301}x",
            " \u{0301}example.com", "example.com \u{0301}", "https\u{0301}://x.com", "ünïcödé://x.com", "ex\u{00A0}ample.com",
            "\u{FEFF}example.com", "example.com\u{200B}", "a.\u{0661}\u{0662}", "\u{1F600}.com", "İstanbul.com",
            "ſ.com", "K.com", "http://ＥＸＡＭＰＬＥ.com",
        ]
        // Each character of ASCII in a host, alone and in the middle.
        for byte in UInt8(0)..<128 {
            let c = String(decoding: [byte], as: UTF8.self)
            rows += ["a\(c)b.com", "https://x\(c)y.org:8\(c)/", c]
        }
        return rows
    }()

    /// Every URL-like field value (URL, KP2A_URL...) of every entry and history item in the manifests.
    static func manifestURLs() throws -> [String] {
        let root = TestVectors.url("kdbx")
        var urls: [String] = []
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "json" else { continue }
            let json = try JSONSerialization.jsonObject(with: try Data(contentsOf: file))
            guard let entries = (json as? [String: Any])?["entries"] as? [[String: Any]] else { continue }
            for entry in entries {
                for item in [entry] + ((entry["history"] as? [[String: Any]]) ?? []) {
                    for (key, field) in (item["fields"] as? [String: Any]) ?? [:] where key.uppercased().contains("URL") {
                        if let value = (field as? [String: Any])?["value"] as? String { urls.append(value) }
                    }
                }
            }
        }
        return urls
    }

    /// Mixed strings from a seeded generator (SplitMix64) over URL fragments.
    static func generated(count: Int, seed: UInt64) -> [String] {
        var state = seed
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let pieces = ["https", "HTTP", "ftp", "://", "//", "/", ":", "@", "[", "]", ".", "..", "a", "Z", "0", "9", "255",
                      "256", "443", "80", "65536", "-", "_", "%", " ", "\t", "\r", "\n", "\\", "?", "#", "::", "ff",
                      "com", "Example", "ü", "u\u{0308}", "。", "．", "｡", "例", "\u{0301}", "\u{7F}", "xn--", "+", "!"]
        return (0..<count).map { _ in
            let length = Int(next() % 12)
            return (0..<length).map { _ in pieces[Int(next() % UInt64(pieces.count))] }.joined()
        }
    }

    func expectSame(_ text: String) {
        let fast = ServiceAddress(parsing: text), reference = ServiceAddress.referenceParse(text)
        #expect(fast == reference, "address \(text.debugDescription)")
        #expect(fast?.host.description == reference?.host.description, "\(text.debugDescription)")
        #expect(fast?.host.labels == reference?.host.labels, "\(text.debugDescription)")
        #expect(fast?.host.isIPAddress == reference?.host.isIPAddress, "\(text.debugDescription)")
        let host = HostName(text), referenceHost = HostName(referenceParsing: text)
        #expect(host == referenceHost, "host \(text.debugDescription)")
        #expect(host?.labels == referenceHost?.labels, "\(text.debugDescription)")
    }

    @Test func edgeCaseTable() {
        for text in Self.table { expectSame(text) }
        // Some of each kind really parse and some really fail: the table is not all `nil`.
        let parsed = Self.table.filter { ServiceAddress(parsing: $0) != nil }.count
        #expect(parsed > 100 && parsed < Self.table.count - 100)
    }

    @Test func everyManifestURL() throws {
        let urls = try Self.manifestURLs()
        #expect(urls.count > 5_000)
        for text in urls { expectSame(text) }
    }

    @Test func seededMixedStrings() {
        let texts = Self.generated(count: 4_000, seed: 14)
        for text in texts { expectSame(text) }
        #expect(texts.filter { ServiceAddress(parsing: $0) != nil }.count > 100)
    }

    @Test func subdomainTestsAgree() {
        let hosts = (Self.table + Self.generated(count: 300, seed: 7)).compactMap { HostName($0) }
            + ["a.b.example.com", "b.example.com", "example.com", "com", "xample.com", "1.2.3.4", "2.3.4"].compactMap { HostName($0) }
        var proper = 0
        for a in hosts.prefix(400) {
            for b in hosts.prefix(400) {
                #expect(a.isSubdomain(of: b) == a.referenceIsSubdomain(of: b), "\(a) \(b)")
                if a.isSubdomain(of: b) { proper += 1 }
            }
        }
        #expect(proper > 3)
    }

    @Test(arguments: [
        ("HTTPS://User:Pw@Login.GitHub.COM:8443/x?y#z", "https", "login.github.com", 8443),
        ("  example.com:1234/path \n", nil, "example.com", 1234),
        ("//Example.Org.", nil, "example.org", nil),
        ("http://[2001:DB8::1]:8080/", "http", "2001:db8:0:0:0:0:0:1", 8080),
        ("192.168.001.010:00080", nil, "192.168.1.10", 80),
        ("ftp://a_b-c.example", "ftp", "a_b-c.example", nil),
        ("https://Bücher.example/über", "https", "xn--bcher-kva.example", nil),
        ("例え。テスト", nil, "xn--r8jz45g.xn--zckzah", nil),
        ("git+SSH://host.x:0", "git+ssh", "host.x", 0),
        ("a@b@c.com:65535", nil, "c.com", 65535),
    ] as [(String, String?, String, Int?)])
    func knownAnswers(_ row: (String, String?, String, Int?)) throws {
        let address = try #require(ServiceAddress(parsing: row.0))
        #expect(address.scheme == row.1)
        #expect(address.host.description == row.2)
        #expect(address.explicitPort == row.3)
    }

    @Test func knownFailuresAndKinds() throws {
        for text in ["\r\nexample.com", "example.com:65536", "example.com:000080", "a..b", "[::1]x", "http://a!b.com",
                     "example.com/redirect?u=http://x", String(repeating: "a", count: 64) + ".com"] {
            #expect(ServiceAddress(parsing: text) == nil, "\(text.debugDescription)")
        }
        let numeric = try #require(HostName("a.123"))
        #expect(numeric.isIPAddress && numeric.labels == ["a", "123"])
        let quad = try #require(HostName("010.1.1.1"))
        #expect(quad.isIPAddress && quad.labels == ["10.1.1.1"])
        #expect(try #require(HostName("WWW.Example.COM")).labels == ["www", "example", "com"])
    }
}
