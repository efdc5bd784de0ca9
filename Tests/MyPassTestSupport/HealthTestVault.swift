import MyPassBytes
import MyPassKDBX

/// The vault the health report tests analyse (issue 30): weak, breached, reused (three and two
/// ways), expired, expiring, empty, old (from its history), Unicode and 300-character passwords,
/// a field reference, an entry with QualityCheck off, a note, a `/` in a title, history items and
/// the recycle bin. ``breached`` is the HIBP list the tests make for it (password and count).
public enum HealthTestVault {
    /// The analysis time: 2026-06-01T00:00:00Z.
    public static let now = KDBXTime(year: 2026, month: 6, day: 1)!
    /// The master password.
    public static let masterPassword = "health-check"

    public static let reusedThreeWays = "Tr0ub4dour&3-shared"
    public static let reusedTwoWays = "qwertyuiop"
    public static let long: String = {
        // 300 characters drawn from a fixed sequence (a linear congruential walk over printable ASCII).
        var state: UInt64 = 0x1234_5678
        var out = ""
        for _ in 0..<300 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            out.unicodeScalars.append(Unicode.Scalar(UInt8(33 + (state >> 33) % 94)))
        }
        return out
    }()

    /// The HIBP list: each password seen and how often.
    public static let breached: [String: Int64] = [
        "password1": 2_418_984, "Summer2024!": 1_234, reusedTwoWays: 980_123, "pässwörd-日本語-🔑": 3, long: 1,
        "abc": 5, "letmein": 100, "oldpass": 77,
    ]

    /// The UUID of the entry named by `title` (fixed, so that reports and expected files are stable).
    public static func uuid(_ number: UInt64) -> KDBXUUID {
        KDBXUUID(high: 0x3030_0000_0000_4000, low: 0x8000_0000_0000_0000 | number)
    }

    /// The vault: KDBX 4.1 (QualityCheck needs it), AES-KDF with 1,000 rounds (fast to open).
    public static func make() -> Vault {
        let created = KDBXTime(year: 2020, month: 1, day: 1)!
        var vault = Vault.new(name: "Health", now: created)
        vault.format.kdf = .aes(rounds: 1_000)
        var number: UInt64 = 0
        func entry(_ title: String, user: String = "sam", url: String = "", password: String, modified: KDBXTime? = nil,
                   expires: KDBXTime? = nil) -> Entry {
            number += 1
            var entry = Entry(uuid: uuid(number), times: Times(all: created))
            entry.setValue(title, for: Entry.StandardField.title)
            entry.setValue(user, for: Entry.StandardField.userName)
            entry.setValue(url, for: Entry.StandardField.url)
            entry.setValue(password, for: Entry.StandardField.password, isProtected: true)
            if let modified { entry.times.lastModification = modified }
            if let expires {
                entry.times.expires = true
                entry.times.expiry = expires
            }
            return entry
        }
        var github = entry("GitHub", url: "https://github.com", password: "gh-7Qz!pV3#mT9xL2$wK")
        // An old password in its history (breached, weak): seen with --include-history only.
        var githubBefore = github
        githubBefore.setValue("letmein", for: Entry.StandardField.password, isProtected: true)
        githubBefore.history = []
        github.history = [githubBefore]

        var old = entry("Old Server", password: "Vx9#kL2m!Qp7Rz4w", modified: KDBXTime(year: 2025, month: 3, day: 1)!)
        // oldpass until 2019-03-01, then today's password; a notes edit in 2025 kept it.
        var first = old
        first.setValue("oldpass", for: Entry.StandardField.password, isProtected: true)
        first.times.lastModification = KDBXTime(year: 2018, month: 5, day: 1)!
        var second = old
        second.times.lastModification = KDBXTime(year: 2019, month: 3, day: 1)!
        old.history = [first, second]

        var qualityOff = entry("PIN", password: "abc")
        qualityOff.qualityCheck = false
        let reference = entry("Mirror of GitHub", password: "{REF:P@I:\(uuid(1).hexString.uppercased())}")

        var work = Group(uuid: uuid(100), name: "Work", times: Times(all: created))
        work.entries = [
            github,
            entry("Jira", url: "https://jira.example.com", password: "password1"),
            entry("Email", password: "Summer2024!"),
            entry("Legacy", password: reusedTwoWays, expires: KDBXTime(year: 2024, month: 1, day: 1)!),
            old, qualityOff, reference,
        ]
        var personal = Group(uuid: uuid(101), name: "Personal", times: Times(all: created))
        personal.entries = [
            entry("Bank", url: "https://bank.example", password: reusedThreeWays),
            entry("Shop", password: reusedThreeWays),
            entry("Forum", password: reusedTwoWays),
            entry("Insurance", password: "Zq8!vR2#nW5@xT7&", expires: KDBXTime(year: 2026, month: 6, day: 11)!),
            entry("Router", user: "admin", password: ""),
            entry("Ünïcødé ✓", password: "pässwörd-日本語-🔑"),
            entry("Long", password: long),
            entry("A/B", password: "Kj4#pL9!wQ2@mN7$"),
        ]
        var team = Group(uuid: uuid(102), name: "Team", times: Times(all: created))
        team.entries = [entry("Wiki", password: reusedThreeWays)]
        var shared = Group(uuid: uuid(103), name: "Shared", times: Times(all: created))
        shared.groups = [team]
        var notes = Group(uuid: uuid(104), name: "Notes", times: Times(all: created))
        notes.entries = [entry("Server note", user: "", password: "")]
        var bin = Group(uuid: uuid(105), name: "Recycle Bin", iconID: 43, times: Times(all: created))
        bin.enableAutoType = false
        bin.enableSearching = false
        bin.entries = [entry("Deleted", password: "password1")]
        vault.root.groups = [work, personal, shared, notes, bin]
        vault.meta.recycleBinEnabled = true
        vault.meta.recycleBinUUID = bin.uuid
        return vault
    }
}
