import MyPassBytes

/// A public signing key of one of the two passkey algorithms, with its SubjectPublicKeyInfo
/// (RFC 5280 §4.1.2.7; RFC 5480 for P-256, RFC 8410 for Ed25519) and COSE_Key (RFC 9052 §7,
/// RFC 9053 §7.1-7.2) encodings.
public enum SigningPublicKey: Sendable, Equatable, CustomStringConvertible {
    /// ES256.
    case p256(P256.PublicKey)
    /// EdDSA with Ed25519.
    case ed25519(Ed25519.PublicKey)

    /// The COSE algorithm identifier: -7 (ES256) or -8 (EdDSA) (RFC 9053 §2.1, §2.2).
    public var coseAlgorithm: Int {
        switch self {
        case .p256: return -7
        case .ed25519: return -8
        }
    }

    /// Reads a DER SubjectPublicKeyInfo.
    /// - Throws: ``CryptoError`` `.invalidKey` for bad DER, another algorithm, or a bad point.
    public init(spkiDER bytes: some Collection<UInt8>) throws(CryptoError) {
        let der = Array(bytes)
        let oid: [UInt8], curve: [UInt8]?, key: [UInt8]
        do {
            try DERReader.validateStructure(der[...], maxDepth: 4)
            var outer = DERReader(der, maxDepth: 4)
            var info = try outer.readSequence()
            try outer.finish()
            var algorithm = try info.readSequence()
            oid = Array(try algorithm.readObjectIdentifier())
            curve = algorithm.isAtEnd ? nil : Array(try algorithm.readObjectIdentifier())
            try algorithm.finish()
            key = Array(try info.readBitString())
            try info.finish()
        } catch {
            throw CryptoError(.invalidKey, "SubjectPublicKeyInfo DER: \(error)")
        }
        if oid == KeyIdentifiers.ecPublicKey, curve == KeyIdentifiers.prime256v1 {
            self = .p256(try P256.PublicKey(x963Representation: key))
        } else if oid == KeyIdentifiers.ed25519, curve == nil {
            self = .ed25519(try Ed25519.PublicKey(rawRepresentation: key))
        } else {
            throw CryptoError(.invalidKey, "unsupported public key algorithm")
        }
    }

    /// The DER SubjectPublicKeyInfo (91 bytes for P-256, 44 for Ed25519).
    public var spkiDER: [UInt8] {
        var writer = DERWriter()
        writer.writeSequence { info in
            switch self {
            case .p256(let key):
                info.writeSequence { algorithm in
                    algorithm.writeObjectIdentifier(KeyIdentifiers.ecPublicKey)
                    algorithm.writeObjectIdentifier(KeyIdentifiers.prime256v1)
                }
                info.writeBitString(key.x963Representation)
            case .ed25519(let key):
                info.writeSequence { $0.writeObjectIdentifier(KeyIdentifiers.ed25519) }
                info.writeBitString(key.rawRepresentation)
            }
        }
        return writer.bytes
    }

    /// `-----BEGIN PUBLIC KEY-----` PEM of ``spkiDER``.
    public var pem: String { PEM.encode(spkiDER, label: "PUBLIC KEY") }

    /// The COSE_Key in canonical CBOR (RFC 8949 §4.2.1 key order), as WebAuthn's attested
    /// credential data carries it (W3C WebAuthn §6.5.1.1):
    /// - ES256: {1: 2 (EC2), 3: -7, -1: 1 (P-256), -2: x, -3: y}, 77 bytes;
    /// - EdDSA: {1: 1 (OKP), 3: -8, -1: 6 (Ed25519), -2: x}, 42 bytes.
    public var coseKey: [UInt8] {
        switch self {
        case .p256(let key):
            return [0xA5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20] + key.x
                + [0x22, 0x58, 0x20] + key.y
        case .ed25519(let key):
            return [0xA4, 0x01, 0x01, 0x03, 0x27, 0x20, 0x06, 0x21, 0x58, 0x20] + key.rawRepresentation
        }
    }

    /// Whether `signature` (WebAuthn form: DER for ES256, raw for Ed25519) is valid for `message`.
    public func isValidWebAuthnSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        switch self {
        case .p256(let key):
            guard let parsed = try? P256.Signature(derRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: message)
        case .ed25519(let key):
            return key.isValidSignature(signature, for: message)
        }
    }

    /// The algorithm and key.
    public var description: String {
        switch self {
        case .p256(let key): return "\(key)"
        case .ed25519(let key): return "\(key)"
        }
    }
}
