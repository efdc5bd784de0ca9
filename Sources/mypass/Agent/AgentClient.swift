import Foundation
import MyPassBytes
import MyPassCore
import MyPassKDBX
#if canImport(Glibc)
import Glibc
#endif

/// The keys the agent holds for one vault, ready for ``MyPassCore/VaultDocument/open(_:key:cachedKey:options:progress:)``.
struct AgentKeys {
    /// The composite key (reopens the vault after another client drew a new KDF seed: one KDF).
    var compositeKey: CompositeKey
    /// The transformed key and the KDF parameters it belongs to (no KDF while the seed stays).
    var cachedKey: CachedTransformedKey
    /// The vault's timeout, in seconds from its last use (`passwd` hands the new key over with it).
    var timeoutSeconds: UInt64?
}

/// What `mypass` commands ask of the agent (``AgentServer``). Every call that is not an explicit
/// agent command (`unlock`, `lock`, `status`) fails soft: without an agent the command asks for
/// the password as before.
enum AgentClient {
    /// The default timeout of `unlock`, in seconds (15 minutes).
    static let defaultTimeoutSeconds: UInt64 = 900
    /// The longest timeout accepted, in seconds (7 days).
    static let maxTimeoutSeconds: UInt64 = 7 * 86_400

    /// Whether commands may use the agent: not with `--no-agent` or `MYPASS_NO_AGENT=1`.
    static func isEnabled(_ parsed: ParsedArguments) -> Bool {
        !parsed.flag("no-agent") && ProcessInfo.processInfo.environment["MYPASS_NO_AGENT"] != "1"
    }

    /// The path the agent knows a vault by: absolute, symbolic links resolved.
    static func vaultKey(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// One request and its response.
    /// - Throws: ``AgentError``; `.protocolError` when the agent refused us or did not understand.
    static func exchange(_ request: AgentMessage) throws(AgentError) -> AgentMessage {
        let connection = try AgentSocket.connect()
        try connection.send(request)
        let response = try connection.receive()
        switch AgentMessage.Response(rawValue: response.code) {
        case .ok?, .notHeld?: return response
        case .refused?: throw .protocolError("the agent refused this connection")
        case .failed?: throw .protocolError(response.text(0) ?? "the agent could not do it")
        default: throw .protocolError("the agent did not understand the request")
        }
    }

    /// The keys held for the vault at `path`, or `nil` (not held, no agent, any failure). A key
    /// with a hardware key gets `challengeResponse` (the command line's) as that component, or
    /// one that fails saying how to give it: the agent keeps the other components and the
    /// transformed key, never a way to reach the hardware key.
    static func keys(forVault path: String, challengeResponse: ChallengeResponseKey? = nil) -> AgentKeys? {
        guard let key = vaultKey(path) else { return nil }
        guard let response = try? exchange(AgentMessage(.get, fields: [AgentMessage.field(key)])),
              response.code == AgentMessage.Response.ok.rawValue, response.fields.count == 5,
              let composite = compositeKey(response.fields[0], flags: response.fields[1], challengeResponse: challengeResponse),
              let kdf = kdfParameters(response.fields[3])
        else { return nil }
        return AgentKeys(compositeKey: composite,
                         cachedKey: CachedTransformedKey(transformedKey: response.fields[2], kdf: kdf),
                         timeoutSeconds: response.uint64(4))
    }

    /// The composite key of a `get` answer: its 32-byte hash, or, with flag bit 2 (a hardware
    /// key), its password and key-file components with `challengeResponse` as the hardware key.
    static func compositeKey(_ field: SecureBytes, flags flagsField: SecureBytes,
                             challengeResponse: ChallengeResponseKey?) -> CompositeKey? {
        let flags = flagsField.count == 1 ? flagsField[0] : 0
        guard flags & 4 != 0 else {
            return try? CompositeKey(rawKey: field, hasPassword: flags & 1 != 0, hasKeyFile: flags & 2 != 0)
        }
        let component = challengeResponse ?? .unavailable(
            "the key has a hardware key, and the command line gives none; give --yubikey SLOT[:SERIAL], "
                + "--challenge-response-secret-file FILE or --challenge-response-command COMMAND")
        return try? CompositeKey(fixedComponents: field, hasPassword: flags & 1 != 0, hasKeyFile: flags & 2 != 0,
                                 challengeResponse: component)
    }

    /// Hands a vault's keys to the agent for `timeoutSeconds` from the last use. A key with a
    /// hardware key goes as its other components (flag bit 2) and the transformed key, which
    /// stands for the response while the file keeps its seed.
    /// - Throws: ``AgentError``.
    static func store(vault path: String, key: CompositeKey, cachedKey: CachedTransformedKey,
                      timeoutSeconds: UInt64) throws(AgentError) {
        guard let vault = vaultKey(path) else { throw .unavailable("cannot resolve \(path)") }
        let flags = UInt8(key.hasPassword ? 1 : 0) | UInt8(key.hasKeyFile ? 2 : 0) | UInt8(key.hasChallengeResponse ? 4 : 0)
        let response = try exchange(AgentMessage(.put, fields: [
            AgentMessage.field(vault), key.hasChallengeResponse ? key.fixedComponents : key.rawKey, SecureBytes([flags]),
            cachedKey.transformedKey, kdfField(cachedKey.kdf), AgentMessage.field(timeoutSeconds),
        ]))
        guard response.code == AgentMessage.Response.ok.rawValue else { throw .protocolError("the agent did not take the key") }
    }

    /// Tells the agent the transformed key for the vault's new KDF seed (after a save, or after
    /// another client re-saved the file). Ignores every failure.
    static func update(vault path: String, cachedKey: CachedTransformedKey) {
        guard let vault = vaultKey(path) else { return }
        _ = try? exchange(AgentMessage(.updateKey, fields: [
            AgentMessage.field(vault), cachedKey.transformedKey, kdfField(cachedKey.kdf),
        ]))
    }

    /// Forgets one vault (`path`) or all (`nil`).
    /// - Returns: how many vaults the agent forgot.
    /// - Throws: ``AgentError``.
    @discardableResult
    static func lock(vault path: String?) throws(AgentError) -> Int {
        var fields: [SecureBytes] = []
        if let path { fields.append(AgentMessage.field(vaultKey(path) ?? path)) }
        let response = try exchange(AgentMessage(.lock, fields: fields))
        return Int(response.uint64(0) ?? 0)
    }

    /// The held vaults and the seconds left on each, sorted by path.
    /// - Throws: ``AgentError``.
    static func status() throws(AgentError) -> [(path: String, secondsLeft: UInt64)] {
        let response = try exchange(AgentMessage(.status))
        var result: [(path: String, secondsLeft: UInt64)] = []
        var index = 0
        while index + 1 < response.fields.count {
            if let path = response.text(index), let left = response.uint64(index + 1) { result.append((path, left)) }
            index += 2
        }
        return result
    }

    /// Starts `mypass agent` when none answers, detached (its own session, standard streams on
    /// `/dev/null`), and waits up to 5 seconds for its socket.
    /// - Throws: ``AgentError`` when it cannot be started or does not answer.
    static func ensureRunning() throws(AgentError) {
        if (try? AgentSocket.connect()) != nil { return }
        try AgentSocket.prepareDirectory()
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd in Int32(0)...2 {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let arguments = [executable, "agent"]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var attributes = Subprocess.backgroundSpawnAttributes()
        defer { posix_spawnattr_destroy(&attributes) }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, &argv, environ)
        guard spawned == 0 else { throw .unavailable("cannot start the agent: \(String(cString: strerror(spawned)))") }
        for _ in 0..<100 {
            if (try? AgentSocket.connect()) != nil { return }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { break }  // it exited: another agent won, or it failed
            usleep(50_000)
        }
        if (try? AgentSocket.connect()) != nil { return }
        throw .unavailable("the agent did not start")
    }

    static func kdfField(_ kdf: KDFParameters) -> SecureBytes { SecureBytes(kdf.dictionary.serialized()) }

    static func kdfParameters(_ field: SecureBytes) -> KDFParameters? {
        let bytes = field.unsafeArray
        guard let dictionary = try? VariantDictionary(parsing: bytes[...]) else { return nil }
        return try? KDFParameters(dictionary: dictionary)
    }
}

/// The SSH agent side of the agent protocol ('H', 'A', 'I'), for `mypass ssh-agent` and `status`.
extension AgentClient {
    /// One key an SSH socket of the agent offers.
    struct SSHListedKey {
        var vault: String
        var socket: String
        var publicKeyBlob: [UInt8]
        var comment: String
        var confirm: Bool
        /// Seconds until its lifetime ends, or `nil` without one.
        var secondsLeft: UInt64?
    }

