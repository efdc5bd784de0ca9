import Foundation
import MyPassBytes
import MyPassCrypto
#if canImport(Glibc)
import Glibc
#endif

/// One SSH agent socket the agent serves (`mypass ssh-agent`).
struct SSHSocket {
    let listener: UnixListener
    /// The held vaults whose keys it offers; when none is left, it closes.
    var vaults: Set<String>
    /// Set by `ssh-add -x` (SSH_AGENTC_LOCK): a random key and the HMAC-SHA-256 of the
    /// passphrase under it. While set, no key is listed or used.
    var lock: (key: [UInt8], digest: [UInt8])?
    /// Wrong unlock passphrases so far (each costs a longer wait, as ssh-agent does).
    var failedUnlocks = 0
}

/// One key an SSH socket offers.
struct SSHIdentity {
    var vault: String
    var socket: String
    var key: SSHPrivateKey
    var blob: [UInt8]
    var comment: String
    /// Ask on the terminal before each use (KeeAgent's UseConfirmConstraintWhenAdding).
    var confirm: Bool
    /// When the key is forgotten (KeeAgent's lifetime constraint), or never.
    var expires: ContinuousClock.Instant?
}

/// The SSH agent protocol on the sockets `mypass ssh-agent` asks for (see ``SSHAgentMessage``).
///
/// The keys live in this process only, in the key types' wiping storage; a vault's keys go
/// when the vault is locked or times out, a key with a lifetime when it ends, and a socket
/// closes (its file removed if still ours) when no held vault is left on it. Connections are
/// checked with `SO_PEERCRED` (same user only), may idle 60 s between requests and must send
/// each request whole within 10 s; a request over 256 KiB, or one that does not parse, ends the
/// connection. Keys cannot be added or removed through the socket (SSH_AGENT_FAILURE): they
/// come from the vault.
extension AgentServer {
    /// The most keys offered at once, over every socket.
    static let maxSSHIdentities = 256
    /// Seconds a connection may stay idle between requests.
    static let sshIdleSeconds = 60
    /// Seconds a request may take to arrive once it started.
    static let sshRequestSeconds = 10
    /// Seconds a confirmation waits for its answer before it counts as "no".
    static let confirmSeconds = 60

    // MARK: - Requests of `mypass ssh-agent` (agent protocol 'H', 'A', 'I')

    /// Answers 'H', 'A' and 'I'; called with the state locked.
    func respondSSH(_ kind: AgentMessage.Request, _ request: AgentMessage, in state: inout State) -> AgentMessage {
        let now = clock.now
        switch kind {
        case .sshServe:
            guard request.fields.count == 3, let vault = request.text(0), let socket = request.text(1),
                  let terminal = request.text(2)
            else { return AgentMessage(.badRequest) }
            guard state.vaults[vault] != nil else { return AgentMessage(.notHeld) }
            if state.sshSockets[socket] == nil {
                do throws(AgentError) {
                    try Self.checkSSHSocketPath(socket)
                    guard let listener = try UnixListener.bind(socket, isAnswered: {
                        (try? AgentSocket.connect(to: socket)) != nil
                    }) else {
                        return Self.failed("\(socket) is already served by another agent")
                    }
                    state.sshSockets[socket] = SSHSocket(listener: listener, vaults: [])
                } catch {
                    return Self.failed(error.reason)
                }
            }
            state.sshSockets[socket]?.vaults.insert(vault)
            // A new load replaces the vault's keys on this socket.
            state.sshIdentities.removeAll { $0.vault == vault && $0.socket == socket }
            if let old = state.terminals.removeValue(forKey: vault) { close(old) }
            if !terminal.isEmpty, let fd = Self.openTerminal(terminal) { state.terminals[vault] = fd }
            wakeUp()
            return AgentMessage(.ok)
        case .sshAdd:
            guard request.fields.count == 4, let vault = request.text(0), let socket = request.text(1),
                  request.fields[3].count == 9
            else { return AgentMessage(.badRequest) }
            guard state.vaults[vault] != nil else { return AgentMessage(.notHeld) }
            guard state.sshSockets[socket]?.vaults.contains(vault) == true else { return Self.failed("the socket is not served") }
            guard state.sshIdentities.count < Self.maxSSHIdentities else {
                return Self.failed("the agent holds \(Self.maxSSHIdentities) keys already")
            }
            let identity: (key: SSHPrivateKey, comment: String)
            do throws(CryptoError) {
                identity = try SSHPrivateKey.read(agentIdentity: request.fields[2])
            } catch {
                return Self.failed("the key cannot be read: \(error.reason)")
            }
            let options = request.fields[3].unsafeArray
            let lifetime = options[1...].enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
            let blob = identity.key.publicKeyBlob
            state.sshIdentities.removeAll { $0.socket == socket && $0.blob == blob }
            state.sshIdentities.append(SSHIdentity(
                vault: vault, socket: socket, key: identity.key, blob: blob, comment: identity.comment,
                confirm: options[0] != 0,
                expires: lifetime == 0 ? nil : now + .seconds(Int64(min(lifetime, 1 << 32)))))
            return AgentMessage(.ok)
        default:  // .sshList
            var fields: [SecureBytes] = []
            for identity in state.sshIdentities.prefix(AgentMessage.maxFields) {
                var writer = SSHWireWriter()
                writer.writeString(identity.vault)
                writer.writeString(identity.socket)
                writer.writeString(identity.blob)
                writer.writeString(identity.comment)
                writer.writeUInt32(identity.confirm ? 1 : 0)
                let left = identity.expires.map { max(1, ($0 - now).components.seconds) } ?? 0
                writer.writeUInt32(UInt32(clamping: left))
                fields.append(writer.bytes)
            }
            return AgentMessage(.ok, fields: fields)
        }
    }

