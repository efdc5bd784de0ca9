import MyPassBytes
import MyPassCore
import MyPassKDBX

/// A small vault with known structure for list, filter and editing tests.
///
/// ```
/// Passwords (root)          entry "Root Entry"
/// ├─ Work                   entry "GitHub" (alice, github.com, tag dev)
/// │  └─ Email               entry "Mail" (bob, https://mail.example.com)
/// ├─ Personal               entry "Café Crème" (zoë, tag Food)
/// ├─ Hidden (searching off) entry "Secret"
/// │  ├─ Child (inherits)    entry "Inner"
/// │  └─ Override (on)       entry "Visible"
/// └─ Recycle Bin            entry "Old"
/// ```
struct SampleVault {
    var vault: Vault
    let root, work, email, personal, hidden, child, override, bin: KDBXUUID
    static let t0 = KDBXTime(year: 2026, month: 1, day: 2, hour: 3, minute: 4, second: 5)!
    var t0: KDBXTime { SampleVault.t0 }

    init() {
        let t0 = SampleVault.t0
        vault = Vault.new(name: "Passwords", now: t0)
        root = vault.root.uuid
        func group(_ name: String) -> Group { Group(name: name, times: Times(all: t0)) }
        func entry(_ title: String, user: String = "", url: String = "", tags: [String] = []) -> Entry {
            var e = Entry(times: Times(all: t0))
            e.title = title
            e.userName = user
            e.url = url
            e.password = ProtectedString("pw-" + title)
            e.tags = tags
            return e
        }
        var workGroup = group("Work")
        var emailGroup = group("Email")
        emailGroup.entries = [entry("Mail", user: "bob", url: "https://mail.example.com")]
        workGroup.entries = [entry("GitHub", user: "alice", url: "github.com", tags: ["dev"])]
        workGroup.groups = [emailGroup]
        var personalGroup = group("Personal")
        personalGroup.entries = [entry("Café Crème", user: "zoë", tags: ["Food"])]
        var hiddenGroup = group("Hidden")
        hiddenGroup.enableSearching = false
        hiddenGroup.entries = [entry("Secret")]
        var childGroup = group("Child")
        childGroup.entries = [entry("Inner")]
        var overrideGroup = group("Override")
        overrideGroup.enableSearching = true
        overrideGroup.entries = [entry("Visible")]
        hiddenGroup.groups = [childGroup, overrideGroup]
        var binGroup = group("Recycle Bin")
        binGroup.iconID = 43
        binGroup.entries = [entry("Old")]
        vault.root.entries = [entry("Root Entry")]
        vault.root.groups = [workGroup, personalGroup, hiddenGroup, binGroup]
        vault.meta.recycleBinUUID = binGroup.uuid
        work = workGroup.uuid
        email = emailGroup.uuid
        personal = personalGroup.uuid
        hidden = hiddenGroup.uuid
        child = childGroup.uuid
        override = overrideGroup.uuid
        bin = binGroup.uuid
    }

    func uuid(ofEntry title: String) -> KDBXUUID {
        vault.allEntries.first(where: { $0.title == title })!.uuid
    }
}
