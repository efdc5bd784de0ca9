import MyPassBytes

/// Ed25519 signatures (RFC 8032 §5.1, PureEdDSA over edwards25519 with SHA-512). This is COSE
/// algorithm EdDSA (-8, RFC 9053 §2.2) as WebAuthn uses it.
///
/// Constant-time argument, function by function: the field (``Ed25519FieldElement``) and the
/// scalars mod L (``MontgomeryResidue``) use fixed instruction sequences and mask selection;
/// point addition is complete (no case split); the scalar multiplications by the secret a and
/// the secret nonce r use a fixed window with a masked table scan; encoding inverts by a public
/// exponent. Verification and point decoding handle public data and may return early.
public enum Ed25519 {
    /// 32 bytes: seeds, public keys, R and S.
    public static let keyByteCount = 32
    /// 64 bytes: R || S.
    public static let signatureByteCount = 64
}

extension Ed25519 {
    /// An Ed25519 private key: the 32-byte seed, with the expanded scalar and prefix derived
    /// from it (RFC 8032 §5.1.5).
    public struct SigningKey: Sendable, CustomStringConvertible {
        /// The 32-byte seed, in a wiping buffer.
        public let rawRepresentation: SecureBytes
        /// The public key A = a·B.
        public let publicKey: PublicKey

        /// A key from its 32-byte seed (RFC 8032 §5.1.5).
        /// - Throws: ``CryptoError`` `.invalidKey` for another length.
        public init(rawRepresentation seed: some Collection<UInt8>) throws(CryptoError) {
            guard seed.count == 32 else { throw CryptoError(.invalidKey, "Ed25519 private key must be 32 bytes") }
            rawRepresentation = SecureBytes(seed)
            var expanded = Self.expand(rawRepresentation)
            defer { wipe(&expanded) }
            let a = Self.clampedScalar(expanded)
            publicKey = PublicKey(validated: Ed25519Point.multipliedBase(by: a).encoded)
        }

        /// A new key: 32 bytes from the operating system's random source.
        public static func generate() -> SigningKey {
            var seed = SecureRandom.bytes(count: 32)
            defer { wipe(&seed) }
            return try! SigningKey(rawRepresentation: seed)
        }

        /// SHA-512 of the seed (64 bytes: the scalar half, then the prefix).
        static func expand(_ seed: SecureBytes) -> [UInt8] {
            var hash = SHA512()
            seed.withUnsafeBytes { hash.update($0) }
            return hash.finalize()
        }

        /// s = the first 32 bytes with bits 0-2 and 255 cleared and bit 254 set (§5.1.5 step 2).
        static func clampedScalar(_ expanded: [UInt8]) -> UInt256 {
            var bytes = Array(expanded[0..<32])
            defer { wipe(&bytes) }
            bytes[0] &= 0xF8
            bytes[31] &= 0x7F
            bytes[31] |= 0x40
            return UInt256(littleEndian: bytes)
        }

        /// The 64-byte signature R || S of `message` (RFC 8032 §5.1.6). Deterministic.
        public func signature<C: Collection>(for message: C) -> [UInt8] where C.Element == UInt8 {
            let messageBytes = Array(message)
            var expanded = Self.expand(rawRepresentation)
            defer { wipe(&expanded) }
            let aValue = Self.clampedScalar(expanded)
            var nonceHash = SHA512()
            nonceHash.update(expanded[32..<64])
            nonceHash.update(messageBytes)
            var nonceBytes = nonceHash.finalize()
            defer { wipe(&nonceBytes) }
            let r = Ed25519Scalar(wideLittleEndian: nonceBytes)
            let rEncoded = Ed25519Point.multipliedBase(by: r.value).encoded
            var challenge = SHA512()
            challenge.update(rEncoded)
            challenge.update(publicKey.rawRepresentation)
            challenge.update(messageBytes)
            let k = Ed25519Scalar(wideLittleEndian: challenge.finalize())
            let s = r + k * Ed25519Scalar(reducing: aValue)
            return rEncoded + s.value.littleEndianBytes
        }

        /// Names the public key only.
        public var description: String { "Ed25519.SigningKey(public: \(publicKey))" }
    }

    /// An Ed25519 public key: a 32-byte point encoding that decodes to a curve point.
    public struct PublicKey: Sendable, Equatable, CustomStringConvertible {
        /// The 32-byte encoding (RFC 8032 §5.1.2).
        public let rawRepresentation: [UInt8]
        let point: Ed25519Point

        init(validated bytes: [UInt8]) {
            rawRepresentation = bytes
            point = Ed25519Point(encoded: bytes)!
        }

        /// A key from its 32-byte encoding.
        /// - Throws: ``CryptoError`` `.invalidKey` for another length, y ≥ p, or no point with this y.
        public init(rawRepresentation bytes: some Collection<UInt8>) throws(CryptoError) {
            let array = Array(bytes)
            guard array.count == 32 else { throw CryptoError(.invalidKey, "Ed25519 public key must be 32 bytes") }
            guard let point = Ed25519Point(encoded: array) else {
                throw CryptoError(.invalidKey, "Ed25519 public key is not a curve point")
            }
            rawRepresentation = array
            self.point = point
        }

        public static func == (lhs: PublicKey, rhs: PublicKey) -> Bool { lhs.rawRepresentation == rhs.rawRepresentation }

        /// Whether `signature` (64 bytes R || S) is valid for `message` (RFC 8032 §5.1.7): S < L,
        /// and the encoding of S·B - k·A equals R byte for byte, with k = SHA-512(R || A || M)
        /// mod L (the cofactorless check; a non-canonical R never matches). Wrong lengths are
        /// simply invalid.
        public func isValidSignature<C: Collection>(_ signature: [UInt8], for message: C) -> Bool
        where C.Element == UInt8 {
            guard signature.count == 64 else { return false }
            let rBytes = Array(signature[0..<32])
            let sValue = UInt256(littleEndian: signature[32..<64])
            guard UInt256.lessThan(sValue, Ed25519OrderModulus.modulus) == 1 else { return false }
            var challenge = SHA512()
            challenge.update(rBytes)
            challenge.update(rawRepresentation)
            challenge.update(Array(message))
            let k = Ed25519Scalar(wideLittleEndian: challenge.finalize()).value
            let check = Ed25519Point.multipliedBase(by: sValue).adding(point.negated.multiplied(by: k))
            return check.encoded == rBytes
        }

        /// The encoding in hex (public).
        public var description: String { "Ed25519.PublicKey(\(rawRepresentation.hexString))" }
    }
}
