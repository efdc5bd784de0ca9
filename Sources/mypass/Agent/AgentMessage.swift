import MyPassBytes

/// One request or response of the agent protocol: a code byte and a list of byte fields.
///
/// The protocol (one request, one response, then the connection closes):
///
/// ```
/// frame    = length:u32le body              length 1 ... 65,536
/// body     = code:u8 field*
/// field    = length:u32le bytes             fields of at most 65,536 bytes, at most 256 fields
///
/// request  code   fields                                      response fields (code 0 = ok)
/// 'S' status      —                                           (path, seconds-left:u64le)*
/// 'G' get         path                                        composite-key flags(1)
///                                                             transformed-key kdf seconds-left:u64le
/// 'P' put         path composite-key flags(1)                 —
///                 transformed-key kdf timeout-seconds:u64le
/// 'K' update key  path transformed-key kdf                    —
/// 'L' lock        path, or no field for every vault           count:u64le
/// 'H' SSH serve   path socket-path terminal-path              —
///                 (serve the SSH agent protocol on socket-path for the held vault, with no
///                 key yet; the terminal, possibly empty, is where confirmations are asked)
/// 'A' SSH add     path socket-path identity options           —
///                 (identity: a key in SSH_AGENTC_ADD_IDENTITY's form, comment included;
///                 options: confirm:u8 lifetime-seconds:u64le, 0 for none)
/// 'I' SSH list    —                                           identity*: each an SSH-wire
///                 string vault, string socket, string key-blob, string comment,
///                 uint32 confirm, uint32 seconds-left (0: no lifetime)
///
/// response codes: 0 ok, 1 not held, 2 refused (another user), 3 bad request, 4 failed (field 0:
/// the reason)
/// path   = the vault's real path (symbolic links resolved), UTF-8
/// flags  = bit 0: the composite key has a password, bit 1: it has a key file,
///          bit 2: it has a challenge-response component (a hardware key)
/// composite-key = its 32-byte hash; with flag bit 2, its password and key-file
///          components instead (0, 32 or 64 bytes), to which a response is added
/// transformed-key = 32 bytes; 64 for a KDBX 3.1 vault with a challenge-response
///          component (SHA-256 of the response, then the KDF output)
/// kdf    = the KDF parameters the transformed key was derived for, as a KDBX 4
///          VariantDictionary (header field 11), seed included
/// ```
///
/// Every field is held in wiping storage (``SecureBytes``), paths included, so that a frame never
/// leaves a copy of a key in freed memory.
struct AgentMessage {
    /// The largest frame body accepted, in bytes.
    static let maxBodyBytes = 65_536
    /// The most fields a message may have.
    static let maxFields = 256

    /// Request codes.
    enum Request: UInt8 {
        case status = 0x53
        case get = 0x47
        case put = 0x50
        case updateKey = 0x4B
        case lock = 0x4C
        case sshServe = 0x48
        case sshAdd = 0x41
        case sshList = 0x49

        /// Whether the request changes what the agent holds.
        var changesState: Bool { self != .status && self != .get && self != .sshList }
    }

    /// Response codes.
    enum Response: UInt8 {
        case ok = 0
        case notHeld = 1
        case refused = 2
        case badRequest = 3
        /// The request was understood and could not be carried out; field 0 says why.
        case failed = 4
    }

    /// Whether `field` can be a `put`'s composite key: 32 bytes (its hash), or 0 or 64 (the
    /// components of a key with a hardware key; 32 is one component too).
    static func isCompositeKeyField(_ field: SecureBytes) -> Bool { field.count <= 64 && field.count % 32 == 0 }

    /// Whether `field` can be a transformed key: 32 bytes, or 64 (KDBX 3.1 with a hardware key).
    static func isTransformedKeyField(_ field: SecureBytes) -> Bool { field.count == 32 || field.count == 64 }

    /// The request or response code.
    var code: UInt8
    /// The fields, in order.
    var fields: [SecureBytes]

    init(code: UInt8, fields: [SecureBytes] = []) {
        self.code = code
        self.fields = fields
    }

    init(_ request: Request, fields: [SecureBytes] = []) { self.init(code: request.rawValue, fields: fields) }

    init(_ response: Response, fields: [SecureBytes] = []) { self.init(code: response.rawValue, fields: fields) }

    /// The frame body: code, then each field with its length.
    func encodedBody() -> SecureBytes {
        var body = SecureBytes()
        body.append(code)
        for field in fields {
            body.append(contentsOf: Self.uint32LE(UInt32(field.count)))
            field.withUnsafeBytes { body.append(contentsOf: $0) }
        }
        return body
    }

    /// Parses a frame body.
    /// - Throws: ``AgentError/protocolError(_:)`` for a field that runs past the end or too many fields.
    init(body: SecureBytes) throws(AgentError) {
        guard !body.isEmpty else { throw .protocolError("empty message") }
        var fields: [SecureBytes] = []
        let code = body[0]
        let failure = body.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> String? in
            var offset = 1
            while offset < raw.count {
                guard raw.count - offset >= 4 else { return "truncated field length" }
                let length = Int(raw[offset]) | Int(raw[offset + 1]) << 8 | Int(raw[offset + 2]) << 16 | Int(raw[offset + 3]) << 24
                offset += 4
                guard length <= raw.count - offset else { return "field longer than the message" }
                guard fields.count < Self.maxFields else { return "too many fields" }
                fields.append(SecureBytes(UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + length)])))
                offset += length
            }
            return nil
        }
        if let failure { throw .protocolError(failure) }
        self.init(code: code, fields: fields)
    }

    /// Field `index` as UTF-8 text (a path), or `nil` when absent or not UTF-8.
    func text(_ index: Int) -> String? {
        guard index < fields.count else { return nil }
        return fields[index].withUnsafeBytes { String(validatingUTF8Bytes: $0) }
    }

    /// Field `index` as a little-endian UInt64, or `nil` when absent or not 8 bytes.
    func uint64(_ index: Int) -> UInt64? {
        guard index < fields.count, fields[index].count == 8 else { return nil }
        return fields[index].withUnsafeBytes { raw in
            raw.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        }
    }

    /// A text field.
    static func field(_ text: String) -> SecureBytes { SecureBytes(Array(text.utf8)) }

    /// A little-endian UInt64 field.
    static func field(_ value: UInt64) -> SecureBytes {
        SecureBytes((0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) })
    }

    static func uint32LE(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) }
    }
}

/// Why talking to the agent failed. Never carries key material.
enum AgentError: Error, Sendable {
    /// No agent listens (no socket, a stale socket, or it went away): fall back to asking.
    case unavailable(String)
    /// The socket or its directory is not safe to use (another owner, loose modes).
    case unsafe(String)
    /// The peer broke the protocol or refused us.
    case protocolError(String)
    /// The agent accepted the connection but did not answer in time (stopped, or overloaded):
    /// not the same as "nothing is unlocked".
    case timedOut(String)

    /// One line for the user.
    var reason: String {
        switch self {
        case .unavailable(let text), .unsafe(let text), .protocolError(let text), .timedOut(let text): return text
        }
    }
}
