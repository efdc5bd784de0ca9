import MyPassKDBX

/// Bitwarden's unencrypted JSON export (Tools > Export vault > .json; `bw export --format json`):
/// `{"encrypted": false, "folders": [{"id", "name"}], "items": [...]}`. Each item has `type` 1
/// login, 2 secure note, 3 card, 4 identity; `name`, `notes`, `folderId`, `favorite`, `fields`
/// (`name`, `value`, `type` 0 text, 1 hidden, 2 boolean, 3 linked), and per type `login`
/// (`username`, `password`, `totp`, `uris: [{"uri", "match"}]`), `card`, `identity`.
///
/// Mapping: a folder is a group (`A/B` nests, as Bitwarden shows it); login fields go to the
/// standard fields, the first URI to URL and the others to `KP2A_URL_1`, `KP2A_URL_2`…
/// (KeePass2Android's and KeePassXC's extra-URL fields); TOTP to `otp` (a bare secret becomes an
/// `otpauth://` URI); custom fields keep their names, hidden ones protected, linked ones hold the
/// name of the field they point to; card and identity values become custom fields
/// (`Card Number`, `Card Code`... protected where secret); favorites get the tag `Favorite`; a
/// login's passkeys (`fido2Credentials`) go into KeePassXC's passkey fields (`KPEX_PASSKEY_*`),
/// and the ones that cannot be are named in warnings.
public enum BitwardenJSON {
    /// Reads an export into a tree (see the type's description).
    /// - Parameters:
    ///   - bytes: the JSON file.
    ///   - now: times for new groups, and for items without dates.
    /// - Returns: the tree, and one warning per passkey left out or changed (naming the item and
    ///   the line), in the file's order.
    /// - Throws: ``CoreError`` `.invalidImport` with a line: broken JSON, an encrypted export,
    ///   missing `items`, a folder id given twice or an item in a folder that is not there, an item
    ///   without a name or of an unknown type, two custom fields of one item with the same name.
    public static func read(_ bytes: [UInt8], now: KDBXTime) throws(CoreError) -> (root: Group, warnings: [String]) {
        let json = try ImportJSON(parsing: bytes)
        guard case .object = json else { throw CoreError(.invalidImport, "a Bitwarden export is a JSON object", location: "line 1") }
        if json["encrypted"]?.bool == true {
            throw CoreError(.invalidImport, "this is an encrypted (password-protected) export; export it unencrypted", location: "line 1")
        }
        guard let items = json["items"]?.array else {
            throw CoreError(.invalidImport, "no \"items\" array: not a Bitwarden JSON export", location: "line 1")
        }
        var builder = ImportTreeBuilder(now: now)
        var warnings: [String] = []
        let folderList = try paths(json["folders"], what: "folder")
        for folder in folderList { builder.ensure(folder.path) }
        let folders = Dictionary(uniqueKeysWithValues: folderList.map { ($0.id, $0.path) })
        // An organisation's export has collections instead of folders (`A/B` nests as well).
        let collections = Dictionary(uniqueKeysWithValues: try paths(json["collections"], what: "collection").map { ($0.id, $0.path) })
        for item in items {
            let line = item.line
            var path: [String] = []
            if let folderID = item["folderId"]?.string {
                guard let found = folders[folderID] else {
                    throw CoreError(.invalidImport, "an item in folder '\(folderID)', which is not in \"folders\"", location: "line \(line)")
                }
                path = found
            } else if let collectionID = item["collectionIds"]?.array?.first?.string {
                // An item in several collections goes to the first: an entry has one group.
                guard let found = collections[collectionID] else {
                    throw CoreError(.invalidImport, "an item in collection '\(collectionID)', which is not in \"collections\"", location: "line \(line)")
                }
                path = found
            }
            builder.add(try entry(item, line: line, now: now, warnings: &warnings), at: path)
        }
        return (builder.root, warnings)
    }

    /// The ids of a `folders` or `collections` array with their group paths (`name`, `A/B`
    /// nesting), in the file's order.
    /// - Throws: ``CoreError/Code/invalidImport`` for a member without an id or a name, or an id given twice.
    static func paths(_ list: ImportJSON?, what: String) throws(CoreError) -> [(id: String, path: [String])] {
        var paths: [(id: String, path: [String])] = []
        var seen: Set<String> = []
        for member in list?.array ?? [] {
            let line = member.line
            guard let id = member["id"]?.string, let name = member["name"]?.string else {
                throw CoreError(.invalidImport, "a \(what) without an id or a name", location: "line \(line)")
            }
            guard seen.insert(id).inserted else {
                throw CoreError(.invalidImport, "the \(what) id '\(id)' appears twice", location: "line \(line)")
            }
            paths.append((id, name.split(separator: "/", omittingEmptySubsequences: true).map(String.init)))
        }
        return paths
    }

