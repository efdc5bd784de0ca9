import MyPassBytes
import MyPassKDBX

/// One entry of a ``CredentialIndex``: what AutoFill shows (title, user name, breadcrumb, icon,
/// tags), matches (URLs) and fills (password, OTP), and nothing else. The password and OTP
/// fields stay masked in the index's arena as read; each accessor builds its value on demand.
///
/// A credential is a reference into its index's shared storage (16 bytes): copying it copies
/// no string.
public struct IndexedCredential: Sendable, Identifiable {
    let store: CredentialIndexStorage
    let position: Int32

    private var record: CredentialSkim.Record { store.record(position) }

    /// The names of the entry's ancestor groups without the root (as ``FlatEntry/breadcrumb``).
    public var breadcrumb: [String] { store.breadcrumbs[Int(record.group)] }
    /// The UUID of the group that directly holds the entry.
    public var groupUUID: KDBXUUID { store.skim.groups[Int(record.group)].uuid }

    /// The entry's UUID.
    public var id: KDBXUUID { record.uuid }
    /// The entry's UUID.
    public var uuid: KDBXUUID { record.uuid }
    /// `Title` (clear text).
    public var title: String { value(of: CredentialSkim.titleKey) }
    /// `UserName` (clear text).
    public var userName: String { value(of: CredentialSkim.userNameKey) }
    /// `URL` (clear text).
    public var url: String { value(of: CredentialSkim.urlKey) }
    /// `Password` as a protected value (empty when absent).
    public var password: ProtectedString {
        store.field(position, key: CredentialSkim.passwordKey).map(store.protectedString) ?? ProtectedString()
    }
    /// `OverrideURL` (empty: none).
    public var overrideURL: String { store.skim.arena.string(record.overrideURL) }
    /// `IconID`: a KeePass standard icon index (0-68).
    public var iconID: Int { Int(record.iconID) }
    /// `CustomIconUUID` (the image itself is not in the index).
    public var customIconUUID: KDBXUUID? { record.customIconUUID }
    /// `Tags`, in stored order.
    public var tags: [String] {
        let range = record.tags
        return (Int(range.lowerBound)..<Int(range.upperBound)).map { store.skim.arena.string(store.skim.tags[$0]) }
    }
    /// The kept string fields (standard ones, `KP2A_URL*`, OTP fields) in stored order.
    public var fields: [EntryField] {
        let range = record.fields
        return (Int(range.lowerBound)..<Int(range.upperBound)).map { store.entryField(store.skim.fields[$0]) }
    }

    /// The kept field named `key`, or `nil`.
    public func field(named key: String) -> EntryField? {
        guard let index = store.skim.keyIndex[key], let field = store.field(position, key: index) else { return nil }
        return store.entryField(field)
    }

    private func value(of key: UInt32) -> String {
        store.field(position, key: key).map(store.string) ?? ""
    }

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
    /// ``MyPassKDBX/Entry/candidateURLs``), read straight from the arena.
    public var candidateURLs: [String] {
        let range = record.fields
        var url = ""
        var sawURL = false
        var numbered: [(Int, String)] = []
        for index in Int(range.lowerBound)..<Int(range.upperBound) {
            let field = store.skim.fields[index]
            if field.key == CredentialSkim.urlKey {
                if !sawURL { url = store.string(field) }
                sawURL = true
            } else if let rank = store.urlRanks[Int(field.key)] {
                numbered.append((rank, store.string(field)))
            }
        }
        return Entry.candidateURLs(url: url, additional: numbered)
    }
}

extension IndexedCredential: SearchableEntry {
    /// Title, user name, URL and tags, folded for search (computed on demand, not stored).
    public var searchKeys: [String] {
        var keys = [title, userName, url]
        keys.append(contentsOf: tags)
        return keys.map(SearchFolding.fold)
    }
}
