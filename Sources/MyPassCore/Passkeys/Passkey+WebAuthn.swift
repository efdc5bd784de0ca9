import MyPassBytes
import MyPassCrypto

/// The flags byte of WebAuthn authenticator data (W3C Web Authentication Level 3 §6.1).
public struct AuthenticatorDataFlags: OptionSet, Sendable {
    /// The raw byte.
    public let rawValue: UInt8
    /// A flags value from its byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Bit 0, user present.
    public static let userPresent = AuthenticatorDataFlags(rawValue: 0x01)
    /// Bit 2, user verified.
    public static let userVerified = AuthenticatorDataFlags(rawValue: 0x04)
    /// Bit 3, backup eligible.
    public static let backupEligible = AuthenticatorDataFlags(rawValue: 0x08)
    /// Bit 4, backed up.
    public static let backupState = AuthenticatorDataFlags(rawValue: 0x10)
    /// Bit 6, attested credential data included.
    public static let attestedCredentialData = AuthenticatorDataFlags(rawValue: 0x40)
}

/// What an authenticator returns for `navigator.credentials.get()` (W3C WebAuthn §5.2.2).
public struct PasskeyAssertion: Sendable {
    /// The credential id.
    public var credentialID: [UInt8]
    /// The authenticator data (37 bytes: rpIdHash, flags, counter 0).
    public var authenticatorData: [UInt8]
    /// The signature over authenticatorData || clientDataHash: DER for ES256, 64 raw bytes for EdDSA.
    public var signature: [UInt8]
    /// The user handle (empty when the entry has none).
    public var userHandle: [UInt8]
}

/// What an authenticator returns for `navigator.credentials.create()` with "none" attestation
/// (W3C WebAuthn §5.2.1, §8.7).
public struct PasskeyRegistration: Sendable {
    /// The credential id.
    public var credentialID: [UInt8]
    /// The authenticator data with attested credential data (AAGUID, id, COSE public key).
    public var authenticatorData: [UInt8]
    /// The CBOR attestation object {"fmt": "none", "attStmt": {}, "authData": ...} (§6.5).
    public var attestationObject: [UInt8]
    /// The public key as a COSE_Key.
    public var publicKeyCOSE: [UInt8]
    /// The COSE algorithm (-7 or -8).
    public var publicKeyAlgorithm: Int
}

extension Passkey {
    /// The flags this passkey reports: UP and UV (the vault was unlocked by its owner, as
    /// KeePassXC reports), BE and BS as stored.
    public var flags: AuthenticatorDataFlags {
        var flags: AuthenticatorDataFlags = [.userPresent, .userVerified]
        if backupEligible { flags.insert(.backupEligible) }
        if backupState { flags.insert(.backupState) }
        return flags
    }

    /// Authenticator data (W3C WebAuthn §6.1): SHA-256(relying party id), 32 bytes; the flags
    /// byte; the signature counter, 4 bytes big-endian, always 0 (a synced passkey cannot keep a
    /// counter, §6.1.1); with `attested`, the attested credential data (§6.5.2): KeePassXC's AAGUID
    /// (16 bytes), the credential id length (2 bytes big-endian), the id and the COSE public key.
    public func authenticatorData(attested: Bool) -> [UInt8] {
        var flags = self.flags
        if attested { flags.insert(.attestedCredentialData) }
        var data = SHA256.hash(Array(relyingParty.utf8))
        data.append(flags.rawValue)
        data += [0, 0, 0, 0]
        if attested {
            data += PasskeyFieldNames.aaguid
            data += [UInt8(truncatingIfNeeded: credentialID.count >> 8), UInt8(truncatingIfNeeded: credentialID.count)]
            data += credentialID
            data += privateKey.publicKey.coseKey
        }
        return data
    }

    /// Signs an assertion (W3C WebAuthn §6.3.3 steps 10-13) for `clientDataHash`, the 32-byte
    /// SHA-256 of the client's `clientDataJSON`.
    /// - Parameters:
    ///   - clientDataHash: the SHA-256 of `clientDataJSON`, 32 bytes.
    ///   - relyingPartyID: the `rpId` of the request; it must equal the stored relying
    ///     party (compared in ASCII lower case), as an authenticator never signs for another.
    /// - Throws: ``CoreError/Code/invalidOperation`` for a hash of another length or a different
    ///   relying party.
    public func assertion(clientDataHash: [UInt8], relyingPartyID: String? = nil) throws(CoreError) -> PasskeyAssertion {
        guard clientDataHash.count == 32 else {
            throw CoreError(.invalidOperation, "the client data hash must be 32 bytes (SHA-256)")
        }
        if let relyingPartyID, relyingPartyID.lowercased() != relyingParty.lowercased() {
            throw CoreError(.invalidOperation, "the passkey is for \(relyingParty), not \(relyingPartyID)")
        }
        let data = authenticatorData(attested: false)
        return PasskeyAssertion(
            credentialID: credentialID, authenticatorData: data,
            signature: privateKey.webAuthnSignature(for: data + clientDataHash), userHandle: userHandle)
    }

    /// The registration response with "none" attestation (W3C WebAuthn §8.7): the attested
    /// authenticator data and the attestation object in canonical CBOR (RFC 8949 §4.2.1).
    public var registration: PasskeyRegistration {
        let data = authenticatorData(attested: true)
        var object: [UInt8] = [0xA3]
        object += CBOR.text("fmt") + CBOR.text("none")
        object += CBOR.text("attStmt") + [0xA0]
        object += CBOR.text("authData") + CBOR.bytes(data)
        return PasskeyRegistration(
            credentialID: credentialID, authenticatorData: data, attestationObject: object,
            publicKeyCOSE: privateKey.publicKey.coseKey, publicKeyAlgorithm: algorithm.coseIdentifier)
    }
}

/// The few CBOR heads (RFC 8949 §3) an attestation object needs.
enum CBOR {
    static func head(_ major: UInt8, _ length: Int) -> [UInt8] {
        switch length {
        case 0..<24: return [major << 5 | UInt8(length)]
        case 24..<256: return [major << 5 | 24, UInt8(length)]
        default: return [major << 5 | 25, UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
        }
    }

    static func text(_ string: String) -> [UInt8] { head(3, string.utf8.count) + Array(string.utf8) }
    static func bytes(_ value: [UInt8]) -> [UInt8] { head(2, value.count) + value }
}
