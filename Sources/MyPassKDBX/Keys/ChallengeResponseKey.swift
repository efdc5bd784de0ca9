import MyPassBytes
import MyPassCrypto

/// The challenge-response component of a composite key: a hardware key's HMAC-SHA1 slot (a YubiKey
/// as KeePassXC, KeePassium, Strongbox and KeePassDX use it), or anything that answers like one,
/// turning a file's challenge into a 20-byte response.
///
/// The challenge is a random value of the file itself, so it changes on every save:
/// - KDBX 4: the KDF seed (`S` of the KDF parameters, header field 11: the Argon2 salt or the
///   AES-KDF seed). SHA-256 of the response is the last 32-byte component of the composite key,
///   after the password and the key file, so it goes through the KDF.
/// - KDBX 3.1: the master seed (header field 4). The response enters after the KDF: the payload
///   key is SHA-256(master seed ‖ SHA-256(response) ‖ transformed key).
///
/// This is KeePassXC's format (`ChallengeResponseKey`, `Kdbx4Reader`/`Kdbx3Reader`), which
/// KeePassium, Strongbox and KeePassDX write too. A responder is called once per open that has no
/// fitting cached transformed key, and once per save (the new seed is a new challenge); it may
/// throw (no key inserted: ``KDBXError/Code/missingKeyComponent``) or be cancelled
/// (``KDBXError/Code/cancelled``), and the open or save stops there, before anything is written.
/// Neither the response nor a secret ever reaches an error or a description.
public struct ChallengeResponseKey: Sendable, CustomStringConvertible {
    /// Answers a challenge (the file's seed, 32 bytes as every client writes it) with the
    /// 20-byte HMAC-SHA1 response, in wiping storage.
    /// - Throws: ``KDBXError`` `.missingKeyComponent` when no answer can be had (no key present,
    ///   the tool failed), `.cancelled` when the user stopped it.
    public typealias Responder = @Sendable (_ challenge: [UInt8]) throws(KDBXError) -> SecureBytes

    /// The byte count of an HMAC-SHA1 response.
    public static let responseByteCount = 20

    private let responder: Responder

    /// A component answered by `responder`.
    public init(responder: @escaping Responder) {
        self.responder = responder
    }

    /// The response to `challenge`, checked to be 20 bytes.
    /// - Throws: ``KDBXError`` `.missingKeyComponent` (the responder failed, or its answer is not
    ///   20 bytes), `.cancelled`.
    public func response(to challenge: [UInt8]) throws(KDBXError) -> SecureBytes {
        let response = try responder(challenge)
        guard response.count == Self.responseByteCount else {
            throw KDBXError(.missingKeyComponent, "the challenge-response answer has \(response.count) bytes, not 20")
        }
        return response
    }

    /// The key component for `challenge`: SHA-256 of the response (32 bytes), as KeePassXC's
    /// `ChallengeResponseKey::rawKey` gives it.
    /// - Throws: as ``response(to:)``.
    public func component(for challenge: [UInt8]) throws(KDBXError) -> SecureBytes {
        let response = try self.response(to: challenge)
        var digest = response.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> [UInt8] in
            var hasher = SHA256()
            hasher.update(raw)
            return hasher.finalize()
        }
        defer { wipe(&digest) }
        return SecureBytes(digest)
    }

    /// A responder that never answers: it throws `.missingKeyComponent` with `reason` (for a key
    /// known to have the component when no way to answer was given, such as keys kept by
    /// unlock-once: they open the vault while its seed stays, and a save says what is missing).
    public static func unavailable(_ reason: String) -> ChallengeResponseKey {
        ChallengeResponseKey { (_: [UInt8]) throws(KDBXError) -> SecureBytes in
            throw KDBXError(.missingKeyComponent, reason)
        }
    }

    /// Never shows key material.
    public var description: String { "ChallengeResponseKey(…)" }
}