    /// Makes the agent serve the SSH agent protocol on `socket` for the held vault at `path`,
    /// with no key yet (replacing what it offered for the vault there before).
    /// - Throws: ``AgentError``; `.protocolError` with the agent's reason when it cannot listen.
    static func sshServe(vault path: String, socket: String, terminal: String) throws(AgentError) {
        guard let vault = vaultKey(path) else { throw .unavailable("cannot resolve \(path)") }
        let response = try exchange(AgentMessage(.sshServe, fields: [
            AgentMessage.field(vault), AgentMessage.field(socket), AgentMessage.field(terminal),
        ]))
        guard response.code == AgentMessage.Response.ok.rawValue else { throw .protocolError("the agent does not hold the vault") }
    }

    /// Hands one key (in the agent's add-identity form) to the SSH socket.
    /// - Throws: ``AgentError``.
    static func sshAdd(vault path: String, socket: String, identity: SecureBytes, confirm: Bool,
                       lifetimeSeconds: UInt64) throws(AgentError) {
        guard let vault = vaultKey(path) else { throw .unavailable("cannot resolve \(path)") }
        var options = SecureBytes([confirm ? 1 : 0])
        options.append(contentsOf: AgentMessage.field(lifetimeSeconds).unsafeArray)
        let response = try exchange(AgentMessage(.sshAdd, fields: [
            AgentMessage.field(vault), AgentMessage.field(socket), identity, options,
        ]))
        guard response.code == AgentMessage.Response.ok.rawValue else { throw .protocolError("the agent does not hold the vault") }
    }

    /// The keys the agent's SSH sockets offer.
    /// - Throws: ``AgentError``.
    static func sshList() throws(AgentError) -> [SSHListedKey] {
        let response = try exchange(AgentMessage(.sshList))
        return response.fields.compactMap { field in
            var copy = field.unsafeArray
            defer { wipe(&copy) }
            var reader = SSHWireReader(copy)
            guard let vault = try? reader.readString(), let socket = try? reader.readString(),
                  let blob = try? reader.readString(), let comment = try? reader.readString(),
                  let confirm = try? reader.readUInt32(), let left = try? reader.readUInt32()
            else { return nil }
            return SSHListedKey(vault: String(decoding: vault, as: UTF8.self), socket: String(decoding: socket, as: UTF8.self),
                                publicKeyBlob: Array(blob), comment: String(decoding: comment, as: UTF8.self),
                                confirm: confirm != 0, secondsLeft: left == 0 ? nil : UInt64(left))
        }
    }
}
