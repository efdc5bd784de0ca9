import MyPassKDBX

extension Entry: CredentialCandidate {
    /// The `URL` field, then `KP2A_URL`, then `KP2A_URL_1`, `KP2A_URL_2`, ... in numeric order (the
    /// additional URL fields Keepass2Android and KeePassXC use); empty values left out.
    public var candidateURLs: [String] { Self.candidateURLs(of: fields) }

    /// The candidate URLs of an entry with `fields` (see ``candidateURLs``).
    static func candidateURLs(of fields: [EntryField]) -> [String] {
        let url = fields.first(where: { $0.key == StandardField.url })?.value ?? ""
        var numbered: [(Int, String)] = []
        for field in fields {
            if let rank = additionalURLRank(of: field.key) { numbered.append((rank, field.value)) }
        }
        return candidateURLs(url: url, additional: numbered)
    }

    /// The rank of an additional URL field: `KP2A_URL` 0, `KP2A_URL_n` n + 1 (n a non-negative
    /// number); `nil` for any other field name.
    static func additionalURLRank(of key: String) -> Int? {
        if key == "KP2A_URL" { return 0 }
        if key.hasPrefix("KP2A_URL_"), let n = Int(key.dropFirst("KP2A_URL_".count)), n >= 0 { return n + 1 }
        return nil
    }

    /// The candidate URLs from the `URL` value and the additional URL fields with their ranks (in
    /// stored order): shared by the full model and the credential index, so that both match alike.
    static func candidateURLs(url: String, additional: [(Int, String)]) -> [String] {
        var urls: [String] = []
        if !url.isEmpty { urls.append(url) }
        var numbered = additional
        numbered.sort { $0.0 < $1.0 }
        urls.append(contentsOf: numbered.map { $0.1 }.filter { !$0.isEmpty })
        return urls
    }
}

extension FlatEntry: CredentialCandidate {
    /// The entry's URLs (see ``MyPassKDBX/Entry/candidateURLs``).
    public var candidateURLs: [String] { entry.candidateURLs }
}
