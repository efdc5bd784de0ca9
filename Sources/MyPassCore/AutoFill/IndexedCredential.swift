import MyPassBytes
import MyPassKDBX

/// One entry of a ``CredentialIndex``: what AutoFill shows (title, user name, breadcrumb, icon,
/// tags), matches (URLs) and fills (password, OTP), and nothing else. The password and OTP
/// fields stay protected values as read.
public struct IndexedCredential: Sendable, Identifiable {
    let record: CredentialSkim.Record
    /// The names of the entry's ancestor groups without the root (as ``FlatEntry/breadcrumb``).
    public let breadcrumb: [String]
    /// The UUID of the group that directly holds the entry.
    public let groupUUID: KDBXUUID

    /// The entry's UUID.
    public var id: KDBXUUID { record.uuid }
    /// The entry's UUID.
    public var uuid: KDBXUUID { record.uuid }
    /// `Title` (clear text).
    public var title: String { value(of: Entry.StandardField.title) }
    /// `UserName` (clear text).
    public var userName: String { value(of: Entry.StandardField.userName) }
    /// `URL` (clear text).
    public var url: String { value(of: Entry.StandardField.url) }
    /// `Password` as a protected value (empty when absent).
    public var password: ProtectedString { field(named: Entry.StandardField.password)?.protectedValue ?? ProtectedString() }
    /// `OverrideURL` (empty: none).
    public var overrideURL: String { record.overrideURL }
    /// `IconID`: a KeePass standard icon index (0-68).
    public var iconID: Int { record.iconID }
    /// `CustomIconUUID` (the image itself is not in the index).
    public var customIconUUID: KDBXUUID? { record.customIconUUID }
    /// `Tags`, in stored order.
    public var tags: [String] { record.tags }
    /// The kept string fields (standard ones, `KP2A_URL*`, OTP fields) in stored order.
    public var fields: [EntryField] { record.fields }

    /// The kept field named `key`, or `nil`.
    public func field(named key: String) -> EntryField? {
        record.fields.first(where: { $0.key == key })
    }

    private func value(of key: String) -> String { field(named: key)?.value ?? "" }

    /// The entry's OTP settings, `nil` when it has none (as ``MyPassKDBX/Entry/otpParameters()``).
    /// - Throws: ``CoreError/Code/invalidOTP`` naming the unreadable field.
    public func otpParameters() throws(CoreError) -> OTPParameters? {
        try OTPParser.parameters(field: { field(named: $0)?.value })
    }

    /// The breadcrumb joined for display (`Work › Email`).
    public func breadcrumbText(separator: String = " › ") -> String {
        breadcrumb.joined(separator: separator)
    }
}

extension IndexedCredential: CredentialCandidate {
    /// The `URL` field, then `KP2A_URL`, `KP2A_URL_1`, ... (the same rule as the full model's
    /// ``MyPassKDBX/Entry/candidateURLs``).
    public var candidateURLs: [String] { Entry.candidateURLs(of: record.fields) }
}

extension IndexedCredential: SearchableEntry {
    /// Title, user name, URL and tags, folded for search (computed on demand, not stored).
    public var searchKeys: [String] {
        var keys = [title, userName, url]
        keys.append(contentsOf: tags)
        return keys.map(SearchFolding.fold)
    }
}
