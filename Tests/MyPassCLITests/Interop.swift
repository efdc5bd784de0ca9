import Foundation
import MyPassTestSupport
import Testing

/// KeePass (through `kporacle`) and KeePassXC (`keepassxc-cli`) reading what `mypass` wrote.
enum Interop {
    /// The manifest KeePass's own library prints for `vault`, or nil when kporacle is missing
    /// (then a visible skip, or a recorded failure when `MYPASS_REQUIRE_INTEROP=1`).
    static func kporacleDump(_ vault: String, password: String, test: String) throws -> [String: Any]? {
        guard let kporacle = InteropTools.kporacle else {
            if let message = InteropTools.missing("kporacle", test: test) { Issue.record(Comment(rawValue: message)) }
            return nil
        }
        let result = try runProcess(kporacle, ["dump", vault, "--pw", password])
        #expect(result.status == 0, "kporacle dump: \(result.stderrText)")
        return try parseJSON(result.stdoutText) as? [String: Any]
    }

    /// `keepassxc-cli ARGS` with the password piped in, or nil when keepassxc-cli is missing.
    static func keepassxc(_ arguments: [String], password: String, test: String) throws -> ProcessResult? {
        guard let tool = InteropTools.executable(named: "keepassxc-cli") else {
            if let message = InteropTools.missing("keepassxc-cli", test: test) { Issue.record(Comment(rawValue: message)) }
            return nil
        }
        return try runProcess(tool, arguments, stdin: Array((password + "\n").utf8))
    }

    /// The manifest entry with `uuid`, or nil.
    static func entry(_ manifest: [String: Any], _ uuid: String) -> [String: Any]? {
        (manifest["entries"] as? [[String: Any]])?.first { $0["uuid"] as? String == uuid }
    }

    /// The manifest entry titled `title`, or nil.
    static func entry(_ manifest: [String: Any], titled title: String) -> [String: Any]? {
        (manifest["entries"] as? [[String: Any]])?.first { fieldValue($0, "Title") == title }
    }

    /// `fields[name].value` of a manifest entry.
    static func fieldValue(_ entry: [String: Any], _ name: String) -> String? {
        ((entry["fields"] as? [String: Any])?[name] as? [String: Any])?["value"] as? String
    }

    /// `fields[name].protected` of a manifest entry.
    static func fieldProtected(_ entry: [String: Any], _ name: String) -> Bool? {
        ((entry["fields"] as? [String: Any])?[name] as? [String: Any])?["protected"] as? Bool
    }

    /// The differences between the entries of `before` and `after`, leaving out `changed` UUIDs:
    /// every other entry must be exactly as it was.
    static func otherEntriesUnchanged(before: [String: Any], after: [String: Any], changed: Set<String>) -> [String] {
        let old = (before["entries"] as? [[String: Any]] ?? []).filter { !changed.contains($0["uuid"] as? String ?? "") }
        let new = (after["entries"] as? [[String: Any]] ?? []).filter { !changed.contains($0["uuid"] as? String ?? "") }
        return manifestDifferences(expected: old, actual: new)
    }
}
