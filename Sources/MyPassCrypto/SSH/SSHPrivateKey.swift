import MyPassBytes

/// A private key for SSH: Ed25519 (RFC 8709), ECDSA on P-256 (RFC 5656) or RSA of 2,048 to 4,096
/// bits signing with SHA-256 or SHA-512 (RFC 8332), read from the files `ssh-keygen` and OpenSSL
/// write, with the wire forms the SSH agent protocol (draft-miller-ssh-agent) exchanges.
///
/// Files read (``read(file:passphrase:)``), PEM-armoured:
/// - `OPENSSH PRIVATE KEY`: OpenSSH's format (PROTOCOL.key, "openssh-key-v1"), unencrypted, or
///   encrypted with `aes256-ctr` (ssh-keygen's default) or `aes256-cbc` under a key and IV from
///   ``BcryptPBKDF``; one key per file.
/// - `PRIVATE KEY`: PKCS#8 (RFC 5208/5958) of any of the three (`ssh-keygen -m PKCS8`, OpenSSL).
/// - `RSA PRIVATE KEY`: PKCS#1 (RFC 8017 A.1.2); `EC PRIVATE KEY`: SEC 1 (RFC 5915) for P-256.
/// Encrypted PEM (`Proc-Type: 4,ENCRYPTED`, `ENCRYPTED PRIVATE KEY`) is refused with a reason.
///
/// Errors never hold key bytes; a wrong or missing passphrase is ``CryptoError/Code/wrongPassphrase``.
public enum SSHPrivateKey: Sendable, CustomStringConvertible {
    /// `ssh-ed25519`.
    case ed25519(Ed25519.SigningKey)
    /// `ecdsa-sha2-nistp256`.
    case ecdsaP256(P256.SigningKey)
    /// `ssh-rsa` keys, signing as `rsa-sha2-256` or `rsa-sha2-512`.
    case rsa(RSA.PrivateKey)

    /// Sign-request flag for an `rsa-sha2-256` signature (draft-miller-ssh-agent §4.5.1).
    public static let rsaSHA256Flag: UInt32 = 2
    /// Sign-request flag for an `rsa-sha2-512` signature.
    public static let rsaSHA512Flag: UInt32 = 4
    /// The largest key file accepted, in bytes (an RSA-4096 key file is about 3.4 KB).
    public static let maxFileBytes = 64 * 1024

    // MARK: - Names and public forms

    /// The key type name: `ssh-ed25519`, `ecdsa-sha2-nistp256` or `ssh-rsa`.
    public var keyType: String {
        switch self {
        case .ed25519: return "ssh-ed25519"
        case .ecdsaP256: return "ecdsa-sha2-nistp256"
        case .rsa: return "ssh-rsa"
        }
    }

    /// The size `ssh-keygen -l` prints: 256, or the RSA modulus's bits.
    public var bitCount: Int {
        switch self {
        case .ed25519, .ecdsaP256: return 256
        case .rsa(let key): return key.publicKey.bitCount
        }
    }

    /// The public key in SSH's wire form (RFC 4253 §6.6, RFC 5656 §3.1, RFC 8709 §4): what the
    /// agent lists, what `authorized_keys` holds in base64.
    public var publicKeyBlob: [UInt8] {
        var writer = SSHWireWriter()
        writer.writeString(keyType)
        switch self {
        case .ed25519(let key):
            writer.writeString(key.publicKey.rawRepresentation)
        case .ecdsaP256(let key):
            writer.writeString("nistp256")
            writer.writeString(key.publicKey.x963Representation)
        case .rsa(let key):
            writer.writePositiveMPInt(key.publicKey.exponent)
            writer.writePositiveMPInt(key.publicKey.modulus)
        }
        return writer.bytes.unsafeArray
    }

    /// `SHA256:` and the unpadded base64 of SHA-256 of ``publicKeyBlob``, as `ssh-keygen -l` prints.
    public var fingerprint: String { Self.fingerprint(ofPublicKeyBlob: publicKeyBlob) }

