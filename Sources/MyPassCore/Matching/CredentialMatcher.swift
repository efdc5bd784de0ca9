/// What the credential matcher needs to know of an entry: a stable identity, a title and user
/// name for display, and every URL the entry carries (the URL field first, then additional URL
/// fields such as `KP2A_URL`, `KP2A_URL_1`, ...).
public protocol CredentialCandidate {
    /// The URLs to compare with the service, in the order they should be tried.
    var candidateURLs: [String] { get }
}

/// A plain candidate for callers (and tests) that do not hold a vault entry.
public struct SimpleCredentialCandidate: CredentialCandidate, Hashable, Sendable {
    /// An identifier of the caller's choice.
    public var id: String
    /// The entry title.
    public var title: String
    /// The user name.
    public var username: String
    /// The entry's URLs.
    public var urls: [String]
    /// The ``urls``.
    public var candidateURLs: [String] { urls }

    /// Creates a candidate.
    public init(id: String, title: String = "", username: String = "", urls: [String]) {
        self.id = id
        self.title = title
        self.username = username
        self.urls = urls
    }
}

/// How well an entry matched a service.
public enum CredentialMatchKind: Comparable, Sendable {
    /// The entry's host is the service's host.
    case exactHost
    /// The entry's host is a parent domain of the service's host, `levels` labels up
    /// (`example.com` for `login.example.com` is 1); ranked after exact matches, nearer first.
    case parentDomain(levels: Int)
}

/// The matcher's answer: suggested entries best first, and every other entry.
public struct CredentialMatches<Candidate> {
    /// Entries whose URL matches the service, best first (exact host before parent domain, nearer
    /// parents before farther ones; ties keep the input order).
    public var suggested: [Candidate]
    /// The match kind of each suggested entry, parallel to ``suggested``.
    public var kinds: [CredentialMatchKind]
    /// All other entries in input order, including entries without a URL or with URLs that
    /// cannot be read.
    public var others: [Candidate]
}

extension CredentialMatches: Sendable where Candidate: Sendable {}

/// Matches vault entries to the service the system asks credentials for (AutoFill).
///
/// The rule is host comparison, never substring matching:
/// - `github.com` matches `https://github.com/login` (host equality, path and scheme ignored);
/// - a subdomain service matches an entry for its parent domain, ranked after exact matches, but
///   only within the same registrable domain: an entry for a public suffix (`com.au`,
///   `github.io`) matches nothing but itself, and `box.com` never matches `dropbox.com`;
/// - a port written in the entry must be the service's port (explicit or the scheme default); an
///   entry without a port matches only services on their scheme's default port; a default port
///   spelled out (`:443` for https, `:80` for http, any case of scheme and host) is the same as
///   none, on the entry's side and the service's, and a service without a scheme is taken as https;
/// - IP addresses match only exactly;
/// - `example.com:1234` (no scheme) is understood as host and port;
/// - internationalised names compare in their Punycode ASCII form;
/// - entries with no URL, or with URLs that do not parse, go to ``CredentialMatches/others``.
public struct CredentialMatcher: Sendable {
    /// The public suffix list used to find registrable domains.
    public let suffixes: PublicSuffixList

    /// A matcher using `suffixes` (the bundled list by default).
    public init(suffixes: PublicSuffixList = .bundled) {
        self.suffixes = suffixes
    }

    /// Compares one entry URL with a service address: the match kind, or `nil` for no match.
    public func matchKind(entryURL: String, service: ServiceAddress) -> CredentialMatchKind? {
        guard let entry = ServiceAddress(parsing: entryURL) else { return nil }
        return matchKind(entry: entry, service: service)
    }

    /// Compares two parsed addresses: the match kind, or `nil` for no match.
    public func matchKind(entry: ServiceAddress, service: ServiceAddress) -> CredentialMatchKind? {
        // Ports: a written entry port must be the service's port in effect; without one, the
        // service must be on its default port. A scheme's default port spelled out counts as
        // none, on both sides; a service without a scheme is taken as https.
        guard entry.portsAgree(withService: service) else { return nil }
        if entry.host == service.host { return .exactHost }
        guard !entry.host.isIPAddress, !service.host.isIPAddress,
              service.host.isSubdomain(of: entry.host),
              let registrable = suffixes.registrableDomain(of: entry.host),
              suffixes.registrableDomain(of: service.host) == registrable
        else { return nil }
        return .parentDomain(levels: service.host.labelCount - entry.host.labelCount)
    }

    /// Splits `candidates` into the entries suggested for `serviceIdentifier` (a URL or a bare
    /// domain, as the system hands it over) and the rest.
    ///
    /// An entry's best URL decides its rank. When the service identifier itself cannot be read,
    /// nothing is suggested.
    public func match<Candidate: CredentialCandidate>(
        serviceIdentifier: String, in candidates: [Candidate]
    ) -> CredentialMatches<Candidate> {
        match(serviceIdentifiers: [serviceIdentifier], in: candidates)
    }

    /// As ``match(serviceIdentifier:in:)`` for several identifiers at once (AutoFill may hand over
    /// more than one): an entry's best match against any of them decides its rank. Identifiers
    /// that cannot be read are ignored.
    public func match<Candidate: CredentialCandidate>(
        serviceIdentifiers: [String], in candidates: [Candidate]
    ) -> CredentialMatches<Candidate> {
        let services = serviceIdentifiers.compactMap { ServiceAddress(parsing: $0) }
        guard !services.isEmpty else {
            return CredentialMatches(suggested: [], kinds: [], others: candidates)
        }
        var ranked: [(kind: CredentialMatchKind, index: Int)] = []
        var others: [Candidate] = []
        others.reserveCapacity(candidates.count)
        for (index, candidate) in candidates.enumerated() {
            // The best kind over every URL and service, without arrays per candidate; an exact
            // match cannot be beaten, so the remaining URLs are not read.
            var best: CredentialMatchKind?
            urls: for url in candidate.candidateURLs {
                guard let entry = ServiceAddress(parsing: url) else { continue }
                for service in services {
                    guard let kind = matchKind(entry: entry, service: service) else { continue }
                    if best.map({ kind < $0 }) ?? true { best = kind }
                    if kind == .exactHost { break urls }
                }
            }
            if let best {
                ranked.append((best, index))
            } else {
                others.append(candidate)
            }
        }
        ranked.sort { $0.kind != $1.kind ? $0.kind < $1.kind : $0.index < $1.index }
        return CredentialMatches(
            suggested: ranked.map { candidates[$0.index] }, kinds: ranked.map { $0.kind }, others: others)
    }
}
