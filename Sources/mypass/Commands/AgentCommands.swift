import Foundation
import MyPassCore
import MyPassCrypto

/// `mypass unlock VAULT [--timeout SECONDS]`, `mypass lock [VAULT]`, `mypass status [--json]` and
/// `mypass agent`: unlock once, then script (see ``AgentServer`` and ``AgentMessage`` for the
/// protocol).
enum AgentCommands {
    /// Asks for the key, opens the vault with it (one KDF), starts the agent when none runs and
    /// hands it the composite key and the transformed key.
    static func unlock(_ parsed: ParsedArguments) throws {
        var timeout = AgentClient.defaultTimeoutSeconds
        if let seconds = try parsed.integer("timeout", in: 1...Int(AgentClient.maxTimeoutSeconds)) {
            timeout = UInt64(seconds)
        }
        let (context, _) = try VaultContext.open(parsed, usesAgent: false)
        do {
            try AgentClient.ensureRunning()
            do {
                try AgentClient.store(vault: context.path, key: context.document.key, cachedKey: context.document.cachedKey,
                                      timeoutSeconds: timeout)
            } catch .unavailable {
                // An agent that was exiting (it had just been locked) closed the connection: start
                // a new one.
                try AgentClient.ensureRunning()
                try AgentClient.store(vault: context.path, key: context.document.key, cachedKey: context.document.cachedKey,
                                      timeoutSeconds: timeout)
            }
        } catch {
            throw CLIError.failure("cannot hand '\(context.path)' to the agent: \(error.reason)")
        }
        Console.errLine("Unlocked '\(context.path)' for \(timeout) s after its last use; 'mypass lock' forgets it.")
    }

    /// Forgets one vault, or every vault; without an agent there is nothing to forget.
    static func lock(_ parsed: ParsedArguments) throws {
        let vault = parsed.positional("vault")
        let count: Int
        do {
            count = try AgentClient.lock(vault: vault)
        } catch .unavailable {
            Console.err("No agent is running: nothing is unlocked.\n")
            return
        } catch {
            throw CLIError.failure("cannot reach the agent: \(error.reason)")
        }
        if let vault {
            Console.errLine(count == 0 ? "'\(vault)' was not unlocked." : "Locked '\(vault)'.")
        } else {
            Console.errLine("Locked \(count) vault\(count == 1 ? "" : "s").")
        }
    }

    /// One line per held vault: its path and the seconds left (`PATH<TAB>SECONDS`); below it the
    /// SSH sockets serving its keys and the keys as `ssh-add -l` lists them.
    static func status(_ parsed: ParsedArguments) throws {
        var held: [(path: String, secondsLeft: UInt64)] = []
        var sshKeys: [AgentClient.SSHListedKey] = []
        do {
            held = try AgentClient.status()
            if !held.isEmpty { sshKeys = try AgentClient.sshList() }
        } catch .unavailable {
            held = []
            sshKeys = []
        } catch {
            throw CLIError.failure("cannot reach the agent: \(error.reason)")
        }
        /// The vault's keys grouped by socket, sockets in first-seen order.
        func sockets(of vault: String) -> [(socket: String, keys: [AgentClient.SSHListedKey])] {
            var result: [(socket: String, keys: [AgentClient.SSHListedKey])] = []
            for key in sshKeys where key.vault == vault {
                if let index = result.firstIndex(where: { $0.socket == key.socket }) {
                    result[index].keys.append(key)
                } else {
                    result.append((key.socket, [key]))
                }
            }
            return result
        }
        if parsed.flag("json") {
            Console.line(JSON.array(held.map { vault in
                JSON.object([
                    ("vault", .string(vault.path)), ("secondsLeft", .int(Int(vault.secondsLeft))),
                    ("ssh", JSON.array(sockets(of: vault.path).map { socket in
                        JSON.object([("socket", .string(socket.socket)), ("keys", JSON.array(socket.keys.map { key in
                            let described = SSHPrivateKey.describe(publicKeyBlob: key.publicKeyBlob)
                            var fields: [(String, JSON)] = [
                                ("type", .string(described?.type ?? "?")), ("bits", .int(described?.bits ?? 0)),
                                ("fingerprint", .string(SSHPrivateKey.fingerprint(ofPublicKeyBlob: key.publicKeyBlob))),
                                ("comment", .string(key.comment)), ("confirm", .bool(key.confirm)),
                            ]
                            if let left = key.secondsLeft { fields.append(("secondsLeft", .int(Int(left)))) }
                            return JSON.object(fields)
                        }))])
                    })),
                ])
            }).prettyPrinted)
            return
        }
        if held.isEmpty { Console.err("No vault is unlocked.\n") }
        for vault in held {
            Console.line("\(Text.oneLine(vault.path))\t\(vault.secondsLeft)")
            for socket in sockets(of: vault.path) {
                Console.line("  SSH agent on \(Text.oneLine(socket.socket)):")
                for key in socket.keys {
                    let described = SSHPrivateKey.describe(publicKeyBlob: key.publicKeyBlob)
                    var line = "    \(described?.bits ?? 0) \(SSHPrivateKey.fingerprint(ofPublicKeyBlob: key.publicKeyBlob)) "
                        + "\(Text.oneLine(key.comment)) (\(described?.type ?? "?"))"
                    if key.confirm { line += " [confirm each use]" }
                    if let left = key.secondsLeft { line += " [\(left) s left]" }
                    Console.line(line)
                }
            }
        }
    }

    /// Runs the agent in the foreground of its own session until it holds nothing.
    static func agent(_ parsed: ParsedArguments) throws {
        let code = AgentServer.run()
        if code != 0 { throw CLIError.failure("the agent could not start") }
    }
}