    /// The SHA-256 fingerprint of any public key blob.
    public static func fingerprint(ofPublicKeyBlob blob: [UInt8]) -> String {
        var text = Base64.encode(SHA256.hash(blob))
        while text.hasSuffix("=") { text.removeLast() }
        return "SHA256:" + text
    }

    /// The type name and size of a public key blob this type can produce (for listings), or `nil`.
    public static func describe(publicKeyBlob blob: [UInt8]) -> (type: String, bits: Int)? {
        var reader = SSHWireReader(blob)
        guard let type = try? reader.readString() else { return nil }
        switch String(decoding: type, as: UTF8.self) {
        case "ssh-ed25519": return ("ED25519", 256)
        case "ecdsa-sha2-nistp256": return ("ECDSA", 256)
        case "ssh-rsa":
            guard (try? reader.readPositiveMPInt()) != nil, let modulus = try? reader.readPositiveMPInt(),
                  let first = modulus.first else { return nil }
            return ("RSA", 8 * modulus.count - first.leadingZeroBitCount)
        default: return nil
        }
    }

    /// The algorithm and fingerprint only.
    public var description: String { "SSHPrivateKey(\(keyType) \(fingerprint))" }

    // MARK: - Signing

    /// The SSH signature of `data` (RFC 4253 §6.6 layout: string algorithm, string blob):
    /// `ssh-ed25519` (RFC 8709 §6), `ecdsa-sha2-nistp256` with mpint r and s (RFC 5656 §3.1.2),
    /// or for RSA `rsa-sha2-256` or `rsa-sha2-512` as `flags` ask (RFC 8332; SHA-256 wins when
    /// both bits are set, as in OpenSSH).
    /// - Throws: `CryptoError.invalidParameter` for an RSA request without either flag (an
    ///   `ssh-rsa` SHA-1 signature, which MyPass does not make); `.invalidKey` when an RSA
    ///   signature fails its check.
    public func signature(for data: [UInt8], flags: UInt32) throws(CryptoError) -> [UInt8] {
        var writer = SSHWireWriter()
        switch self {
        case .ed25519(let key):
            writer.writeString("ssh-ed25519")
            writer.writeString(key.signature(for: data))
        case .ecdsaP256(let key):
            let signature = key.signature(for: data)
            var inner = SSHWireWriter()
            inner.writePositiveMPInt(signature.r)
            inner.writePositiveMPInt(signature.s)
            writer.writeString("ecdsa-sha2-nistp256")
            inner.bytes.withUnsafeBytes { writer.writeString($0) }
        case .rsa(let key):
            let digest: RSA.Digest
            if flags & Self.rsaSHA256Flag != 0 {
                digest = .sha256
            } else if flags & Self.rsaSHA512Flag != 0 {
                digest = .sha512
            } else {
                throw CryptoError(.invalidParameter, "ssh-rsa signatures (SHA-1) are not made; ask for rsa-sha2-256 or rsa-sha2-512")
            }
            writer.writeString(digest == .sha256 ? "rsa-sha2-256" : "rsa-sha2-512")
            writer.writeString(try key.signature(for: data, digest: digest))
        }
        return writer.bytes.unsafeArray
    }

    // MARK: - The agent's identity form

    /// The key as `SSH_AGENTC_ADD_IDENTITY` carries it (draft-miller-ssh-agent §4.2.3): key type,
    /// the private fields (the same as in OpenSSH's private key section), then the comment; in
    /// wiping storage.
    public func agentIdentity(comment: String) -> SecureBytes {
        var writer = SSHWireWriter()
        writer.writeString(keyType)
        switch self {
        case .ed25519(let key):
            let publicKey = key.publicKey.rawRepresentation
            writer.writeString(publicKey)
            writer.writeUInt32(64)
            key.rawRepresentation.withUnsafeBytes { writer.writeBytes($0) }
            writer.writeBytes(publicKey)
        case .ecdsaP256(let key):
            writer.writeString("nistp256")
            writer.writeString(key.publicKey.x963Representation)
            key.rawRepresentation.withUnsafeBytes { writer.writePositiveMPInt($0) }
        case .rsa(let key):
            writer.writePositiveMPInt(key.publicKey.modulus)
            writer.writePositiveMPInt(key.publicKey.exponent)
            key.withSecretParts { d, iqmp, p, q in
                writer.writePositiveMPInt(d)
                writer.writePositiveMPInt(iqmp)
                writer.writePositiveMPInt(p)
                writer.writePositiveMPInt(q)
            }
        }
        writer.writeString(comment)
        return writer.bytes
    }

