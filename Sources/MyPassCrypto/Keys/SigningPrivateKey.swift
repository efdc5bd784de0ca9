import MyPassBytes

/// A private signing key of one of the two passkey algorithms, read from or written to PKCS#8
/// (RFC 5208 PrivateKeyInfo, RFC 5958 OneAsymmetricKey), alone or in PEM armour (RFC 7468
/// `PRIVATE KEY`), the form KeePassXC stores (Botan's `PKCS8::PEM_encode`).
///
/// - P-256: algorithm id-ecPublicKey with the named curve prime256v1 (RFC 5480), private key an
///   SEC 1 `ECPrivateKey` (RFC 5915: version 1, 32-byte d, optional `[0]` curve, optional `[1]`
///   public key, which must match d when present).
/// - Ed25519: algorithm id-Ed25519 without parameters, private key an OCTET STRING holding the
///   32-byte seed (RFC 8410 §7); a version 1 public key `[1]` must match when present.
///
/// Errors never show key bytes.
public enum SigningPrivateKey: Sendable, CustomStringConvertible {
    /// ES256 (COSE -7).
    case p256(P256.SigningKey)
    /// EdDSA with Ed25519 (COSE -8).
    case ed25519(Ed25519.SigningKey)

    /// The largest DER input accepted, in bytes (keys here are under 200).
    public static let maxDERBytes = 4096

    /// Reads a PKCS#8 DER private key. The structure is checked first (lengths, minimal forms,
    /// nesting at most 8 deep, no trailing bytes), then the fields.
    /// - Throws: ``CryptoError`` `.invalidKey`, whose reason names the DER problem and its offset
    ///   (never a key byte); unsupported algorithms and curves are `.invalidKey` too.
    public init(pkcs8DER bytes: some Collection<UInt8>) throws(CryptoError) {
        try self.init(der: Array(bytes), format: "PKCS#8") { (der) throws(CryptoError) in try Self.parse(der, format: "PKCS#8") }
    }

    /// Reads an SEC 1 `ECPrivateKey` (SEC 1 v2 §C.4, RFC 5915; the `EC PRIVATE KEY` PEM body
    /// OpenSSL writes) for P-256; a `[0]` curve other than P-256 is refused.
    /// - Throws: ``CryptoError`` `.invalidKey` as ``init(pkcs8DER:)``.
    public init(sec1DER bytes: some Collection<UInt8>) throws(CryptoError) {
        try self.init(der: Array(bytes), format: "SEC 1") { (der) throws(CryptoError) in
            try Self.parseECPrivateKey(der[...], outerPublicKey: nil, format: "SEC 1")
        }
    }

    private init(der: [UInt8], format: String, parse: ([UInt8]) throws(CryptoError) -> Parsed) throws(CryptoError) {
        guard der.count <= Self.maxDERBytes else { throw CryptoError(.invalidKey, "\(format) key longer than \(Self.maxDERBytes) bytes") }
        try Self.readDER(format, DERReader.validateStructure(der[...], maxDepth: 8))
        var parsed = try parse(der)
        defer { wipe(&parsed.privateKey) }
        switch parsed.algorithm {
        case .p256:
            var padded = [UInt8](repeating: 0, count: 32 - parsed.privateKey.count) + parsed.privateKey
            defer { wipe(&padded) }
            let key = try P256.SigningKey(rawRepresentation: padded)
            if let publicKey = parsed.publicKey, publicKey != key.publicKey.x963Representation {
                throw CryptoError(.invalidKey, "\(format) public key does not match the private key")
            }
            self = .p256(key)
        case .ed25519:
            let key = try Ed25519.SigningKey(rawRepresentation: parsed.privateKey)
            if let publicKey = parsed.publicKey, publicKey != key.publicKey.rawRepresentation {
                throw CryptoError(.invalidKey, "\(format) public key does not match the private key")
            }
            self = .ed25519(key)
        }
    }

    /// Reads a PEM `PRIVATE KEY` block holding PKCS#8 DER, or an `EC PRIVATE KEY` block holding
    /// SEC 1 DER.
    /// - Throws: ``CryptoError`` `.invalidKey` for missing armour, bad base64 or bad DER.
    public init(pem: some StringProtocol) throws(CryptoError) {
        try self.init(pemUTF8: Array(pem.utf8))
    }

