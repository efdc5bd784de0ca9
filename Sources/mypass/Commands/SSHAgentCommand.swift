import Foundation
import MyPassBytes
import MyPassCore
import MyPassCrypto
#if canImport(Glibc)
import Glibc
#endif

/// `mypass ssh-agent VAULT [--socket PATH] [--key ENTRY ...]`: the vault's SSH keys (entries
/// KeePassXC set up for its SSH agent) served by the agent on an SSH agent socket.
///
/// The vault is unlocked as `unlock` does it (or its held keys used); the keys are read here,
/// decrypted with their entries' passwords, and handed to the agent over its socket; the agent
/// serves them until the vault is locked or times out. Prints `SSH_AUTH_SOCK=...` for `eval`.
enum SSHAgentCommand {
    static func run(_ parsed: ParsedArguments) throws {
        var timeout = AgentClient.defaultTimeoutSeconds
        if let seconds = try parsed.integer("timeout", in: 1...Int(AgentClient.maxTimeoutSeconds)) {
            timeout = UInt64(seconds)
        }
        let socket = try socketPath(parsed)
        let (context, _) = try VaultContext.open(parsed)
        do {
            if !context.fromAgent {
                try AgentClient.ensureRunning()
                try AgentClient.store(vault: context.path, key: context.document.key, cachedKey: context.document.cachedKey,
                                      timeoutSeconds: timeout)
            }
        } catch {
            throw CLIError.failure("cannot hand '\(context.path)' to the agent: \(error.reason)")
        }
        let keys = try loadKeys(context, named: parsed.values("key"))
        let terminal = controllingTerminal()
        do {
            try AgentClient.sshServe(vault: context.path, socket: socket, terminal: terminal ?? "")
            for loaded in keys {
                try AgentClient.sshAdd(vault: context.path, socket: socket, identity: loaded.key.agentIdentity(comment: loaded.comment),
                                       confirm: loaded.confirm, lifetimeSeconds: loaded.lifetime)
            }
        } catch {
            throw CLIError.failure("cannot serve SSH keys on \(socket): \(error.reason)")
        }
        for loaded in keys {
            let type = SSHPrivateKey.describe(publicKeyBlob: loaded.key.publicKeyBlob)?.type ?? loaded.key.keyType
            var extras: [String] = []
            if loaded.confirm { extras.append("confirm each use") }
            if loaded.lifetime > 0 { extras.append("for \(loaded.lifetime) s") }
            let suffix = extras.isEmpty ? "" : ", " + extras.joined(separator: ", ")
            Console.noteLine("Added \(loaded.key.bitCount) \(loaded.key.fingerprint) \(Text.oneLine(loaded.comment)) (\(type)) from '\(Text.oneLine(loaded.entry))'\(suffix).")
            if loaded.confirm && terminal == nil {
                Console.errLine("Warning: '\(Text.oneLine(loaded.entry))' asks before each use and there is no terminal to ask on: its signatures will be refused.")
            }
        }
        if keys.isEmpty {
            Console.errLine("Warning: no SSH key of '\(context.path)' is set to be added at unlock; KeePassXC sets it in the entry's SSH Agent tab, or name entries with --key.")
        }
        let quoted = shellQuoted(socket)
        if parsed.flag("csh") {
            Console.line("setenv SSH_AUTH_SOCK \(quoted);")
        } else {
            Console.line("SSH_AUTH_SOCK=\(quoted); export SSH_AUTH_SOCK;")
        }
    }

    /// A key read from the vault, ready for the agent.
    struct LoadedKey {
        var key: SSHPrivateKey
        var comment: String
        var entry: String
        var confirm: Bool
        var lifetime: UInt64
    }

    /// The keys to add: the entries whose settings allow the key and add it at unlock
    /// (KeePassXC's rule), or the entries named with `--key` whatever their settings say.
    /// Entries that cannot be used are warned about and skipped; a named one is an error.
    static func loadKeys(_ context: VaultContext, named: [String]) throws -> [LoadedKey] {
        var chosen: [SSHKeyEntry] = []
        if named.isEmpty {
            for result in context.vault.sshKeyEntries() {
                switch result {
                case .success(let entry) where entry.settings.allowUseOfSSHKey && entry.settings.addAtDatabaseOpen:
                    chosen.append(entry)
                case .success:
                    break
                case .failure(let error):
                    Console.errLine("Warning: \(Text.oneLine(error.description))")
                }
            }
        } else {
            let all = context.vault.sshKeyEntries()
            for name in named {
                let located = try context.vault.resolveEntry(path: name)
                guard let result = all.first(where: { (try? $0.get())?.located.entry.uuid == located.entry.uuid }) else {
                    throw CLIError.failure("'\(name)' has no KeeAgent.settings attachment (KeePassXC sets one in the entry's SSH Agent tab)")
                }
                chosen.append(try result.get())
            }
        }
        var keys: [LoadedKey] = []
        for entry in chosen {
            do {
                let (key, comment) = try entry.openKey(readFile: readKeyFile)
                let lifetime = entry.settings.useLifetimeConstraintWhenAdding ? UInt64(max(1, entry.settings.lifetimeConstraintDuration)) : 0
                keys.append(LoadedKey(key: key, comment: comment, entry: entry.path,
                                      confirm: entry.settings.useConfirmConstraintWhenAdding, lifetime: lifetime))
            } catch {
                if !named.isEmpty { throw CommandLineTool.map(error) }
                Console.errLine("Warning: \(Text.oneLine(error.description))")
            }
        }
        return keys
    }