extension ChallengeResponseKey {
    /// A key that computes the response in software from its HMAC-SHA1 secret (a "virtual key":
    /// the secret a YubiKey slot was programmed with, 20 bytes as `ykpersonalize -ochal-hmac` and
    /// `ykman otp chalresp` take it), answering exactly as that YubiKey answers KeePassXC:
    /// HMAC-SHA1(secret, ``YubiKeyChallenge/hashedMessage(for:)``). The secret stays in wiping
    /// storage and is shared by the copies of this value.
    /// - Parameter secret: the HMAC key, any length (a YubiKey holds 20 bytes).
    public static func hmacSHA1(secret: SecureBytes) -> ChallengeResponseKey {
        ChallengeResponseKey { (challenge: [UInt8]) throws(KDBXError) -> SecureBytes in
            let message = try YubiKeyChallenge.hashedMessage(for: challenge)
            var mac = HMAC<SHA1>(key: secret)
            mac.update(message)
            var tag = mac.finalize()
            defer { wipe(&tag) }
            return SecureBytes(tag)
        }
    }
}

/// How a challenge travels to a YubiKey's HMAC-SHA1 slot and what the key hashes of it.
///
/// KeePassXC, KeePassium and Strongbox send the challenge padded to the 64-byte block the key
/// takes, PKCS#7 style (32 bytes of 0x20 after a 32-byte seed), to a slot configured for
/// variable-length input (`-ohmac-lt64`, the default of `ykman otp chalresp`). Such a slot takes
/// the last of the 64 bytes as padding and strips it with every byte of the same value before
/// it, whatever that value is; the response is HMAC-SHA1 of what is left. So a seed whose last
/// byte is 0x20 loses that byte (and any 0x20 before it) from the hashed message: neither client
/// treats it specially, and their files then need that exact response. MyPass does the same when
/// it answers (the `ykchalresp` responder sends the 64 padded bytes, the software responder
/// strips as the key does), so such a vault opens with the same key in every client; and a save
/// by MyPass draws a challenge whose last byte is neither 0x20 nor 0x00
/// (``KDBXSavePlan``), so that its response is plain HMAC-SHA1 of the 32 bytes under every
/// padding (PKCS#7, zeros as `ykchalresp` pads a short challenge, none).
public enum YubiKeyChallenge {
    /// The block a YubiKey HMAC-SHA1 slot takes, in bytes.
    public static let blockByteCount = 64

    /// The 64 bytes sent to the key: `challenge` padded PKCS#7 style (each padding byte holds the
    /// padding's length), as KeePassXC's `YubiKeyInterfaceUSB::performChallenge` and
    /// KeePassium send it. A 64-byte challenge is sent as it is.
    /// - Throws: ``KDBXError`` `.unsupported` for a challenge longer than 64 bytes (a KDF seed that
    ///   long cannot go to a hardware key).
    public static func padded(_ challenge: [UInt8]) throws(KDBXError) -> [UInt8] {
        guard challenge.count <= blockByteCount else {
            throw KDBXError(.unsupported, "a challenge of \(challenge.count) bytes is longer than the 64 bytes a hardware key takes",
                            location: "KDF parameter S")
        }
        let padding = blockByteCount - challenge.count
        return challenge + [UInt8](repeating: UInt8(padding), count: padding)
    }

    /// What a variable-length YubiKey slot hashes of ``padded(_:)``: the 64 bytes without the
    /// run of bytes equal to the last one at their end (for a 32-byte challenge: the challenge
    /// without its trailing 0x20 bytes).
    /// - Throws: as ``padded(_:)``.
    public static func hashedMessage(for challenge: [UInt8]) throws(KDBXError) -> ArraySlice<UInt8> {
        let block = try padded(challenge)
        let last = block[block.count - 1]
        var end = block.count
        while end > 0 && block[end - 1] == last { end -= 1 }
        return block[0..<end]
    }

    /// Whether `challenge` is hashed as it is under every padding a client or tool uses: its last
    /// byte is neither 0x20 (what PKCS#7 pads a 32-byte challenge with) nor 0x00 (zero padding).
    public static func isPaddingNeutral(_ challenge: [UInt8]) -> Bool {
        guard let last = challenge.last else { return false }
        return last != 0x20 && last != 0x00
    }
}
