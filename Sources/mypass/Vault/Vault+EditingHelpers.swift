import Foundation
import MyPassCore
import MyPassKDBX

/// The current time as a KDBX time stamp (seconds precision).
func currentTime() -> KDBXTime { KDBXTime(unixSeconds: Int64(Date().timeIntervalSince1970)) }

extension Vault {
    /// A new entry as KeePass makes one: the five standard fields, protected as the vault's memory
    /// protection says, and the vault's default user name.
    func newEntry() -> Entry {
        var entry = Entry(uuid: .random())
        for key in Entry.StandardField.all {
            entry.setValue("", for: key, isProtected: meta.memoryProtection.protects(key))
        }
        entry.setValue(meta.defaultUserName, for: Entry.StandardField.userName)
        return entry
    }

    /// Deletes with core's KeePass rules, or for good when `permanently` (the recycle bin is
    /// bypassed for this one deletion and the deleted objects are recorded all the same).
    mutating func delete(permanently: Bool, _ body: (inout Vault) throws(CoreError) -> DeletionOutcome) throws(CoreError) -> DeletionOutcome {
        guard permanently && meta.recycleBinEnabled else { return try body(&self) }
        meta.recycleBinEnabled = false
        defer { meta.recycleBinEnabled = true }
        return try body(&self)
    }
}
