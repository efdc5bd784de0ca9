import MyPassKDBX

/// The AutoFill view of a vault: the entries the unfiltered list shows (current entries of
/// searchable groups; never history items, never the recycle bin), each reduced to an
/// ``IndexedCredential``. Built by one streaming pass over the payload
/// (``CredentialIndex/open(_:key:cachedKey:options:)``) that checks and skips attachments,
/// history, custom icon images and unknown XML without keeping them.
///
/// ``CredentialMatcher`` and ``EntryList/searchResults(_:searchText:)`` run on it and give what
/// they give on the full model's `Vault.flatEntries` (through ``EntryList/displayedEntries(_:filter:searchText:)``
/// without a group filter).
public struct CredentialIndex: Sendable {
    /// The credentials in the full model's list order.
    public let credentials: [IndexedCredential]
    /// What the reading skipped.
    public let skipped: Skipped
    /// The records and their strings, shared by every credential.
    let store: CredentialIndexStorage

    /// Counts of what was read past and not kept.
    public struct Skipped: Sendable, Equatable {
        /// History items.
        public let historyItems: Int
        /// Attachment content bytes as stored (KDBX 4 inner header binaries; 3.x XML binaries
        /// after base64, still gzip-compressed where `Compressed="True"`: they are not inflated).
        public let attachmentBytes: Int
        /// Base64 characters of custom icon images.
        public let customIconCharacters: Int
        /// String fields not kept (notes, custom fields, history items' fields).
        public let fields: Int
        /// Unknown XML elements (whole subtrees).
        public let unknownElements: Int
        /// Current entries left out: in the recycle bin or in a group with searching disabled.
        public let unsearchableEntries: Int
        /// Decompressed payload bytes streamed through (inner header and XML).
        public let contentBytes: Int
    }

    /// The string fields an index keeps: the standard ones but `Notes`, the `KP2A_URL*` fields
    /// and every OTP field name (``OTPFieldNames``).
    static let fieldSelection = CredentialSkim.FieldSelection(
        names: [Entry.StandardField.title, Entry.StandardField.userName, Entry.StandardField.password,
                Entry.StandardField.url, OTPFieldNames.otp, OTPFieldNames.legacySeed, OTPFieldNames.legacySettings,
                OTPFieldNames.timeSecret, OTPFieldNames.timeSecretHex, OTPFieldNames.timeSecretBase32,
                OTPFieldNames.timeSecretBase64, OTPFieldNames.timeLength, OTPFieldNames.timePeriod,
                OTPFieldNames.timeAlgorithm, OTPFieldNames.hmacSecret, OTPFieldNames.hmacSecretHex,
                OTPFieldNames.hmacSecretBase32, OTPFieldNames.hmacSecretBase64, OTPFieldNames.hmacCounter],
        prefixes: ["KP2A_URL"])

    /// The index of a skimmed body: breadcrumbs and the searchable rule from the group tree
    /// (as ``Vault/flatEntries``), the recycle bin and unsearchable groups left out.
    init(skim: CredentialSkim) {
        let bin = skim.recycleBinUUID
        var searchable = [Bool](repeating: true, count: skim.groups.count)
        var paths = [[String]](repeating: [], count: skim.groups.count)
        for (index, group) in skim.groups.enumerated() {
            // Groups are in pre-order: a parent always comes before its children.
            let inherited = group.parent.map { searchable[$0] } ?? (group.enableSearching ?? true)
            searchable[index] = group.uuid == bin && !bin.isZero ? false : (group.enableSearching ?? inherited)
            if let parent = group.parent { paths[index] = paths[parent] + [group.name] }
        }
        let store = CredentialIndexStorage(skim: skim, breadcrumbs: paths)
        var kept: [IndexedCredential] = []
        kept.reserveCapacity(skim.records.count)
        for (position, record) in skim.records.enumerated() where searchable[Int(record.group)] {
            kept.append(IndexedCredential(store: store, position: Int32(position)))
        }
        credentials = kept
        self.store = store
        let s = skim.skipped
        skipped = Skipped(
            historyItems: s.historyItems, attachmentBytes: s.innerHeaderBinaryBytes + s.xmlBinaryBytes,
            customIconCharacters: s.customIconCharacters, fields: s.fields, unknownElements: s.unknownElements,
            unsearchableEntries: skim.records.count - kept.count, contentBytes: skim.contentBytes)
    }

    /// The credentials whose title, user name, URL or a tag contains `searchText` (case and
    /// diacritics ignored), in order; all of them for an empty text.
    public func search(_ searchText: String) -> [IndexedCredential] {
        EntryList.searchResults(credentials, searchText: searchText)
    }

    /// An estimate of the memory the index holds, in bytes: the credential list, the records,
    /// field and tag tables (their capacity), both string buffers of the arena (their capacity),
    /// the groups and breadcrumbs.
    public var estimatedBytes: Int {
        credentials.capacity * MemoryLayout<IndexedCredential>.stride + store.estimatedBytes
    }
}
