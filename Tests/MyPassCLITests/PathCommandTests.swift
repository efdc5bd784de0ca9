import Foundation
import MyPassTestSupport
import Testing

/// Issue 19's path rules through the binary: a path names one entry (add, edit and mv refuse to
/// make a second one), ambiguity and not-found messages that help, `\/` and `\\` escapes, and
/// `ls --paths`.
@Suite("mypass path rules")
struct PathCommandTests {
    static let github = "e0000000000040008000000000000002"
    static let githubOps = "e0000000000040008000000000000008"

    let scratch: Scratch
    let vault: String

    init() throws {
        scratch = try Scratch()
        vault = try scratch.copy(Demo.vault)
    }

    func mypass(_ arguments: [String], stdin: String = Demo.stdin) throws -> ProcessResult {
        try CLI.run(arguments, stdin: stdin)
    }

    var demoPaths: String {
        "Welcome\nWork/GitHub\nWork/Jira\nWork/Email/Company Mail\nPersonal/Example Bank\nPersonal/Home Wi-Fi\nPersonal/Dropbox\n"
    }

    @Test("ls --paths prints the paths commands take; help says which form input takes")
    func listPaths() throws {
        let result = try mypass(["ls", vault, "--paths"])
        #expect(result.status == 0)
        #expect(result.stdoutText == demoPaths)
        let help = try mypass(["help", "ls"]).stdoutText
        #expect(help.contains("commands take paths with / (Work/Email/GitHub), as --paths prints them"))
    }

    @Test("add refuses an existing path, also through --field Title=; the vault is unchanged")
    func addRefusesExistingPath() throws {
        for arguments in [["add", vault, "Work/GitHub"], ["add", vault, "Work/New", "--field", "Title=GitHub"]] {
            let result = try mypass(arguments + ["--username", "x"])
            #expect(result.status == 1)
            #expect(CLI.firstErrorLine(result) == "Error: an entry 'Work/GitHub' already exists (\(Self.github))")
        }
        let empty = try mypass(["add", vault, "Work/New", "--field", "Title="])
        #expect(empty.status == 1)
        #expect(CLI.firstErrorLine(empty) == "Error: an entry's title cannot be empty")
        #expect(try mypass(["ls", vault, "--paths"]).stdoutText == demoPaths)
    }

    @Test("add 'Work/' (an empty title) is a usage error, before any password is read")
    func addEmptyTitle() throws {
        for path in ["Work/", "", "/"] {
            let result = try mypass(["add", vault, path], stdin: "")
            #expect(result.status == 2)
            #expect(CLI.firstErrorLine(result) == "Error: The path '\(path)' must end with the new entry's title (Work/GitHub)")
        }
    }

    @Test("edit --title and mv refuse to make a path name two entries")
    func editAndMoveRefuse() throws {
        let rename = try mypass(["edit", vault, "Work/Jira", "--title", "GitHub"])
        #expect(rename.status == 1)
        #expect(CLI.firstErrorLine(rename) == "Error: an entry 'Work/GitHub' already exists (\(Self.github))")
        #expect(try mypass(["add", vault, "Personal/GitHub"]).status == 0)
        let move = try mypass(["mv", vault, "Personal/GitHub", "Work"])
        #expect(move.status == 1)
        #expect(CLI.firstErrorLine(move) == "Error: an entry 'Work/GitHub' already exists (\(Self.github))")
        // Changing the case is a different title (paths are case-sensitive, as in keepassxc-cli).
        #expect(try mypass(["edit", vault, "Personal/GitHub", "--title", "github"]).status == 0)
    }

    @Test("an ambiguous path (KeePass allows two entries there) lists what tells them apart")
    func ambiguity() throws {
        let paths = try scratch.copy("cli/paths.kdbx")
        let result = try mypass(["show", paths, "Work/GitHub"])
        #expect(result.status == 1)
        #expect(CLI.firstErrorLine(result) == "Error: 'Work/GitHub' names 2 entries; use a UUID: "
            + "\(Self.github) (user name 'sam-dev', modified 2026-01-15T09:30:00Z), "
            + "\(Self.githubOps) (user name 'sam-ops', modified 2026-02-01T08:00:00Z)")
        let byUUID = try mypass(["show", paths, Self.githubOps, "--field", "UserName"])
        #expect(byUUID.stdoutText == "sam-ops\n")
        // Either twin can still be edited; renaming it resolves the ambiguity.
        #expect(try mypass(["edit", paths, Self.githubOps, "--title", "GitHub (ops)"]).status == 0)
        #expect(try mypass(["show", paths, "Work/GitHub", "--field", "UserName"]).stdoutText == "sam-dev\n")
    }

    @Test("\\/ and \\\\ reach names holding / and \\; printed paths use that form")
    func escapes() throws {
        let paths = try scratch.copy("cli/paths.kdbx")
        let listed = try mypass(["ls", paths, "--paths"]).stdoutText
        #expect(listed.hasSuffix("Personal/Dropbox\nCI\\/CD/deploy\\\\key\n"))
        #expect(try mypass(["show", paths, "CI\\/CD/deploy\\\\key", "--field", "UserName"]).stdoutText == "ci-bot\n")
        let added = try mypass(["add", vault, "Work/a\\/b", "--username", "slash"])
        #expect(added.status == 0)
        #expect(added.stdoutText.hasPrefix("Added entry 'Work/a\\/b' ("))
        let shown = try mypass(["show", vault, "Work/a\\/b"]).stdoutText
        #expect(shown.contains("Title: a/b\n") && shown.contains("Path: Work/a\\/b\n"))
        guard let after = try Interop.kporacleDump(vault, password: Demo.password, test: "escapes") else { return }
        let entry = try #require(Interop.entry(after, titled: "a/b"))
        #expect(entry["path"] as? [String] == ["Work"])
        #expect(Interop.fieldValue(entry, "UserName") == "slash")
    }

    @Test("a name that differs in case or by a letter or two gets a suggestion", arguments: [
        ("work/github", "no entry 'work/github'; did you mean 'Work/GitHub'?"),
        ("Work/GitHb", "no entry 'Work/GitHb'; did you mean 'Work/GitHub'?"),
        ("Personal/Dropbx", "no entry 'Personal/Dropbx'; did you mean 'Personal/Dropbox'?"),
        ("Nowhere/Else", "no entry 'Nowhere/Else'"),
    ])
    func suggestions(typed: String, message: String) throws {
        let result = try mypass(["show", vault, typed])
        #expect(result.status == 1)
        #expect(CLI.firstErrorLine(result) == "Error: " + message)
    }

    @Test func groupSuggestion() throws {
        let result = try mypass(["ls", vault, "--group", "work/email"])
        #expect(result.status == 1)
        #expect(CLI.firstErrorLine(result) == "Error: no group 'work/email'; did you mean 'Work/Email'?")
    }
}