    /// Reads PEM from its UTF-8 bytes (see ``init(pem:)``), so a key held in a wiping buffer
    /// never becomes a `String`; every scratch copy is wiped.
    public init<C: Collection>(pemUTF8 pem: C) throws(CryptoError) where C.Element == UInt8 {
        let marker = Array("-----BEGIN EC PRIVATE KEY-----".utf8)
        var text = Array(pem)
        defer { wipe(&text) }
        let isSEC1 = PEM.find(marker, in: text, from: 0) != nil
        var der: [UInt8]
        do {
            der = try PEM.decode(utf8: text, label: isSEC1 ? "EC PRIVATE KEY" : "PRIVATE KEY")
        } catch {
            throw CryptoError(.invalidKey, "PEM: \(error)")
        }
        defer { wipe(&der) }
        if isSEC1 { try self.init(sec1DER: der) } else { try self.init(pkcs8DER: der) }
    }

    /// The PKCS#8 DER encoding, in a wiping buffer: version 0, and for P-256 an `ECPrivateKey`
    /// with the public key `[1]` and no curve `[0]` (as Botan and OpenSSL write it); for Ed25519
    /// the 48-byte RFC 8410 form.
    public var pkcs8DER: SecureBytes {
        var writer = DERWriter()
        switch self {
        case .p256(let key):
            var d = key.rawRepresentation.withUnsafeBytes { Array($0) }
            defer { wipe(&d) }
            var inner = DERWriter()
            inner.writeSequence { ec in
                ec.writeSmallInteger(1)
                ec.writeOctetString(d)
                ec.writeConstructed(tag: DERTag.contextConstructed(1)) { $0.writeBitString(key.publicKey.x963Representation) }
            }
            writer.writeSequence { info in
                info.writeSmallInteger(0)
                info.writeSequence { algorithm in
                    algorithm.writeObjectIdentifier(KeyIdentifiers.ecPublicKey)
                    algorithm.writeObjectIdentifier(KeyIdentifiers.prime256v1)
                }
                info.writeOctetString(inner.bytes)
            }
            inner.wipe()
        case .ed25519(let key):
            var seed = key.rawRepresentation.withUnsafeBytes { Array($0) }
            defer { wipe(&seed) }
            writer.writeSequence { info in
                info.writeSmallInteger(0)
                info.writeSequence { $0.writeObjectIdentifier(KeyIdentifiers.ed25519) }
                var inner = DERWriter()
                inner.writeOctetString(seed)
                info.writeOctetString(inner.bytes)
                inner.wipe()
            }
        }
        return writer.takeSecureBytes()
    }

    /// The PEM text of ``pkcs8DER`` (`-----BEGIN PRIVATE KEY-----`, 64-column lines), as UTF-8 in
    /// a wiping buffer.
    public var pem: SecureBytes {
        var der = pkcs8DER.withUnsafeBytes { Array($0) }
        defer { wipe(&der) }
        var text = Array(PEM.encode(der, label: "PRIVATE KEY").utf8)
        defer { wipe(&text) }
        return SecureBytes(text)
    }

    /// The matching public key.
    public var publicKey: SigningPublicKey {
        switch self {
        case .p256(let key): return .p256(key.publicKey)
        case .ed25519(let key): return .ed25519(key.publicKey)
        }
    }

    /// The signature of `message` in WebAuthn's form (W3C WebAuthn §6.5.6): DER
    /// `SEQUENCE { r, s }` for ES256, the raw 64 bytes R || S for Ed25519.
    public func webAuthnSignature(for message: [UInt8]) -> [UInt8] {
        switch self {
        case .p256(let key): return key.signature(for: message).derRepresentation
        case .ed25519(let key): return key.signature(for: message)
        }
    }

    /// The algorithm and public key only.
    public var description: String {
        switch self {
        case .p256(let key): return "SigningPrivateKey.p256(\(key.publicKey))"
        case .ed25519(let key): return "SigningPrivateKey.ed25519(\(key.publicKey))"
        }
    }

    enum Algorithm { case p256, ed25519 }

    struct Parsed {
        var algorithm: Algorithm
        var privateKey: [UInt8]
        var publicKey: [UInt8]?
    }

