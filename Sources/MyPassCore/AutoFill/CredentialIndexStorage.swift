import MyPassKDBX

/// The storage behind a ``CredentialIndex``: the skim's fixed-size records, field and tag tables
/// and string arena, plus each group's breadcrumb, shared (never copied) by every
/// ``IndexedCredential``. Immutable once built.
final class CredentialIndexStorage: Sendable {
    let skim: CredentialSkim
    /// The breadcrumb of each group of ``CredentialSkim/groups`` (names without the root).
    let breadcrumbs: [[String]]
    /// For each name of ``CredentialSkim/keys``: its rank among the additional URL fields
    /// (`KP2A_URL` 0, `KP2A_URL_n` n + 1), `nil` for other fields.
    let urlRanks: [Int?]

    init(skim: CredentialSkim, breadcrumbs: [[String]]) {
        self.skim = skim
        self.breadcrumbs = breadcrumbs
        urlRanks = skim.keys.map(Entry.additionalURLRank)
    }

    /// The record at `position`.
    func record(_ position: Int32) -> CredentialSkim.Record { skim.records[Int(position)] }

    /// The field named by key index `key` of the record at `position`, or `nil`.
    func field(_ position: Int32, key: UInt32) -> CredentialSkim.Field? {
        let range = skim.records[Int(position)].fields
        for index in Int(range.lowerBound)..<Int(range.upperBound) where skim.fields[index].key == key {
            return skim.fields[index]
        }
        return nil
    }

    /// A field's value as clear text (revealing a secret one: where it is really shown or used).
    func string(_ field: CredentialSkim.Field) -> String {
        guard field.value.count > 0 else { return "" }
        if field.isSecret { return skim.arena.withRevealedSecret(field.value) { String(decoding: $0, as: UTF8.self) } }
        return skim.arena.string(field.value)
    }

    /// A field's value as a ``ProtectedString`` (masked afresh: only for a value being filled).
    func protectedString(_ field: CredentialSkim.Field) -> ProtectedString {
        guard field.value.count > 0 else { return ProtectedString() }
        if field.isSecret { return skim.arena.withRevealedSecret(field.value) { ProtectedString(utf8Bytes: $0) } }
        return skim.arena.withText(field.value) { ProtectedString(utf8Bytes: $0) }
    }

    /// A field as the full model's ``EntryField`` (secret ones protected).
    func entryField(_ field: CredentialSkim.Field) -> EntryField {
        let key = skim.keys[Int(field.key)]
        return field.isSecret ? EntryField(key: key, protectedValue: protectedString(field))
            : EntryField(key: key, value: skim.arena.string(field.value))
    }

    /// Memory held, in bytes (capacities of the tables and of both arena buffers; breadcrumbs
    /// and keys at their UTF-8 size plus a string header each).
    var estimatedBytes: Int {
        var total = skim.records.capacity * MemoryLayout<CredentialSkim.Record>.stride
        total += skim.fields.capacity * MemoryLayout<CredentialSkim.Field>.stride
        total += skim.tags.capacity * MemoryLayout<CredentialArena.Range>.stride
        total += skim.arena.capacityBytes
        total += skim.groups.count * MemoryLayout<CredentialSkim.Group>.stride
        for path in breadcrumbs { total += 32 + path.reduce(0) { $0 + 16 + $1.utf8.count } }
        total += skim.keys.reduce(0) { $0 + 32 + $1.utf8.count }
        return total
    }
}
