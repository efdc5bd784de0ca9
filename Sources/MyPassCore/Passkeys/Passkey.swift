import MyPassBytes
import MyPassCrypto
import MyPassKDBX

/// A WebAuthn credential (a passkey) stored in a vault entry in KeePassXC's layout (see
/// ``PasskeyFieldNames``). The private key stays inside ``privateKey`` (wiping buffers);
/// `description` shows only the relying party, user and algorithm.
public struct Passkey: Sendable, CustomStringConvertible {
    /// The credential id (raw bytes; base64url in the entry).
    public var credentialID: [UInt8]
    /// The relying party id the credential is scoped to (W3C WebAuthn §5.1.4.1 `rp.id`).
    public var relyingParty: String
    /// The user name shown to the user.
    public var username: String
    /// The relying party's user handle (`user.id`), raw bytes; empty when the entry has none.
    public var userHandle: [UInt8]
    /// The signing key (ES256 or EdDSA).
    public var privateKey: SigningPrivateKey
    /// The BE flag sent in authenticator data (W3C WebAuthn §6.1, bit 3).
    public var backupEligible: Bool
    /// The BS flag sent in authenticator data (bit 4).
    public var backupState: Bool

    /// A passkey from its parts.
    public init(
        credentialID: [UInt8], relyingParty: String, username: String, userHandle: [UInt8],
        privateKey: SigningPrivateKey, backupEligible: Bool = true, backupState: Bool = true
    ) {
        self.credentialID = credentialID
        self.relyingParty = relyingParty
        self.username = username
        self.userHandle = userHandle
        self.privateKey = privateKey
        self.backupEligible = backupEligible
        self.backupState = backupState
    }

    /// A new passkey with a fresh key pair and a 32-byte credential id, both from the operating
    /// system's random source.
    /// - Parameters:
    ///   - relyingParty: the relying party's id (`rp.id`, a domain such as `example.com`).
    ///   - username: the account name shown to the user (`user.name`).
    ///   - algorithm: ES256 (default, what relying parties ask first) or EdDSA.
    ///   - userHandle: the relying party's `user.id` (1 to 64 bytes, WebAuthn §5.4.3); a random
    ///     16-byte handle when `nil`.
    public static func generate(
        relyingParty: String, username: String, userHandle: [UInt8]? = nil, algorithm: PasskeyAlgorithm = .es256
    ) -> Passkey {
        let key: SigningPrivateKey
        switch algorithm {
        case .es256: key = .p256(.generate())
        case .eddsa: key = .ed25519(.generate())
        }
        return Passkey(
            credentialID: SecureRandom.bytes(count: PasskeyFieldNames.credentialIDByteCount),
            relyingParty: relyingParty, username: username,
            userHandle: userHandle ?? SecureRandom.bytes(count: 16), privateKey: key)
    }

    /// The algorithm of the key.
    public var algorithm: PasskeyAlgorithm {
        switch privateKey {
        case .p256: return .es256
        case .ed25519: return .eddsa
        }
    }

    /// The credential id as stored: base64url without padding.
    public var credentialIDText: String { Base64URL.encode(credentialID) }

    /// The user handle as stored: base64url without padding.
    public var userHandleText: String { Base64URL.encode(userHandle) }

    /// Relying party, user, algorithm and credential id; never the key.
    public var description: String {
        "Passkey(\(relyingParty), user: \(username), \(algorithm.rawValue), id: \(credentialIDText))"
    }
}

/// The two passkey algorithms MyPass creates and uses.
public enum PasskeyAlgorithm: String, Sendable, CaseIterable {
    /// ECDSA P-256 with SHA-256, COSE -7.
    case es256
    /// Ed25519, COSE -8.
    case eddsa

    /// The COSE algorithm identifier (RFC 9053).
    public var coseIdentifier: Int { self == .es256 ? -7 : -8 }
}
