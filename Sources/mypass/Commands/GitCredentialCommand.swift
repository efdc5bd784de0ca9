import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX
#if canImport(Glibc)
import Glibc
#endif

/// `mypass git-credential [--store] VAULT get|store|erase`: a git credential helper
/// (gitcredentials(7), git-credential(1)): `git config credential.helper '!mypass git-credential VAULT'` (git runs a helper that does not
/// start with `!` or `/` as `git credential-NAME`).
///
/// git writes `key=value` lines and an empty line on standard input. `get` answers
/// `username=` and `password=` from the entry that matches `protocol` and `host` as AutoFill
/// matches (``CredentialMatcher``), and `path` when git sends one (`credential.useHttpPath`): an
/// entry whose URL has a path must then be a prefix of it (the longest first). No match: no answer, exit 0, and git asks
/// as it would without us. `store` and `erase` are read and change nothing, unless `--store`:
/// then `store` updates the password of the matching entry with that user name, or adds an
/// entry; `erase` moves the matching entry with that user name and password to the recycle bin.
///
/// The vault opens with the agent's keys; otherwise the password is asked on the terminal (git
/// holds standard input), and without a terminal the helper answers nothing and says why.
enum GitCredentialCommand {
    /// The most bytes of request read.
    static let maxRequestBytes = 64 * 1024

    static func run(_ parsed: ParsedArguments) throws {
        let action = parsed.required("action")
        let request = try readRequest()
        guard ["get", "store", "erase"].contains(action) else { return }  // git: unknown actions are ignored
        guard let scheme = request["protocol"], let host = request["host"], !scheme.isEmpty, !host.isEmpty else { return }
        if action != "get" && !parsed.flag("store") { return }  // accepted; the vault is not touched
        guard var context = try openVault(parsed, forWriting: action != "get") else { return }
        let path = normalizedPath(request["path"] ?? "")
        let candidates = matches(in: context.vault, scheme: scheme, host: host, path: path, username: request["username"])
        switch action {
        case "get":
            for located in candidates {
                let user = located.entry.userName
                let password = located.entry.password
                guard isLineSafe(user), password.withRevealedBytes({ !$0.contains(0x0A) && !$0.contains(0) && !$0.contains(0x0D) }) else {
                    continue  // a value git cannot carry on one line
                }
                if !user.isEmpty { Console.line("username=" + user) }
                Console.out("password=")
                password.withRevealedBytes { Console.outBytes($0, newline: true) }
                return
            }
        case "store":
            guard let user = request["username"], let password = request["password"], isLineSafe(user) else { return }
            let secret = ProtectedString(password)
            let now = currentTime()
            if let existing = candidates.first(where: { $0.entry.userName == user }) {
                guard existing.entry.password != secret else { return }
                try context.vault.editEntry(existing.entry.uuid, now: now) { $0.password = secret }
            } else {
                var entry = context.vault.newEntry()
                entry.title = host + (path.isEmpty ? "" : "/" + path)
                entry.url = scheme + "://" + host + (path.isEmpty ? "" : "/" + path)
                entry.userName = user
                entry.password = secret
                try context.vault.addEntry(entry, to: context.vault.root.uuid, now: now)
            }
            try context.save()
        default:  // erase
            guard let user = request["username"] else { return }
            let secret = request["password"].map { ProtectedString($0) }
            let doomed = candidates.filter { $0.entry.userName == user && (secret == nil || $0.entry.password == secret!) }
            guard !doomed.isEmpty else { return }
            for located in doomed { try context.vault.deleteEntry(located.entry.uuid, now: currentTime()) }
            try context.save()
        }
    }

    /// git's request: `key=value` lines up to an empty line or the end of input. Values of
    /// repeated keys (`capability[]`, `wwwauth[]`) are not needed; the last one is kept.
    static func readRequest() throws -> [String: String] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count <= maxRequestBytes {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
            if bytes.count >= 2, bytes.suffix(2) == [0x0A, 0x0A] || bytes == [0x0A] { break }
        }
        defer { wipe(&bytes) }
        guard bytes.count <= maxRequestBytes else { throw CLIError.failure("the credential request is larger than \(maxRequestBytes) bytes") }
        var request: [String: String] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty { break }
            guard let equals = line.firstIndex(of: "=") else { continue }
            request[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return request
    }

