import MyPassKDBX

extension Entry: CredentialCandidate {
    /// The `URL` field, then `KP2A_URL`, then `KP2A_URL_1`, `KP2A_URL_2`, ... in numeric order (the
    /// additional URL fields Keepass2Android and KeePassXC use); empty values left out.
    public var candidateURLs: [String] { Self.candidateURLs(of: fields) }

    /// The candidate URLs of an entry with `fields` (see ``candidateURLs``): shared by the full
    /// model and the credential index, so that both match alike.
    static func candidateURLs(of fields: [EntryField]) -> [String] {
        var urls: [String] = []
        let url = fields.first(where: { $0.key == StandardField.url })?.value ?? ""
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
