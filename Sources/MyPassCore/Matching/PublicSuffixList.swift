import Foundation

/// Mozilla's Public Suffix List: which domain suffixes are open for anyone to register under
/// (`com`, `com.au`, `github.io`), so that the registrable domain of a host is known and two
/// sites under one public suffix are never taken for one site.
///
/// The list ships as the module resource `Resources/public_suffix_list.dat`, copied from
/// github.com/publicsuffix/list, file `public_suffix_list.dat`, commit
/// e8c9a2b2b2856b6449999dd0ec0d118f364ed0cd (2026-08-19), licensed under the Mozilla Public
/// License 2.0 (the licence header is kept at the top of the file; see
/// https://mozilla.org/MPL/2.0/ and https://publicsuffix.org/list/). The file is used unmodified.
///
/// Rules are matched in ASCII (Punycode) form, per the algorithm at https://publicsuffix.org/list/:
/// the longest matching rule wins, an exception rule (`!www.ck`) prevails, and when nothing
/// matches the implicit rule `*` applies.
public struct PublicSuffixList: Sendable {
    private var rules: Set<String> = []
    private var wildcards: Set<String> = []
    private var exceptions: Set<String> = []

    /// The number of rules read (normal, wildcard and exception).
    public var ruleCount: Int { rules.count + wildcards.count + exceptions.count }

    /// Parses the list's text format: one rule per line, `//` comments, the first white-space
    /// delimited word of a line is the rule; Unicode rules are converted to Punycode.
    public init(text: String) {
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            guard let word = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first,
                  !word.hasPrefix("//") else { continue }
            if word.hasPrefix("!") {
                if let host = HostName(String(word.dropFirst())) { exceptions.insert(host.description) }
            } else if word.hasPrefix("*.") {
                if let host = HostName(String(word.dropFirst(2))) { wildcards.insert(host.description) }
            } else if let host = HostName(String(word)) {
                rules.insert(host.description)
            }
        }
    }

    /// The list bundled with MyPassCore, parsed once on first use (about 10,000 rules).
    public static let bundled: PublicSuffixList = {
        guard let url = Bundle.module.url(forResource: "public_suffix_list", withExtension: "dat"),
              let data = try? Data(contentsOf: url) else {
            // The resource is part of the module; without it only the implicit `*` rule applies.
            return PublicSuffixList(text: "")
        }
        return PublicSuffixList(text: String(decoding: data, as: UTF8.self))
    }()

    /// The number of trailing labels of `host` that form its public suffix (at least 1).
    public func publicSuffixLabelCount(of host: HostName) -> Int {
        let labels = host.labels
        for start in 0..<labels.count {
            let suffix = labels[start...].joined(separator: ".")
            if exceptions.contains(suffix) { return labels.count - start - 1 }
            if rules.contains(suffix) { return labels.count - start }
            if start + 1 < labels.count, wildcards.contains(labels[(start + 1)...].joined(separator: ".")) {
                return labels.count - start
            }
        }
        return 1
    }

    /// The public suffix of `host` (`com.au` for `www.sitea.com.au`); `nil` for an IP address.
    public func publicSuffix(of host: HostName) -> String? {
        guard !host.isIPAddress else { return nil }
        return host.labels.suffix(publicSuffixLabelCount(of: host)).joined(separator: ".")
    }

    /// The registrable domain of `host`: its public suffix plus one label (`sitea.com.au`), or
    /// `nil` when the host is itself a public suffix or an IP address.
    public func registrableDomain(of host: HostName) -> String? {
        guard !host.isIPAddress else { return nil }
        let count = publicSuffixLabelCount(of: host)
        guard host.labels.count > count else { return nil }
        return host.labels.suffix(count + 1).joined(separator: ".")
    }
}
