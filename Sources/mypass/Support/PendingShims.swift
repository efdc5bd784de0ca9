// TEMPORARY stand-ins for APIs that kdbx-container and core are writing in parallel, following
// CONTRACTS.md, so that the CLI compiles and its output code can be written. Deleted when the
// real modules are merged.
import Foundation
import MyPassBytes
import MyPassKDBX

struct CompositeKey: Sendable {
    init(password: ProtectedString?, keyFileContents: [UInt8]?) throws(KDBXError) {}
}

enum KDBXCodec {
    static func open(_ file: [UInt8], key: CompositeKey) throws(KDBXError) -> Vault {
        throw KDBXError(.unsupported, "codec not merged yet")
    }
}

enum SafeVaultWriter {
    static func save(_ vault: Vault, key: CompositeKey, to url: URL) throws {
        throw KDBXError(.io, "safe save not merged yet")
    }
}

import MyPassCore

/// Stand-in for core's flat list + group filter + search (`displayedEntries`).
enum PendingListing {
    static func displayed(in vault: Vault, selectedGroups: Set<KDBXUUID>, search: String) -> [LocatedEntry] {
        vault.locatedEntries.filter { selectedGroups.isEmpty || selectedGroups.contains($0.groupUUID) }
            .filter { search.isEmpty || $0.entry.title.localizedCaseInsensitiveContains(search) }
    }
    static func subtree(of group: Group) -> Set<KDBXUUID> { Set(group.allGroups.map(\.uuid)) }
}



/// Stand-in for core's editing operations (history, recycle bin, times).
enum PendingEditing {
    static func newEntry(in vault: Vault, now: KDBXTime) -> Entry {
        var entry = Entry(uuid: .random(), times: .created(at: now))
        for key in Entry.StandardField.all { entry.setValue("", for: key, isProtected: vault.meta.memoryProtection.protects(key)) }
        entry.userName = vault.meta.defaultUserName
        return entry
    }
    static func add(_ entry: Entry, to group: KDBXUUID, in vault: inout Vault, now: KDBXTime) throws {
        vault.root.modifyGroup(withUUID: group) { $0.entries.append(entry) }
    }
    static func update(_ uuid: KDBXUUID, in vault: inout Vault, now: KDBXTime, _ body: (inout Entry) throws -> Void) throws {
        try vault.root.modifyEntry(withUUID: uuid) { try body(&$0) }
    }
    /// Returns true when the entry went to the recycle bin, false when deleted for good.
    static func delete(_ uuid: KDBXUUID, permanently: Bool, in vault: inout Vault, now: KDBXTime) throws -> Bool {
        vault.root.removeEntry(withUUID: uuid)
        return false
    }
    static func move(_ uuid: KDBXUUID, to group: KDBXUUID, in vault: inout Vault, now: KDBXTime) throws {
        guard let entry = vault.root.removeEntry(withUUID: uuid) else { return }
        vault.root.modifyGroup(withUUID: group) { $0.entries.append(entry) }
    }
    static func addGroup(named name: String, to parent: KDBXUUID, in vault: inout Vault, now: KDBXTime) throws -> Group {
        let group = Group(uuid: .random(), name: name, times: .created(at: now))
        vault.root.modifyGroup(withUUID: parent) { $0.groups.append(group) }
        return group
    }
    static func deleteGroup(_ uuid: KDBXUUID, permanently: Bool, in vault: inout Vault, now: KDBXTime) throws -> Bool {
        vault.root.removeGroup(withUUID: uuid)
        return false
    }
}