    /// HMAC-SHA-256 of a lock passphrase under a random key (compared in constant time).
    static func lockDigest(_ passphrase: SecureBytes, key: [UInt8]) -> [UInt8] {
        var mac = HMAC<SHA256>(key: key)
        passphrase.withUnsafeBytes { mac.update($0) }
        return mac.finalize()
    }

    static func failed(_ reason: String) -> AgentMessage { AgentMessage(.failed, fields: [AgentMessage.field(reason)]) }

    /// An SSH socket's path must be absolute and its directory this user's, writable by nobody
    /// else (so that nobody can swap the socket); it must not be the agent's own.
    /// - Throws: ``AgentError/unsafe(_:)`` otherwise.
    static func checkSSHSocketPath(_ path: String) throws(AgentError) {
        guard path.hasPrefix("/"), path != AgentSocket.path else { throw .unsafe("the SSH socket path must be absolute and not the agent's own") }
        let directory = (path as NSString).deletingLastPathComponent
        var status = stat()
        guard lstat(directory.isEmpty ? "/" : directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw .unsafe("\(directory) is not a directory")
        }
        guard status.st_uid == geteuid() else { throw .unsafe("\(directory) belongs to another user") }
        guard status.st_mode & 0o022 == 0 else {
            throw .unsafe("\(directory) is writable by other users (mode \(String(status.st_mode & 0o777, radix: 8)))")
        }
    }

