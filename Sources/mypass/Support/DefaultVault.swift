import Foundation

/// The vault a command uses when its `<vault>` argument is left out: `MYPASS_VAULT`, else the
/// `vault` line of the config file.
///
/// The config file is `$XDG_CONFIG_HOME/mypass/config` (`~/.config/mypass/config` when
/// `XDG_CONFIG_HOME` is unset or empty). Its format: UTF-8 lines `key = value`; blank lines and
/// lines starting with `#` are ignored; spaces around key and value are trimmed, and a value in matching double or single quotes
/// is the text inside them; the one key is
/// `vault` (a path; `~/` at its start is the home directory). Any other key or line is an error,
/// so that a typo does not silently pick no vault. At most 64 KiB are read.
enum DefaultVault {
    /// The largest config file read, in bytes.
    static let maxConfigBytes = 64 * 1024

    /// The default vault's path, or nil when neither the environment nor the config names one.
    ///
    /// - Throws: `CLIError` (exit 1) naming the config file and line when it cannot be read or parsed.
    static func path() throws(CLIError) -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let vault = environment["MYPASS_VAULT"], !vault.isEmpty { return expandingHome(vault) }
        let file = configPath(environment)
        guard FileManager.default.fileExists(atPath: file) else { return nil }
        let bytes = try VaultContext.readFile(file, what: "config file", maxBytes: maxConfigBytes)
        return try parse(String(decoding: bytes, as: UTF8.self), file: file)
    }

    /// `$XDG_CONFIG_HOME/mypass/config`, or `~/.config/mypass/config`.
    static func configPath(_ environment: [String: String]) -> String {
        if let base = environment["XDG_CONFIG_HOME"], !base.isEmpty { return base + "/mypass/config" }
        return home + "/.config/mypass/config"
    }

    /// `$HOME`, else the account's home directory.
    static var home: String {
        if let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty { return home }
        return NSHomeDirectory()
    }

    /// The `vault` value of a config file's text, or nil when it has none.
    ///
    /// - Throws: `CLIError` (exit 1) for a line that is not `key = value` or an unknown key.
    static func parse(_ text: String, file: String) throws(CLIError) -> String? {
        var vault: String?
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\r")))
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw .failure("config file '\(file)' line \(index + 1): expected 'key = value'")
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            // A value in matching double or single quotes (as TOML and shell users write it) is
            // the text inside them.
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            }
            guard key == "vault" else {
                throw .failure("config file '\(file)' line \(index + 1): unknown key '\(key)' (the one key is 'vault')")
            }
            vault = value.isEmpty ? nil : expandingHome(value)
        }
        return vault
    }

    /// `~/x` as `$HOME/x`; other paths unchanged.
    static func expandingHome(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        return home + path.dropFirst()
    }
}
