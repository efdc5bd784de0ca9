import MyPassBytes
import MyPassCrypto

/// The composite key of a vault: SHA-256 over the 32-byte key components in KeePass's order,
/// password first, then the key file (KeePassLib `Keys/CompositeKey.cs CreateRawCompositeKey32`),
/// then, in KDBX 4, the challenge-response component (KeePassXC's order).
///
/// The password component is SHA-256 of the UTF-8 bytes exactly as given (no normalisation). An
/// empty password is a component (SHA-256 of zero bytes); `nil` means no password component, a
/// different key. The hashes are kept in wiping storage.
///
/// A challenge-response component (``challengeResponse``, a YubiKey's HMAC-SHA1 slot) is answered
/// per file, for the file's own challenge: ``MasterKeys/transformedKey(compositeKey:version:kdf:masterSeed:limits:progress:transform:)``
/// asks it and folds the response in as the version requires. Such a key also keeps its other
/// components (``fixedComponents``), which the KDBX 4 composite key hashes with each new response;
/// a key without one keeps their hash alone.
public struct CompositeKey: Sendable, CustomStringConvertible {
    /// SHA-256 of the concatenated password and key-file components (32 bytes): the whole
    /// composite key when there is no challenge-response component, and the one the KDF takes in
    /// KDBX 3.1 when there is.
    public let rawKey: SecureBytes
    /// Whether a password component is part of the key.
    public let hasPassword: Bool
    /// Whether a key-file component is part of the key.
    public let hasKeyFile: Bool
    /// The challenge-response component, or `nil` when the key has none.
    public let challengeResponse: ChallengeResponseKey?
    /// The password and key-file components, 32 bytes each, in order (0, 32 or 64 bytes), kept
    /// only while the key has a challenge-response component (a save hashes them with the new
    /// response); empty otherwise, so that an unlocked vault without one holds no password hash.
    public let fixedComponents: SecureBytes

    /// Whether a challenge-response component is part of the key.
    public var hasChallengeResponse: Bool { challengeResponse != nil }

    /// Builds the composite key from a password and/or the contents of a key file, and a
    /// challenge-response component.
    /// - Parameters:
    ///   - password: the password as typed, or `nil` for none (the empty password is a key).
    ///   - keyFileContents: the whole key file, in any form KeePass reads (see ``KeyFile``), or `nil`.
    ///   - challengeResponse: the challenge-response component (a hardware key), or `nil`.
    /// - Throws: ``KDBXError`` `.missingKeyComponent` when all three are `nil`; `.invalidKeyFile` for a
    ///   key file KeePass would refuse (XML 2.0 hash mismatch, malformed XML key file, empty file).
    public init(password: ProtectedString?, keyFileContents: [UInt8]?,
                challengeResponse: ChallengeResponseKey? = nil) throws(KDBXError) {
        guard password != nil || keyFileContents != nil || challengeResponse != nil else {
            throw KDBXError(.missingKeyComponent, "a password, a key file or a challenge-response key is needed")
        }
        var components = SecureBytes()
        components.reserveCapacity(64)
        if let password {
            // Streamed from the revealed bytes: no plain copy of the password is made here.
            var hasher = SHA256()
            password.withRevealedBytes { hasher.update($0) }
            var digest = hasher.finalize()
            components.append(contentsOf: digest)
            wipe(&digest)
        }
        if let keyFileContents {
            let fileKey = try KeyFile.key(from: keyFileContents)
            fileKey.withUnsafeBytes { components.append(contentsOf: $0) }
        }
        self.init(joined: components, hasPassword: password != nil, hasKeyFile: keyFileContents != nil,
                  challengeResponse: challengeResponse)
    }

    /// A composite key from already-hashed 32-byte components (for tests, and for a key whose
    /// response is already known: its SHA-256 as the last component gives the KDBX 4 key).
    /// - Throws: ``KDBXError`` `.missingKeyComponent` for no components, `.invalidKeyFile` for a
    ///   component that is not 32 bytes.
    public init(components: [SecureBytes]) throws(KDBXError) {
        guard !components.isEmpty else { throw KDBXError(.missingKeyComponent, "no key component") }
        var joined = SecureBytes()
        for component in components {
            guard component.count == 32 else { throw KDBXError(.invalidKeyFile, "a key component must be 32 bytes") }
            component.withUnsafeBytes { joined.append(contentsOf: $0) }
        }
        self.init(joined: joined, hasPassword: false, hasKeyFile: false, challengeResponse: nil)
    }

