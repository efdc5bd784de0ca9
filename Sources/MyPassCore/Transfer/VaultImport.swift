import MyPassBytes
import MyPassKDBX

/// Bringing entries in from another password manager's export: parsed into a group tree, then
/// added to a vault as one new group, or made into a new vault.
public enum VaultImport {
    /// The formats read.
    public enum Format: String, Sendable, CaseIterable {
        /// KeePass 2's plain XML export (File > Export > KeePass XML (2.x)): the inner XML of a
        /// vault, protected values in clear.
        case keePassXML = "keepass-xml"
        /// KeePassXC's CSV (``KeePassXCCSV``).
        case keePassXCCSV = "keepassxc-csv"
        /// Bitwarden's unencrypted JSON export (``BitwardenJSON``).
        case bitwardenJSON = "bitwarden-json"
    }

    /// Largest file imported, in bytes (256 MiB).
    public static let maxFileBytes = 256 << 20

    /// What an import read: a tree of groups and entries (the root's name is empty) and, for a
    /// KeePass XML export, its meta (database name, memory protection, custom icons...).
    public struct Contents: Sendable {
        /// The imported groups and entries below an unnamed root.
        public var root: Group
        /// The exported vault's meta (KeePass XML only).
        public var meta: Meta?
        /// The exported vault's deleted objects (KeePass XML only).
        public var deletedObjects: [DeletedObject]
        /// What was read but could not be kept as it was, one sentence each naming the item (a
        /// Bitwarden passkey left out); the import itself went through.
        public var warnings: [String] = []
    }

    /// Parses a file.
    /// - Parameters:
    ///   - bytes: the whole file (at most ``maxFileBytes``).
    ///   - format: its format.
    ///   - now: times for new groups and missing times.
    /// - Throws: ``CoreError`` `.invalidImport` naming the line (see each format), `.limitExceeded`
    ///   for a file over ``maxFileBytes``.
    public static func read(_ bytes: [UInt8], format: Format, now: KDBXTime) throws(CoreError) -> Contents {
        guard bytes.count <= maxFileBytes else {
            throw CoreError(.limitExceeded, "an import file is at most \(maxFileBytes >> 20) MiB")
        }
        switch format {
        case .keePassXCCSV:
            guard let text = String(validatingUTF8Bytes: bytes) else {
                throw CoreError(.invalidImport, "the file is not UTF-8 text", location: "line \(firstInvalidLine(bytes))")
            }
            return Contents(root: try KeePassXCCSV.read(text, now: now), meta: nil, deletedObjects: [])
        case .bitwardenJSON:
            let (root, warnings) = try BitwardenJSON.read(bytes, now: now)
            return Contents(root: root, meta: nil, deletedObjects: [], warnings: warnings)
        case .keePassXML:
            var stream = ClearStream()
            let body: VaultBody
            do throws(KDBXError) {
                body = try VaultXMLReader.read(bytes, version: .v4_1, stream: &stream)
            } catch {
                throw CoreError(.invalidImport, "not a KeePass XML export: \(error.reason)", location: error.location)
            }
            return Contents(root: body.root, meta: body.meta, deletedObjects: body.deletedObjects)
        }
    }

    /// The line holding the first byte that is not UTF-8.
    static func firstInvalidLine(_ bytes: [UInt8]) -> Int {
        var low = 0, high = bytes.count
        while low < high {
            let middle = (low + high) / 2
            if String(validatingUTF8Bytes: bytes[..<middle]) != nil { low = middle + 1 } else { high = middle }
        }
        return 1 + bytes[..<max(0, low - 4)].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }

    /// The protected values of a plain XML export are in clear: nothing to unmask.
    struct ClearStream: ProtectedValueStream {
        mutating func apply(to bytes: inout [UInt8]) {}
    }
}

extension Vault {
    /// Adds imported contents as a new group `name` under the root (KeePass's and KeePassXC's
    /// import into an open database). UUIDs already in the vault get fresh ones, so that
    /// importing a file twice, or a vault's own export, never makes two objects with one UUID; a
    /// KeePass XML export's custom icons come along.
    ///
    /// - Returns: the new group's UUID.
    /// - Throws: ``CoreError`` `.invalidImport` when the root already has a group named `name`
    ///   (nothing was changed), `.invalidOperation` for an empty name.
    @discardableResult
    public mutating func addImported(_ contents: VaultImport.Contents, asGroupNamed name: String, now: KDBXTime) throws(CoreError) -> KDBXUUID {
        guard !name.isEmpty else { throw CoreError(.invalidOperation, "the import group needs a name") }
        guard !root.groups.contains(where: { $0.name == name }) else {
            throw CoreError(.invalidImport, "the vault already has a group named '\(name)' (a duplicate name); rename the file or that group, or import under another group name",
                            location: name)
        }
        var group = contents.root
        group.name = name
        group.times = Times(all: now)
        if group.iconID == 49 { group.iconID = 48 }
        var taken = Set<KDBXUUID>()
        root.forEachGroup { existing, _ in
            taken.insert(existing.uuid)
            for entry in existing.entries { taken.insert(entry.uuid) }
        }
        Self.renewTakenUUIDs(&group, taken: &taken)
        if let meta = contents.meta {
            for icon in meta.customIcons where meta.customIcon(withUUID: icon.uuid) != nil && customIcon(icon.uuid) == nil {
                self.meta.customIcons.append(icon)
            }
        }
        root.groups.append(group)
        return group.uuid
    }

    private func customIcon(_ uuid: KDBXUUID) -> CustomIcon? { meta.customIcon(withUUID: uuid) }

    private static func renewTakenUUIDs(_ group: inout Group, taken: inout Set<KDBXUUID>) {
        if taken.contains(group.uuid) { group.uuid = .random() }
        taken.insert(group.uuid)
        for index in group.entries.indices where taken.contains(group.entries[index].uuid) {
            let fresh = KDBXUUID.random()
            group.entries[index].uuid = fresh
            for h in group.entries[index].history.indices { group.entries[index].history[h].uuid = fresh }
        }
        for entry in group.entries { taken.insert(entry.uuid) }
        for index in group.groups.indices { renewTakenUUIDs(&group.groups[index], taken: &taken) }
    }
}