    /// Reads a key and its comment in the form of ``agentIdentity(comment:)``, the whole input.
    /// - Throws: `CryptoError.invalidKey` for a truncated or malformed key, an unsupported type,
    ///   a public part that does not match the private one, or bytes left over.
    public static func read(agentIdentity bytes: SecureBytes) throws(CryptoError) -> (key: SSHPrivateKey, comment: String) {
        var copy = bytes.unsafeArray
        defer { wipe(&copy) }
        var reader = SSHWireReader(copy)
        let key = try readPrivateFields(&reader, format: "agent identity")
        let comment = try wire("agent identity", reader.readString())
        try wire("agent identity", reader.finish())
        return (key, String(decoding: comment, as: UTF8.self))
    }

    /// Reads the type and private fields of one key (OpenSSH's private section, the agent's
    /// add-identity body), without the comment.
    static func readPrivateFields(_ reader: inout SSHWireReader, format: String) throws(CryptoError) -> SSHPrivateKey {
        let type = String(decoding: try wire(format, reader.readString()), as: UTF8.self)
        switch type {
        case "ssh-ed25519":
            let publicKey = try wire(format, reader.readString())
            let secret = try wire(format, reader.readString())
            guard publicKey.count == 32, secret.count == 64 else { throw CryptoError(.invalidKey, "\(format): Ed25519 key of the wrong size") }
            let key = try Ed25519.SigningKey(rawRepresentation: secret.prefix(32))
            guard key.publicKey.rawRepresentation.elementsEqual(publicKey),
                  key.publicKey.rawRepresentation.elementsEqual(secret.suffix(32))
            else { throw CryptoError(.invalidKey, "\(format): Ed25519 public key does not match the private key") }
            return .ed25519(key)
        case "ecdsa-sha2-nistp256":
            guard String(decoding: try wire(format, reader.readString()), as: UTF8.self) == "nistp256" else {
                throw CryptoError(.invalidKey, "\(format): ECDSA curve other than nistp256")
            }
            let point = try wire(format, reader.readString())
            let scalar = try wire(format, reader.readPositiveMPInt())
            guard scalar.count <= 32 else { throw CryptoError(.invalidKey, "\(format): P-256 private key longer than 32 bytes") }
            var padded = [UInt8](repeating: 0, count: 32 - scalar.count) + scalar
            defer { wipe(&padded) }
            let key = try P256.SigningKey(rawRepresentation: padded)
            guard key.publicKey.x963Representation.elementsEqual(point) else {
                throw CryptoError(.invalidKey, "\(format): P-256 public key does not match the private key")
            }
            return .ecdsaP256(key)
        case "ssh-rsa":
            var parts: [ArraySlice<UInt8>] = []
            for _ in 0..<6 { parts.append(try wire(format, reader.readPositiveMPInt())) }
            // OpenSSH's order: n, e, d, iqmp, p, q.
            return .rsa(try RSA.PrivateKey(modulus: parts[0], publicExponent: parts[1], privateExponent: parts[2],
                                           prime1: parts[4], prime2: parts[5], coefficient: parts[3]))
        default:
            throw CryptoError(.invalidKey, "\(format): unsupported key type \(type.prefix(64))")
        }
    }

    /// Runs one wire read and turns its ``BytesError`` into `.invalidKey`.
    @inline(__always)
    static func wire<T>(_ format: String, _ read: @autoclosure () throws(BytesError) -> T) throws(CryptoError) -> T {
        do { return try read() } catch { throw CryptoError(.invalidKey, "\(format): \(error)") }
    }
}
