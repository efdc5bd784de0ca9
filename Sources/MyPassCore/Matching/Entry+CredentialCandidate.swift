import MyPassKDBX

extension Entry: CredentialCandidate {
    /// The `URL` field, then `KP2A_URL`, then `KP2A_URL_1`, `KP2A_URL_2`, ... in numeric order (the
    /// additional URL fields Keepass2Android and KeePassXC use); empty values left out.
    public var candidateURLs: [String] {
        var urls: [String] = []
        if !url.isEmpty { urls.append(url) }
        var numbered: [(Int, String)] = []
        for field in fields {
            if field.key == "KP2A_URL" {
                numbered.append((0, field.value))
            } else if field.key.hasPrefix("KP2A_URL_"), let n = Int(field.key.dropFirst("KP2A_URL_".count)), n >= 0 {
                numbered.append((n + 1, field.value))
            }
        }
        numbered.sort { $0.0 < $1.0 }
        urls.append(contentsOf: numbered.map(\.1).filter { !$0.isEmpty })
        return urls
    }
}

extension FlatEntry: CredentialCandidate {
    /// The entry's URLs (see ``MyPassKDBX/Entry/candidateURLs``).
    public var candidateURLs: [String] { entry.candidateURLs }
}