    /// Opens the terminal at `path` for confirmations, if it is a character device of this user.
    static func openTerminal(_ path: String) -> Int32? {
        let fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFCHR, status.st_uid == geteuid(), isatty(fd) == 1 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// Drops what no held vault stands behind any more: keys of forgotten vaults and keys whose
    /// lifetime ended, terminals of forgotten vaults, sockets with no held vault or whose file
    /// was removed or replaced (their listeners go to the main thread to close).
    func pruneSSH(_ state: inout State, now: ContinuousClock.Instant) {
        let held = Set(state.vaults.keys)
        state.sshIdentities.removeAll { !held.contains($0.vault) || ($0.expires.map { $0 <= now } ?? false) }
        for (vault, fd) in state.terminals where !held.contains(vault) {
            close(fd)
            state.terminals[vault] = nil
        }
        for (path, var socket) in state.sshSockets {
            socket.vaults.formIntersection(held)
            if socket.vaults.isEmpty || !socket.listener.isStillOurs {
                state.sshSockets[path] = nil
                state.sshIdentities.removeAll { $0.socket == path }
                state.listenersToClose.append(socket.listener)
            } else {
                state.sshSockets[path] = socket
            }
        }
    }

    // MARK: - The SSH agent protocol

    /// Serves one SSH client until it closes, idles too long, or breaks the protocol.
    func serveSSH(_ connection: AgentSocket, socket: String) {
        guard let peer = connection.peerUID(), peer == geteuid() else { return }  // ssh-agent closes too
        while true {
            let idleDeadline = clock.now + .seconds(Self.sshIdleSeconds)
            guard AgentSocket.waitReadable(connection.fd, before: idleDeadline) else { return }
            let deadline = clock.now + .seconds(Self.sshRequestSeconds)
            var header = SecureBytes(zeroedCount: 4)
            guard (try? connection.read(into: &header, before: deadline)) != nil else { return }
            let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
            guard length >= 1, length <= SSHAgentMessage.maxBodyBytes else { return }
            var body = SecureBytes(zeroedCount: length)
            guard (try? connection.read(into: &body, before: deadline)) != nil,
                  let request = try? SSHAgentMessage.read(body)
            else { return }
            let answer = respond(to: request, socket: socket)
            guard (try? connection.sendRaw(SSHAgentMessage.frame(answer))) != nil else { return }
        }
    }

    /// The answer to one SSH request on `socket`.
    func respond(to request: SSHAgentMessage.Request, socket: String) -> SecureBytes {
        let failure = SSHAgentMessage.code(SSHAgentMessage.failure)
        switch request {
        case .requestIdentities:
            let keys = state.withLock { state -> [(blob: [UInt8], comment: String)] in
                guard let served = state.sshSockets[socket], served.lock == nil else { return [] }
                return state.sshIdentities.filter { $0.socket == socket }.map { ($0.blob, $0.comment) }
            }
            return SSHAgentMessage.identities(keys)
        case .sign(let blob, let data, let flags):
            let now = clock.now
            let found = state.withLock { state -> (SSHIdentity, Int32?)? in
                guard let served = state.sshSockets[socket], served.lock == nil,
                      let identity = state.sshIdentities.first(where: { $0.socket == socket && $0.blob == blob }),
                      var held = state.vaults[identity.vault]
                else { return nil }
                // A signature is a use of the vault: its timeout starts again.
                held.deadline = now + held.timeout
                state.vaults[identity.vault] = held
                let terminal = identity.confirm ? state.terminals[identity.vault].map { dup($0) } : nil
                return (identity, terminal.flatMap { $0 >= 0 ? $0 : nil })
            }
            guard let (identity, terminal) = found else { return failure }
            if identity.confirm {
                guard let terminal else { return failure }  // no terminal to ask on: refused
                defer { close(terminal) }
                guard TerminalConfirmation.ask(on: terminal, comment: identity.comment, fingerprint: identity.key.fingerprint,
                                               vault: identity.vault, seconds: Self.confirmSeconds)
                else { return failure }
            }
            guard let signature = try? identity.key.signature(for: data, flags: flags) else { return failure }
            return SSHAgentMessage.signature(signature)
        case .lock(let passphrase):
            let done = state.withLock { state -> Bool in
                guard var served = state.sshSockets[socket], served.lock == nil else { return false }
                let key = SecureRandom.bytes(count: 32)
                served.lock = (key, Self.lockDigest(passphrase, key: key))
                served.failedUnlocks = 0
                state.sshSockets[socket] = served
                return true
            }
            return SSHAgentMessage.code(done ? SSHAgentMessage.success : SSHAgentMessage.failure)
        case .unlock(let passphrase):
            let outcome = state.withLock { state -> (Bool, Int) in
                guard var served = state.sshSockets[socket], let lock = served.lock else { return (false, 0) }
                let digest = Self.lockDigest(passphrase, key: lock.key)
                if constantTimeEquals(digest, lock.digest) {
                    served.lock = nil
                    served.failedUnlocks = 0
                    state.sshSockets[socket] = served
                    return (true, 0)
                }
                served.failedUnlocks += 1
                state.sshSockets[socket] = served
                return (false, served.failedUnlocks)
            }
            if !outcome.0 && outcome.1 > 0 {
                // As ssh-agent: a growing pause after each wrong passphrase, at most 10 s.
                usleep(UInt32(min(10_000_000, 100_000 * outcome.1 * outcome.1)))
            }
            return SSHAgentMessage.code(outcome.0 ? SSHAgentMessage.success : SSHAgentMessage.failure)
        case .refused:
            return failure
        }
    }
}

/// Asks on a terminal whether a key may be used: "Allow use of the SSH key ...? [y/N]", and
/// reads the answer within a time limit. Typed-ahead input is discarded first, so that nothing
/// typed before the question approves it. One question at a time.
enum TerminalConfirmation {
    private static let lock = NSLock()

    /// Whether the user answered yes (`y` or `yes`, any case) within `seconds`.
    static func ask(on fd: Int32, comment: String, fingerprint: String, vault: String, seconds: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let question = "\r\nmypass: allow use of the SSH key '\(Text.oneLine(comment))' (\(fingerprint)) of \(Text.oneLine(vault))? [y/N] "
        _ = tcflush(fd, TCIFLUSH)  // fails only when it is not a terminal: then nothing was typed ahead
        guard write(fd, question, question.utf8.count) > 0 else { return false }
        var answer: [UInt8] = []
        let deadline = ContinuousClock.now + .seconds(seconds)
        while answer.count < 16 {
            guard AgentSocket.waitReadable(fd, before: deadline) else { break }
            var byte: UInt8 = 0
            let count = read(fd, &byte, 1)
            if count < 0 && (errno == EAGAIN || errno == EINTR) { continue }
            guard count == 1 else { break }
            if byte == 0x0A || byte == 0x0D { break }
            answer.append(byte)
        }
        let text = String(decoding: answer, as: UTF8.self).lowercased()
        let allowed = text == "y" || text == "yes"
        let note = allowed ? "allowed\r\n" : "refused\r\n"
        _ = write(fd, note, note.utf8.count)
        return allowed
    }
}
