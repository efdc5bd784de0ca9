import Foundation
import MyPassTestSupport
import Testing

/// Issue 20: the plaintext copies a save leaves. `mypass __memory-check` with
/// `MYPASS_TEST_MEMORY_SAVE=1` unlocks a vault of 2,000 entries (about 1.5 MB of XML), edits an
/// entry and saves it, scanning its own memory while unlocked, inside the save (at its second
/// write, and at the rename, after the XML writer, deflate, the cipher and the check have run),
/// after the save and after lock, for one entry's protected password and its unprotected user
/// name (both random per run), the name both as a string and as the XML has it.
@Suite("Memory: the copies of a protected value and of an unprotected field that a save leaves")
struct SaveMemoryTests {
    #if os(Linux)
    @Test("during and after a save: no clear copy of a protected value; an unprotected field as XML only in the buffers at work")
    func copiesDuringSave() throws {
        let scratch = try Scratch()
        let vault = scratch.path("save-memory.kdbx"), csv = scratch.path("entries.csv")
        func random(_ count: Int) -> String { randomLetters(count) }
        // Longer than 15 bytes, so that a Swift String keeps them on the heap rather than inline.
        let secret = "pw-" + random(29), userName = "user-" + random(27)
        var rows = [#""Group","Title","Username","Password","URL","Notes","TOTP","Icon","Last Modified","Created""#]
        for index in 0..<2000 {
            let (user, password) = index == 1234 ? (userName, secret) : ("someone-\(index)", "password-\(index)-\(random(12))")
            rows.append(#""Root/G\#(index % 20)","Site \#(index)","\#(user)","\#(password)","https://site\#(index).example/","Notes of entry \#(index)","","0","2026-01-15T09:30:00Z","2026-01-15T09:30:00Z""#)
        }
        try Data((rows.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: csv))
        let created = try runProcess(CLI.binary, ["import", vault, csv, "--from", "keepassxc-csv", "--create", "--kdf", "argon2id",
                                                  "--memory", "1MiB", "--iterations", "2", "--parallelism", "1"],
                                     stdin: Array("vault-pw\nvault-pw\n".utf8), environment: SecurityCommandTests.environment)
        #expect(created.status == 0, "\(created.stderrText)")
        try FileManager.default.removeItem(atPath: csv)

        var environment = SecurityCommandTests.environment
        environment["MYPASS_TEST_MEMORY_CHECK"] = "1"
        environment["MYPASS_TEST_MEMORY_SAVE"] = "1"
        environment["MYPASS_TEST_MEMORY_NEEDLES"] = [
            SecurityCommandTests.needle("protected", Array(secret.utf8)), SecurityCommandTests.needle("unprotected", Array(userName.utf8)),
            SecurityCommandTests.needle("unprotected-xml", Array("<Value>\(userName)</Value>".utf8)),
        ].joined(separator: ";")
        let result = try runProcess(CLI.binary, ["__memory-check", vault], stdin: Array("vault-pw\n".utf8), environment: environment)
        #expect(result.status == 0, "\(result.stderrText)")
        var counts: [String: Int] = [:]
        for line in result.stdoutText.split(separator: "\n") {
            let words = line.split(separator: " ")
            if words.count == 3, let count = Int(words[2]) { counts["\(words[0]) \(words[1])"] = count }
        }
        let report = result.stdoutText
        print("save memory: \(report.split(separator: "\n").filter { $0.contains("protected") }.joined(separator: ", "))")
        #expect(report.contains("entries 2000 "), "\(report)")
        // The protected value is masked in the model (ProtectedString) and in the file (the inner
        // random stream): no clear copy at any time, during the save included.
        for phase in ["unlocked", "writing", "saving", "saved", "locked"] {
            #expect(counts["\(phase) protected"] == 0, "\(phase): \(report)")
            #expect(counts["\(phase) unreadable-bytes"] == 0, "\(phase): every readable mapping read: \(report)")
        }
        // The unprotected user name is a String in the model, shared by the model and the copy
        // kept as saved (copy on write): found while unlocked, so the scan sees it.
        #expect((counts["unlocked unprotected"] ?? 0) >= 1, "\(report)")
        #expect((counts["saved unprotected"] ?? 0) >= 1, "\(report)")
        // As XML it exists only in the buffers at work: the reader's, deflate's and the writer's
        // buffers are zeroed once used, so no copy is left while unlocked, once the file is
        // written and checked, after the save, or after lock.
        for phase in ["unlocked", "saving", "saved", "locked"] {
            #expect(counts["\(phase) unprotected-xml"] == 0, "\(phase): \(report)")
        }
    }
    #endif
}
