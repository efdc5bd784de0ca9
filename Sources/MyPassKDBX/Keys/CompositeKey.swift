import MyPassBytes
import MyPassCrypto

/// The composite key of a vault: SHA-256 over the 32-byte key components in KeePass's order,
/// password first, then the key file (KeePassLib `Keys/CompositeKey.cs CreateRawCompositeKey32`).
///
/// The password component is SHA-256 of the UTF-8 bytes exactly as given (no normalisation). An
/// empty password is a component (SHA-256 of zero bytes); `nil` means no password component, a
/// different key. Only the 32-byte hash is kept, in wiping storage.
public struct CompositeKey: Sendable, CustomStringConvertible {
    /// SHA-256 of the concatenated components (32 bytes).
    public let rawKey: SecureBytes
    /// Whether a password component is part of the key.
    public let hasPassword: Bool
    /// Whether a key-file component is part of the key.
    public let hasKeyFile: Bool

    /// Builds the composite key from a password and/or the contents of a key file.
    /// - Parameters:
    ///   - password: the password as typed, or `nil` for none (the empty password is a key).
    ///   - keyFileContents: the whole key file, in any form KeePass reads (see ``KeyFile``), or `nil`.
    /// - Throws: ``KDBXError`` `.missingKeyComponent` when both are `nil`; `.invalidKeyFile` for a
    ///   key file KeePass would refuse (XML 2.0 hash mismatch, malformed XML key file, empty file).
    public init(password: ProtectedString?, keyFileContents: [UInt8]?) throws(KDBXError) {
        guard password != nil || keyFileContents != nil else {
            throw KDBXError(.missingKeyComponent, "a password or a key file is needed")
        }
        var components = [UInt8]()
        defer { wipe(&components) }
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
        var digest = SHA256.hash(components)
        rawKey = SecureBytes(digest)
        wipe(&digest)
        hasPassword = password != nil
        hasKeyFile = keyFileContents != nil
    }

    /// A composite key from already-hashed 32-byte components (for challenge-response or tests).
    /// - Throws: ``KDBXError`` `.missingKeyComponent` for no components, `.invalidKeyFile` for a
    ///   component that is not 32 bytes.
    public init(components: [SecureBytes]) throws(KDBXError) {
        guard !components.isEmpty else { throw KDBXError(.missingKeyComponent, "no key component") }
        var joined = [UInt8]()
        defer { wipe(&joined) }
        for component in components {
            guard component.count == 32 else { throw KDBXError(.invalidKeyFile, "a key component must be 32 bytes") }
            component.withUnsafeBytes { joined.append(contentsOf: $0) }
        }
        var digest = SHA256.hash(joined)
        rawKey = SecureBytes(digest)
        wipe(&digest)
        hasPassword = false
        hasKeyFile = false
    }

    /// A composite key from its 32-byte hash as ``rawKey`` gave it, for a key kept by unlock-once
    /// (the agent, the app's Keychain item) and handed back later.
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
    }

    /// Never shows key material.
    public var description: String {
        "CompositeKey(password: \(hasPassword), keyFile: \(hasKeyFile))"
    }
}