    static func parse(_ der: [UInt8], format: String) throws(CryptoError) -> Parsed {
        var outer = DERReader(der, maxDepth: 8)
        var info = try readDER(format, outer.readSequence())
        try readDER(format, outer.finish())
        let version = try readDER(format, info.readSmallInteger())
        guard version == 0 || version == 1 else { throw CryptoError(.invalidKey, "PKCS#8 version \(version)") }
        var algorithmReader = try readDER(format, info.readSequence())
        let oid = Array(try readDER(format, algorithmReader.readObjectIdentifier()))
        let algorithm: Algorithm
        if oid == KeyIdentifiers.ecPublicKey {
            let curve = Array(try readDER(format, algorithmReader.readObjectIdentifier()))
            guard curve == KeyIdentifiers.prime256v1 else { throw CryptoError(.invalidKey, "EC curve other than P-256") }
            algorithm = .p256
        } else if oid == KeyIdentifiers.ed25519 {
            algorithm = .ed25519
        } else {
            throw CryptoError(.invalidKey, "unsupported key algorithm")
        }
        try readDER(format, algorithmReader.finish())
        let privateKeyOctets = try readDER(format, info.readOctetString())
        if info.nextIs(DERTag.contextConstructed(0)) { _ = try readDER(format, info.readElement()) }  // attributes
        var outerPublicKey: [UInt8]?
        if version == 1, info.nextIs(DERTag.contextPrimitive(1)) {
            let element = try readDER(format, info.readElement())
            guard element.content.first == 0 else { throw CryptoError(.invalidKey, "public key BIT STRING with unused bits") }
            outerPublicKey = Array(element.content.dropFirst())
        }
        try readDER(format, info.finish())
        switch algorithm {
        case .ed25519:
            var inner = DERReader(privateKeyOctets, maxDepth: 1)
            let seed = try readDER(format, inner.readOctetString())
            try readDER(format, inner.finish())
            guard seed.count == 32 else { throw CryptoError(.invalidKey, "Ed25519 private key must be 32 bytes") }
            return Parsed(algorithm: .ed25519, privateKey: Array(seed), publicKey: outerPublicKey)
        case .p256:
            return try parseECPrivateKey(privateKeyOctets, outerPublicKey: outerPublicKey, format: format)
        }
    }

    /// SEC 1 §C.4 / RFC 5915 `ECPrivateKey` for P-256. The 32-byte d may come shorter (Botan 2
    /// writes the minimal number of bytes); it is left-padded.
    static func parseECPrivateKey(
        _ octets: ArraySlice<UInt8>, outerPublicKey: [UInt8]?, format: String
    ) throws(CryptoError) -> Parsed {
        var inner = DERReader(octets, maxDepth: 4)
        var ec = try readDER(format, inner.readSequence())
        try readDER(format, inner.finish())
        guard try readDER(format, ec.readSmallInteger()) == 1 else { throw CryptoError(.invalidKey, "ECPrivateKey version is not 1") }
        let d = try readDER(format, ec.readOctetString())
        guard !d.isEmpty, d.count <= 32 else { throw CryptoError(.invalidKey, "P-256 private key longer than 32 bytes") }
        if ec.nextIs(DERTag.contextConstructed(0)) {
            var parameters = try readDER(format, ec.readConstructed(tag: DERTag.contextConstructed(0)))
            guard Array(try readDER(format, parameters.readObjectIdentifier())) == KeyIdentifiers.prime256v1 else {
                throw CryptoError(.invalidKey, "ECPrivateKey curve other than P-256")
            }
            try readDER(format, parameters.finish())
        }
        var publicKey = outerPublicKey
        if ec.nextIs(DERTag.contextConstructed(1)) {
            var wrapper = try readDER(format, ec.readConstructed(tag: DERTag.contextConstructed(1)))
            publicKey = Array(try readDER(format, wrapper.readBitString()))
            try readDER(format, wrapper.finish())
        }
        try readDER(format, ec.finish())
        return Parsed(algorithm: .p256, privateKey: Array(d), publicKey: publicKey)
    }

    /// Runs one DER read of the key parsers and turns its ``BytesError`` into `.invalidKey`, so
    /// that each parser throws one error type (as Embedded Swift needs).
    @inline(__always)
    static func readDER<T>(_ format: String, _ read: @autoclosure () throws(BytesError) -> T) throws(CryptoError) -> T {
        do { return try read() } catch { throw CryptoError(.invalidKey, "\(format) DER: \(error)") }
    }
}
