import MyPassCore
import MyPassKDBX

/// An entry as the credential matcher sees it: the URL field first, then the additional URL
/// fields other clients use (`KP2A_URL`, `KP2A_URL_1`, ...).
struct MatchCandidate: CredentialCandidate {
    var located: LocatedEntry

    var candidateURLs: [String] {
        var urls = [located.entry.url]
        for field in located.entry.customFields where field.key == "KP2A_URL" || field.key.hasPrefix("KP2A_URL_") {
            urls.append(field.value)
        }
        return urls.filter { !$0.isEmpty }
    }
}
