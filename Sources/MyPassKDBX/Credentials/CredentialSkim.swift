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

    /// One current entry, reduced.
    package struct Record: Sendable {
        /// `UUID` (a fresh random one when missing, as the full reader).
        package var uuid: KDBXUUID
        /// Index of the entry's group in ``CredentialSkim/groups``.
        package var group: Int
        /// `IconID`.
        package var iconID: Int
        /// `CustomIconUUID`.
        package var customIconUUID: KDBXUUID?
        /// `OverrideURL`.
        package var overrideURL: String
        /// `Tags`.
        package var tags: [String]
        /// The kept string fields (see ``CredentialSkim/FieldSelection``), in stored order, the
        /// last value for a key winning as in the full reader; protected ones stay protected.
        package var fields: [EntryField]
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
    /// `Meta/RecycleBinUUID` (zero: none).
    package var recycleBinUUID: KDBXUUID = .zero
    /// What was skipped.
    package var skipped = Skipped()
    /// Decompressed payload bytes read (inner header and XML).
    package var contentBytes = 0
    /// The largest piece of the file held at once: an HMAC block (4.x) or one read (3.x), in bytes.
    package var largestBlockBytes = 0
}
