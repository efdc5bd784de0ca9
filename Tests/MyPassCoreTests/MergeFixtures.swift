import MyPassBytes
import MyPassCore
import MyPassKDBX

/// Times for merge scenarios: `MergeTimes.t(n)` is `n` minutes after the base vault was made.
enum MergeTimes {
    static let base = KDBXTime(year: 2026, month: 3, day: 1, hour: 12)!
    static func t(_ minutes: Int64) -> KDBXTime { KDBXTime(secondsSinceEpoch: base.secondsSinceEpoch + minutes * 60) }
}

/// A base vault for merge scenarios, with fixed UUIDs (so that two runs make the same vault) and
/// every time stamp ``MergeTimes/base``; copies of it are edited with later times.
///
/// ```
/// Root                      entries "A", "B"
/// ├─ Work                   entries "GitHub", "Jira", "Wiki"
/// │  └─ Email               entry "Mail"
/// ├─ Personal               entries "Bank", "Shop"
/// └─ Recycle Bin            entry "Old"
/// ```
/// The recycle bin is disabled in ``vault`` (so deletes are permanent and leave deleted objects).
struct MergeBase {
    var vault: Vault

    static func uuid(_ n: UInt64) -> KDBXUUID { KDBXUUID(high: 0x6d65_7267_6500_0000 | n, low: n &* 0x9e37_79b9) }

    init() {
        let t0 = MergeTimes.base
        var n: UInt64 = 0
        func next() -> KDBXUUID { n += 1; return MergeBase.uuid(n) }
        func group(_ name: String) -> Group { Group(uuid: next(), name: name, times: Times(all: t0)) }
        func entry(_ title: String) -> Entry {
            var e = Entry(uuid: next(), times: Times(all: t0))
            e.title = title
            e.userName = title.lowercased()
            e.password = ProtectedString("pw-" + title)
            e.url = "https://" + title.lowercased() + ".example/"
            e.notes = ""
            return e
        }
        vault = Vault.new(name: "Root", now: t0)
        vault.root.uuid = next()
        var work = group("Work")
        var email = group("Email")
        email.entries = [entry("Mail")]
        work.entries = [entry("GitHub"), entry("Jira"), entry("Wiki")]
        work.groups = [email]
        var personal = group("Personal")
        personal.entries = [entry("Bank"), entry("Shop")]
        var bin = group("Recycle Bin")
        bin.iconID = 43
        bin.entries = [entry("Old")]
        vault.root.entries = [entry("A"), entry("B")]
        vault.root.groups = [work, personal, bin]
        vault.meta.recycleBinUUID = bin.uuid
        vault.meta.recycleBinEnabled = false
        vault.format = VaultFormat(kdf: .aes(rounds: 100))
    }
}

extension Vault {
    /// The UUID of the entry titled `title` (the first one, pre-order).
    func entryUUID(_ title: String) -> KDBXUUID { allEntries.first { $0.title == title }!.uuid }
    /// The UUID of the group named `name` (the first one, pre-order).
    func groupUUID(_ name: String) -> KDBXUUID { allGroups.first { $0.name == name }!.uuid }
    /// The entry titled `title`.
    func entry(titled title: String) -> Entry? { allEntries.first { $0.title == title } }
    /// The name of the group holding entry `title`.
    func parentName(ofEntry title: String) -> String? { root.parentOfEntry(entryUUID(title))?.name }
    /// The titles of the entries of group `name`, in order.
    func titles(inGroup name: String) -> [String] { group(withUUID: groupUUID(name))!.entries.map(\.title) }

    /// Edits entry `title` at `time` (previous state to history, as KeePass does).
    mutating func edit(_ title: String, at time: KDBXTime, _ body: (inout Entry) -> Void) {
        _ = try! editEntry(entryUUID(title), now: time) { body(&$0) }
    }
}
