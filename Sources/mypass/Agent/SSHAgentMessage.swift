import MyPassBytes

/// One message of the SSH agent protocol (draft-miller-ssh-agent, now RFC 9987: the protocol
/// OpenSSH's `ssh`, `ssh-add` and `ssh-keygen` speak to `$SSH_AUTH_SOCK`), as the agent reads it.
///
/// ```
/// frame   = length:uint32 (big-endian) body          length 1 ... 262,144
/// body    = type:byte contents
///
/// request (type)                  contents                             answer
/// 11 REQUEST_IDENTITIES           —                                    12 IDENTITIES_ANSWER
/// 13 SIGN_REQUEST                 string key-blob, string data,        14 SIGN_RESPONSE string signature,
///                                 uint32 flags (2: rsa-sha2-256,          or 5 FAILURE
///                                 4: rsa-sha2-512)
/// 17 ADD_IDENTITY, 25 ADD_ID_CONSTRAINED, 18 REMOVE_IDENTITY, 19 REMOVE_ALL_IDENTITIES,
/// 20 ADD_SMARTCARD_KEY, 21 REMOVE_SMARTCARD_KEY, 26 ADD_SMARTCARD_KEY_CONSTRAINED
///                                 (not read)                           5 FAILURE: keys come from the vault
/// 22 LOCK, 23 UNLOCK              string passphrase                    6 SUCCESS or 5 FAILURE
/// 27 EXTENSION                    string name, ...                     5 FAILURE (none is supported)
/// anything else                                                        5 FAILURE
/// ```
enum SSHAgentMessage {
    /// The largest frame body read, in bytes (OpenSSH's AGENT_MAX_LEN).
    static let maxBodyBytes = 256 * 1024

    static let failure: UInt8 = 5
    static let success: UInt8 = 6
    static let requestIdentities: UInt8 = 11
    static let identitiesAnswer: UInt8 = 12
    static let signRequest: UInt8 = 13
    static let signResponse: UInt8 = 14
    static let lock: UInt8 = 22
    static let unlock: UInt8 = 23
    static let extensionRequest: UInt8 = 27
    /// The requests that add or remove keys, refused: the keys are the vault's.
    static let keyManagement: Set<UInt8> = [17, 18, 19, 20, 21, 25, 26]

    /// A request, read.
    enum Request {
        case requestIdentities
        case sign(keyBlob: [UInt8], data: [UInt8], flags: UInt32)
        case lock(passphrase: SecureBytes)
        case unlock(passphrase: SecureBytes)
        /// Add or remove requests (refused), extensions (unsupported), unknown types.
        case refused(type: UInt8)
    }

    /// Reads a frame body (type byte, contents).
    /// - Throws: ``AgentError/protocolError(_:)`` for an empty body, or contents that do not
    ///   match the type (truncated, trailing bytes).
    static func read(_ body: SecureBytes) throws(AgentError) -> Request {
        guard !body.isEmpty else { throw .protocolError("empty message") }
        let type = body[0]
        var copy = body.unsafeArray
        defer { wipe(&copy) }
        var reader = SSHWireReader(copy[1...])
        do throws(BytesError) {
            switch type {
            case requestIdentities:
                try reader.finish()
                return .requestIdentities
            case signRequest:
                let blob = Array(try reader.readString())
                let data = Array(try reader.readString())
                let flags = try reader.readUInt32()
                try reader.finish()
                return .sign(keyBlob: blob, data: data, flags: flags)
            case lock, unlock:
                let passphrase = SecureBytes(try reader.readString())
                try reader.finish()
                return type == lock ? .lock(passphrase: passphrase) : .unlock(passphrase: passphrase)
            default:
                return .refused(type: type)
            }
        } catch {
            throw .protocolError("SSH agent message \(type): \(error)")
        }
    }

    /// The frame of an answer: length, then `body`.
    static func frame(_ body: SecureBytes) -> SecureBytes {
        var writer = SSHWireWriter()
        body.withUnsafeBytes { writer.writeString($0) }
        return writer.bytes
    }

    /// `SSH_AGENT_IDENTITIES_ANSWER`: count, then each key blob and comment.
    static func identities(_ keys: [(blob: [UInt8], comment: String)]) -> SecureBytes {
        var writer = SSHWireWriter()
        writer.writeByte(identitiesAnswer)
        writer.writeUInt32(UInt32(keys.count))
        for key in keys {
            writer.writeString(key.blob)
            writer.writeString(key.comment)
        }
        return writer.bytes
    }

    /// `SSH_AGENT_SIGN_RESPONSE` with the signature.
    static func signature(_ signature: [UInt8]) -> SecureBytes {
        var writer = SSHWireWriter()
        writer.writeByte(signResponse)
        writer.writeString(signature)
        return writer.bytes
    }

    /// A one-byte answer (`SSH_AGENT_FAILURE`, `SSH_AGENT_SUCCESS`).
    static func code(_ code: UInt8) -> SecureBytes { SecureBytes([code]) }
}