    /// Reads a key file that settings of type "file" name, `$NAME` and `${NAME}` replaced from
    /// the environment and a leading `~/` by the home directory, as KeePassXC does.
    static func readKeyFile(_ path: String) throws(CoreError) -> [UInt8] {
        let expanded = substituteEnvironment(path)
        do {
            return try VaultContext.readFile(expanded, what: "SSH key file", maxBytes: 1 << 20)
        } catch {
            throw CoreError(.invalidSSHKey, error.message)
        }
    }

    static func substituteEnvironment(_ path: String) -> String {
        let environment = ProcessInfo.processInfo.environment
        var text = path
        if text.hasPrefix("~/"), let home = environment["HOME"] { text = home + text.dropFirst(1) }
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            guard text[index] == "$" else {
                result.append(text[index])
                index = text.index(after: index)
                continue
            }
            var cursor = text.index(after: index)
            let braced = cursor < text.endIndex && text[cursor] == "{"
            if braced { cursor = text.index(after: cursor) }
            let nameStart = cursor
            while cursor < text.endIndex, text[cursor].isLetter || text[cursor].isNumber || text[cursor] == "_" {
                cursor = text.index(after: cursor)
            }
            let name = String(text[nameStart..<cursor])
            if name.isEmpty || (braced && (cursor == text.endIndex || text[cursor] != "}")) {
                result.append("$")
                index = text.index(after: index)
                continue
            }
            if braced { cursor = text.index(after: cursor) }
            result += environment[name] ?? ""
            index = cursor
        }
        return result
    }

    /// `--socket PATH` made absolute, or the default `ssh-agent.sock` beside the agent's socket.
    /// The directory must be this user's and writable by nobody else.
    static func socketPath(_ parsed: ParsedArguments) throws -> String {
        guard let given = parsed.value("socket") else {
            do {
                try AgentSocket.prepareDirectory()
            } catch {
                throw CLIError.failure("cannot use the agent directory: \(error.reason)")
            }
            return AgentSocket.directory + "/ssh-agent.sock"
        }
        let absolute = given.hasPrefix("/") ? given : FileManager.default.currentDirectoryPath + "/" + given
        let directory = (absolute as NSString).deletingLastPathComponent
        guard let resolved = AgentClient.vaultKey(directory.isEmpty ? "/" : directory) else {
            throw CLIError.failure("cannot use '\(given)': its directory does not exist")
        }
        let path = (resolved == "/" ? "" : resolved) + "/" + (absolute as NSString).lastPathComponent
        do {
            try AgentServer.checkSSHSocketPath(path)
        } catch {
            throw CLIError.failure("cannot use '\(given)': \(error.reason)")
        }
        return path
    }

    /// The path of this process's terminal (`/dev/pts/3`), or `nil` without one: the terminal of
    /// standard error, input or output (eval "$(mypass ssh-agent ...)" captures output), else the
    /// controlling terminal named by `/proc/self/stat` (`/dev/tty` itself names no device the
    /// agent could open).
    static func controllingTerminal() -> String? {
        for fd: Int32 in [2, 0, 1] where isatty(fd) == 1 {
            if let name = ttyname(fd) { return String(cString: name) }
        }
        // Field 7 of /proc/self/stat: the controlling terminal's device number (pseudo-terminals
        // have majors 136-143, minor bits spread as the kernel encodes them).
        guard let line = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let close = line.lastIndex(of: ")") else { return nil }
        let fields = line[line.index(after: close)...].split(separator: " ")
        guard fields.count > 4, let device = Int(fields[4]), device != 0 else { return nil }
        let major = (device >> 8) & 0xFFF, minor = (device & 0xFF) | ((device >> 12) & 0xFFF00)
        guard (136...143).contains(major) else { return nil }
        let path = "/dev/pts/\((major - 136) * 256 + minor)"
        var status = stat()
        guard lstat(path, &status) == 0, Int(status.st_rdev) == device else { return nil }
        return path
    }

    /// `text` as one shell word: as it is when it holds only safe characters, else in single quotes.
    static func shellQuoted(_ text: String) -> String {
        let safe = text.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "/._-+:@%=,".unicodeScalars.contains($0)) }
        return safe ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