    /// A composite key with a challenge-response component from its other components as
    /// ``fixedComponents`` gave them, for a key kept by unlock-once (the agent, the app's
    /// Keychain item) and handed back later.
    /// - Parameters:
    ///   - fixedComponents: the password and key-file components, 32 bytes each (0, 32 or 64 bytes).
    ///   - hasPassword: whether a password component is among them (first).
    ///   - hasKeyFile: whether a key-file component is among them (after the password's).
    ///   - challengeResponse: the challenge-response component.
    /// - Throws: ``KDBXError`` `.missingKeyComponent` when the byte count does not match the flags.
    public init(fixedComponents: SecureBytes, hasPassword: Bool, hasKeyFile: Bool,
                challengeResponse: ChallengeResponseKey) throws(KDBXError) {
        guard fixedComponents.count == 32 * ((hasPassword ? 1 : 0) + (hasKeyFile ? 1 : 0)) else {
            throw KDBXError(.missingKeyComponent, "the key components do not match their description")
        }
        self.init(joined: fixedComponents, hasPassword: hasPassword, hasKeyFile: hasKeyFile, challengeResponse: challengeResponse)
    }

    /// A composite key from its 32-byte hash as ``rawKey`` gave it, for a key without a
    /// challenge-response component kept by unlock-once (the agent, the app's Keychain item) and
    /// handed back later.
    /// - Parameters:
    ///   - rawKey: the 32-byte composite key hash.
    ///   - hasPassword: whether a password component was part of it.
    ///   - hasKeyFile: whether a key-file component was part of it.
    /// - Throws: ``KDBXError`` `.missingKeyComponent` when `rawKey` is not 32 bytes.
    public init(rawKey: SecureBytes, hasPassword: Bool, hasKeyFile: Bool) throws(KDBXError) {
        guard rawKey.count == 32 else { throw KDBXError(.missingKeyComponent, "a composite key is 32 bytes") }
        self.rawKey = rawKey
        self.hasPassword = hasPassword
        self.hasKeyFile = hasKeyFile
        challengeResponse = nil
        fixedComponents = SecureBytes()
    }

    private init(joined: SecureBytes, hasPassword: Bool, hasKeyFile: Bool, challengeResponse: ChallengeResponseKey?) {
        var digest = joined.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> [UInt8] in
            var hasher = SHA256()
            hasher.update(raw)
            return hasher.finalize()
        }
        rawKey = SecureBytes(digest)
        wipe(&digest)
        self.hasPassword = hasPassword
        self.hasKeyFile = hasKeyFile
        self.challengeResponse = challengeResponse
        fixedComponents = challengeResponse == nil ? SecureBytes() : joined
    }

    /// The same password and key-file components with `challengeResponse` as the
    /// challenge-response component instead (`nil`: none), as a key change replaces or removes
    /// it. To add one to a key without one, build the key again from the password and key file
    /// (``init(password:keyFileContents:challengeResponse:)``): such a key keeps their hash alone.
    /// - Throws: ``KDBXError`` `.missingKeyComponent` when the key has no challenge-response
    ///   component and one is given, or when no component would be left.
    public func replacingChallengeResponse(with challengeResponse: ChallengeResponseKey?) throws(KDBXError) -> CompositeKey {
        guard hasChallengeResponse else {
            guard challengeResponse == nil else {
                throw KDBXError(.missingKeyComponent, "this key keeps its components' hash alone; build it again with the hardware key to add one")
            }
            return self
        }
        guard challengeResponse != nil || hasPassword || hasKeyFile else {
            throw KDBXError(.missingKeyComponent, "no key component would be left")
        }
        return CompositeKey(joined: fixedComponents, hasPassword: hasPassword, hasKeyFile: hasKeyFile,
                            challengeResponse: challengeResponse)
    }

    /// The key without its challenge-response component: the one the KDF takes in KDBX 3.1.
    var withoutChallengeResponse: CompositeKey {
        guard hasChallengeResponse else { return self }
        return CompositeKey(joined: fixedComponents, hasPassword: hasPassword, hasKeyFile: hasKeyFile, challengeResponse: nil)
    }

    /// The KDBX 4 composite key for a known response component (SHA-256 of the response):
    /// SHA-256(``fixedComponents`` ‖ component), without a challenge-response component left.
    func answered(with component: SecureBytes) -> CompositeKey {
        var joined = fixedComponents
        component.withUnsafeBytes { joined.append(contentsOf: $0) }
        return CompositeKey(joined: joined, hasPassword: hasPassword, hasKeyFile: hasKeyFile, challengeResponse: nil)
    }

    /// Never shows key material.
    public var description: String {
        "CompositeKey(password: \(hasPassword), keyFile: \(hasKeyFile), challengeResponse: \(hasChallengeResponse))"
    }
}
