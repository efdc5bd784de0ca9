/// What the credential reader keeps of a vault body: the group tree without entries, and for each
/// current entry (not history) only what AutoFill shows and fills. Attachments, history items,
/// custom icon images, times, auto-type, custom data and unknown elements are checked and skipped.
package struct CredentialSkim: Sendable {
    /// One group: its identity, name, parent and search setting (for breadcrumbs, the recycle bin
    /// and the list's searchable rule).
    package struct Group: Sendable {
        /// `UUID` (a fresh random one when missing, as the full reader).
        package var uuid: KDBXUUID
        /// `Name`.
        package var name: String
        /// Index of the parent in ``CredentialSkim/groups``; `nil` for the root group.
        package var parent: Int?
        /// `EnableSearching` (`nil`: inherit).
        package var enableSearching: Bool?
    }

    /// One kept string field: its interned name and where its value is.
    package struct Field: Sendable {
        /// Index of the name in ``CredentialSkim/keys``.
        package var key: UInt32
        /// Whether the value is in the arena's masked secret buffer (`Protected="True"` or a
        /// `ProtectInMemory` field, as the full model keeps it in a ``ProtectedString``).
        package var isSecret: Bool
        /// The value's bytes in the arena.
        package var value: CredentialArena.Range
    }

    /// One current entry, reduced: fixed-size, its strings in ``CredentialSkim/arena``.
    package struct Record: Sendable {
        /// `UUID` (a fresh random one when missing, as the full reader).
        package var uuid: KDBXUUID
        /// Index of the entry's group in ``CredentialSkim/groups``.
        package var group: Int32
        /// `IconID`.
        package var iconID: Int32
        /// `CustomIconUUID`.
        package var customIconUUID: KDBXUUID?
        /// `OverrideURL` (arena text).
        package var overrideURL: CredentialArena.Range
        /// The entry's `Tags`: a range of ``CredentialSkim/tags``.
        package var tags: Swift.Range<UInt32>
        /// The kept string fields (see ``CredentialSkim/FieldSelection``): a range of
        /// ``CredentialSkim/fields``, in stored order, the last value for a key winning as in the
        /// full reader.
        package var fields: Swift.Range<UInt32>
    }

    /// Which string fields of an entry are kept: exact names and name prefixes.
    package struct FieldSelection: Sendable {
        /// Field names kept as they are (`Title`, `UserName`, `Password`, `URL`, OTP fields).
        package var names: Set<String>
        /// Name prefixes kept (`KP2A_URL`).
        package var prefixes: [String]

        /// A selection of `names` and `prefixes`.
        package init(names: Set<String>, prefixes: [String]) {
            self.names = names
            self.prefixes = prefixes
        }

        /// Whether field `key` is kept.
        package func keeps(_ key: String) -> Bool {
            names.contains(key) || prefixes.contains(where: { key.hasPrefix($0) })
        }
    }

    /// The start of the reason of the `.limitExceeded` error a reader with a bound on its kept
    /// memory throws (the AutoFill index maps it to its memory budget error).
    package static let keptBytesLimitReason = "the index of the vault's entries would pass its memory bound"

    /// An upper bound, in bytes, of the memory the kept tables take at their peak once `records`
    /// records, `fields` fields, `tags` tags and `arenaBytes` arena bytes more are appended: each
    /// table at its capacity after growth (doubling), plus its old buffer while it is copied;
    /// the records once more with an index each for the reordering at the end, and 16 bytes each
    /// for the AutoFill index's list of them; both arena
    /// buffers at their capacity plus `arenaBytes` twice over (growth); the groups.
    package func peakBytes(addingRecords records: Int, fields: Int, tags: Int, arenaBytes: Int) -> Int {
        func grown<T>(_ table: [T], adding: Int) -> Int {
            let needed = table.count + adding
            guard needed > table.capacity else { return table.capacity * MemoryLayout<T>.stride }
            return (table.capacity + max(2 * table.capacity, needed)) * MemoryLayout<T>.stride
        }
        var total = grown(self.records, adding: records)
        // The reordering's copy and index per record, and the index's 16-byte credential per record.
        total += (self.records.count + records) * (MemoryLayout<Record>.stride + MemoryLayout<Int>.stride + 16)
        total += grown(self.fields, adding: fields)
        total += grown(self.tags, adding: tags)
        total += arena.capacityBytes + 2 * arenaBytes
        total += groups.count * MemoryLayout<Group>.stride
        return total
    }

    /// Index of `Title` in ``keys``.
    package static let titleKey: UInt32 = 0
    /// Index of `UserName` in ``keys``.
    package static let userNameKey: UInt32 = 1
    /// Index of `Password` in ``keys``.
    package static let passwordKey: UInt32 = 2
    /// Index of `URL` in ``keys``.
    package static let urlKey: UInt32 = 3

    /// The index of field name `key` in ``keys``, adding it when new.
    package mutating func intern(_ key: String) -> UInt32 {
        if let index = keyIndex[key] { return index }
        let index = UInt32(keys.count)
        keys.append(key)
        keyIndex[key] = index
        return index
    }

    /// What was skipped, in counts and bytes (for the benchmark's account of where memory went).
    package struct Skipped: Sendable, Equatable {
        /// History items (`Entry` inside `History`).
        package var historyItems = 0
        /// Bytes of KDBX 4 inner header binaries (attachments), never buffered.
        package var innerHeaderBinaryBytes = 0
        /// Decoded bytes of XML binaries (3.x `Meta/Binaries` and inline attachment values).
        package var xmlBinaryBytes = 0
        /// Base64 characters of custom icon images.
        package var customIconCharacters = 0
        /// String fields not kept (notes, custom fields, fields of history items).
        package var fields = 0
        /// Unknown elements (whole subtrees).
        package var unknownElements = 0
    }

    /// The groups in pre-order (document order of their start tags); the root is index 0.
    package var groups: [Group] = []
    /// The current entries in the full model's order: group by group in pre-order, stored order
    /// within a group.
    package var records: [Record] = []
    /// The kept fields of every record, record by record (``Record/fields`` ranges).
    package var fields: [Field] = []
    /// The tags of every record, as arena text (``Record/tags`` ranges).
    package var tags: [CredentialArena.Range] = []
    /// The field names, each once: `Title`, `UserName`, `Password`, `URL` at indices 0 to 3
    /// (``titleKey`` ...), others in the order first seen.
    package private(set) var keys: [String] = ["Title", "UserName", "Password", "URL"]
    /// Index of each name in ``keys``.
    package private(set) var keyIndex: [String: UInt32] = ["Title": 0, "UserName": 1, "Password": 2, "URL": 3]
    /// Every kept string value.
    package var arena = CredentialArena()
    /// `Meta/RecycleBinUUID` (zero: none).
    package var recycleBinUUID: KDBXUUID = .zero
    /// What was skipped.
    package var skipped = Skipped()
    /// Decompressed payload bytes read (inner header and XML).
    package var contentBytes = 0
    /// The largest piece of the file held at once: an HMAC block (4.x) or one read (3.x), in bytes.
    package var largestBlockBytes = 0
}