    static func entry(_ item: ImportJSON, line: Int, now: KDBXTime, warnings: inout [String]) throws(CoreError) -> Entry {
        guard let name = item["name"]?.string else { throw CoreError(.invalidImport, "an item without a name", location: "line \(line)") }
        guard let type = item["type"]?.number, [1, 2, 3, 4, 5].contains(type) else {
            throw CoreError(.invalidImport, "item '\(name)' has an unknown type (1 login, 2 note, 3 card, 4 identity, 5 SSH key)", location: "line \(line)")
        }
        var entry = ImportTreeBuilder.newEntry(now: now)
        entry.setValue(name, for: Entry.StandardField.title)
        entry.setValue(item["notes"]?.string ?? "", for: Entry.StandardField.notes)
        if item["favorite"]?.bool == true { entry.tags = ["Favorite"] }
        if let revised = item["revisionDate"]?.string.flatMap(isoTime) { entry.times = Times(all: revised) }
        if let created = item["creationDate"]?.string.flatMap(isoTime) { entry.times.creation = created }
        func custom(_ key: String, _ value: String, protected: Bool) throws(CoreError) {
            guard !value.isEmpty else { return }
            guard entry.field(named: key) == nil else {
                throw CoreError(.invalidImport, "item '\(name)' has two fields named '\(key)'", location: "line \(line)")
            }
            entry.setValue(value, for: key, isProtected: protected)
        }
        switch type {
        case 1:
            let login = item["login"]
            entry.setValue(login?["username"]?.string ?? "", for: Entry.StandardField.userName)
            entry.setValue(login?["password"]?.string ?? "", for: Entry.StandardField.password, isProtected: true)
            let uris = (login?["uris"]?.array ?? []).compactMap { $0["uri"]?.string }.filter { !$0.isEmpty }
            entry.setValue(uris.first ?? "", for: Entry.StandardField.url)
            for (number, uri) in uris.dropFirst().enumerated() { try custom("KP2A_URL_\(number + 1)", uri, protected: false) }
            if let totp = login?["totp"]?.string, !totp.isEmpty {
                let uri = totp.lowercased().hasPrefix("otpauth://") || totp.lowercased().hasPrefix("steam://") ? totp
                    : "otpauth://totp/\(KeePassXCCSV.percentEncoded(name)):\(KeePassXCCSV.percentEncoded(entry.userName))?secret="
                        + totp.filter { !$0.isWhitespace }.uppercased() + "&period=30&digits=6&issuer=\(KeePassXCCSV.percentEncoded(name))"
                entry.setValue(uri, for: OTPFieldNames.otp, isProtected: true)
            }
            if let credentials = login?["fido2Credentials"]?.array, !credentials.isEmpty {
                addPasskeys(credentials, to: &entry, name: name, warnings: &warnings)
            }
        case 3:
            let card = item["card"]
            for (key, label, secret) in [("cardholderName", "Card Holder", false), ("brand", "Card Brand", false), ("number", "Card Number", true),
                                         ("expMonth", "Card Expiry Month", false), ("expYear", "Card Expiry Year", false), ("code", "Card Code", true)] {
                try custom(label, card?[key]?.string ?? "", protected: secret)
            }
        case 4:
            if case .object(let members, _)? = item["identity"] {
                for (key, value) in members {
                    let secret = ["ssn", "passportNumber", "licenseNumber"].contains(key)
                    try custom("Identity " + key, value.string ?? "", protected: secret)
                }
            }
        case 5:
            let key = item["sshKey"]
            for (member, label, secret) in [("privateKey", "SSH Private Key", true), ("publicKey", "SSH Public Key", false),
                                            ("keyFingerprint", "SSH Key Fingerprint", false)] {
                try custom(label, key?[member]?.string ?? "", protected: secret)
            }
        default:
            break
        }
        for field in item["fields"]?.array ?? [] {
            guard let key = field["name"]?.string, !key.isEmpty else { continue }
            let kind = field["type"]?.number ?? 0
            var value = field["value"]?.string ?? (field["value"]?.bool.map { $0 ? "true" : "false" }) ?? ""
            if kind == 3 {
                // Linked: 100 user name, 101 password (Bitwarden's LinkedId for logins).
                let linked = field["linkedId"]?.number
                value = linked == 100 ? "{USERNAME}" : linked == 101 ? "{PASSWORD}" : value
            }
            if Entry.StandardField.all.contains(key) {
                throw CoreError(.invalidImport, "item '\(name)' has a custom field named like the standard field '\(key)'", location: "line \(field.line)")
            }
            guard entry.field(named: key) == nil else {
                throw CoreError(.invalidImport, "item '\(name)' has two fields named '\(key)'", location: "line \(field.line)")
            }
            entry.setValue(value, for: key, isProtected: kind == 1)
        }
        // Earlier passwords become history items, oldest first, as KeePass keeps them: the entry
        // as it is, with that password, last modified when Bitwarden says it was replaced.
        var history: [Entry] = []
        for old in item["passwordHistory"]?.array ?? [] {
            guard let password = old["password"]?.string else { continue }
            var version = entry
            version.setValue(password, for: Entry.StandardField.password, isProtected: true)
            if let used = old["lastUsedDate"]?.string.flatMap(isoTime) { version.times.lastModification = used }
            history.append(version)
        }
        entry.history = history.sorted { $0.times.lastModification < $1.times.lastModification }
        return entry
    }

    /// `2024-01-31T12:34:56.789Z` (fractions dropped).
    static func isoTime(_ text: String) -> KDBXTime? {
        if let time = KDBXTime(iso8601: text) { return time }
        guard let dot = text.firstIndex(of: "."), text.hasSuffix("Z") else { return nil }
        return KDBXTime(iso8601: text[..<dot] + "Z")
    }
}