    /// The vault, opened with the agent's keys or, once git's request is read, a password asked
    /// on the terminal; `nil` (with a note) when it is locked and there is no terminal.
    static func openVault(_ parsed: ParsedArguments, forWriting: Bool) throws -> VaultContext? {
        // Standard input was git's: the password, if asked, comes from the terminal.
        let terminal = open("/dev/tty", O_RDWR | O_CLOEXEC)
        let input = terminal >= 0 ? terminal : open("/dev/null", O_RDONLY | O_CLOEXEC)
        if input >= 0 {
            _ = dup2(input, 0)  // fails only for a bad descriptor: then the prompt finds no input
            close(input)
        }
        do {
            return try VaultContext.open(parsed, forWriting: forWriting).0
        } catch let error as CLIError where terminal < 0 && error.message.contains("no password on standard input") {
            let vault = parsed.required("vault")
            Console.errLine("mypass: '\(vault)' is locked and there is no terminal to ask its password on; run 'mypass unlock \(vault)' first.")
            return nil
        }
    }

    /// The entries for the request, best first: outside the recycle bin, matching scheme and
    /// host as AutoFill does, and the path when one is given (entries with a longer path that
    /// is a prefix of it first); with the user name when git gives one.
    static func matches(in vault: Vault, scheme: String, host: String, path: String, username: String?) -> [LocatedEntry] {
        let entries = vault.locatedEntries.filter { !vault.isEntryInRecycleBin($0.entry.uuid) }
        let found = CredentialMatcher().match(serviceIdentifier: scheme + "://" + host, in: entries.map(\.entry))
        var ranked: [(located: LocatedEntry, pathLength: Int, order: Int)] = []
        for (order, entry) in found.suggested.enumerated() {
            guard let located = entries.first(where: { $0.entry.uuid == entry.uuid }) else { continue }
            if let username, !username.isEmpty, entry.userName != username { continue }
            // The longest path of the entry's URLs that the request's path starts with.
            var best: Int?
            for url in entry.candidateURLs {
                // A URL that names its scheme names the protocol: an https entry is never sent
                // to an http request (the matcher, made for AutoFill, looks at host and port).
                if let written = ServiceAddress(parsing: url)?.scheme, written.lowercased() != scheme.lowercased() { continue }
                let entryPath = normalizedPath(urlPath(url))
                // Without a path (git's default) the host decides alone.
                let fits = path.isEmpty || entryPath.isEmpty || path == entryPath || path.hasPrefix(entryPath + "/")
                if fits { best = max(best ?? -1, entryPath.count) }
            }
            guard let length = best else { continue }
            ranked.append((located, length, order))
        }
        return ranked.sorted { ($0.pathLength, -$0.order) > ($1.pathLength, -$1.order) }.map(\.located)
    }

    /// The path of a URL: what follows `scheme://host[:port]`, before `?` or `#`.
    static func urlPath(_ url: String) -> String {
        var rest = Substring(url)
        if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
        guard let slash = rest.firstIndex(of: "/") else { return "" }
        let path = rest[slash...]
        return String(path.prefix { $0 != "?" && $0 != "#" })
    }

    /// A path without its leading and trailing slashes and without a final `.git`.
    static func normalizedPath(_ path: String) -> String {
        var text = Substring(path)
        while text.hasPrefix("/") { text = text.dropFirst() }
        while text.hasSuffix("/") { text = text.dropLast() }
        if text.hasSuffix(".git") { text = text.dropLast(4) }
        return String(text)
    }

    static func isLineSafe(_ text: String) -> Bool { !text.contains("\n") && !text.contains("\r") && !text.contains("\0") }
}
