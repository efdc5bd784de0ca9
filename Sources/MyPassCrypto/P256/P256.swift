import MyPassBytes

/// ECDSA over NIST P-256 (secp256r1) with SHA-256: FIPS 186-5 §6, SEC 1 v2 §4.1, deterministic
/// nonces from RFC 6979 §3.2. This is COSE algorithm ES256 (RFC 9053 §2.1) as WebAuthn uses it.
///
/// Constant-time argument, function by function: field and scalar arithmetic are
/// ``MontgomeryResidue`` (fixed instruction sequence, mask selection); point addition and
/// doubling are complete formulas without case splits (``P256Point``); scalar multiplication
/// is a fixed 4-bit window with a masked scan of the whole table; inversions raise to a public
/// exponent. Signing touches the private key and the nonce only through these. Verification
/// and public-key parsing handle public data and may return early.
public enum P256 {
    /// 32 bytes: the size of a scalar, a coordinate, r and s.
    public static let scalarByteCount = 32
}

extension P256 {
    /// A P-256 private key d in 1 ..< n, with its public key Q = d·G.
    public struct SigningKey: Sendable, CustomStringConvertible {
        /// d, 32 bytes big-endian, in a wiping buffer.
        public let rawRepresentation: SecureBytes
        /// Q = d·G.
        public let publicKey: PublicKey

        /// A key from d as 32 big-endian bytes (SEC 1 §2.3.7).
        /// - Throws: ``CryptoError`` `.invalidKey` unless there are 32 bytes and 1 ≤ d < n.
        public init(rawRepresentation: some Collection<UInt8>) throws(CryptoError) {
            guard rawRepresentation.count == 32 else { throw CryptoError(.invalidKey, "P-256 private key must be 32 bytes") }
            let d = UInt256(bigEndian: rawRepresentation)
            let valid = UInt256.lessThan(d, P256OrderModulus.modulus) & ~(d.isZeroMask & 1)
            guard valid == 1 else { throw CryptoError(.invalidKey, "P-256 private key out of range") }
            self.rawRepresentation = SecureBytes(rawRepresentation)
            let point = P256Point.multipliedGenerator(by: d).affine()
            publicKey = PublicKey(x: point.x, y: point.y)
        }

        /// A new key from the operating system's random source (rejection sampling: a candidate
        /// outside 1 ..< n, probability about 2^-32, is drawn again).
        public static func generate() -> SigningKey {
            while true {
                var candidate = SecureRandom.bytes(count: 32)
                defer { wipe(&candidate) }
                if let key = try? SigningKey(rawRepresentation: candidate) { return key }
            }
        }

        /// The ECDSA signature of SHA-256(`message`).
        public func signature<C: Collection>(for message: C) -> Signature where C.Element == UInt8 {
            signature(forDigest: SHA256.hash(Array(message)))
        }

        /// The ECDSA signature (SEC 1 §4.1.3) of a 32-byte SHA-256 `digest`, with the nonce of
        /// RFC 6979 §3.2. Constant time in the key and nonce (see ``P256``).
        public func signature(forDigest digest: [UInt8]) -> Signature {
            precondition(digest.count == 32, "ES256 signs a 32-byte SHA-256 digest")
            var privateBytes = rawRepresentation.withUnsafeBytes { Array($0) }
            defer { wipe(&privateBytes) }
            let d = P256Scalar(reduced: UInt256(bigEndian: privateBytes))
            // e = bits2int(digest) mod n.
            let e = P256Scalar(reducing: UInt256(bigEndian: digest))
            let kValue = RFC6979.nonce(privateKey: privateBytes, digest: digest)
            let k = P256Scalar(reduced: kValue)
            let point = P256Point.multipliedGenerator(by: kValue).affine()
            // r = x(R) mod n; x < p < 2n, so one conditional subtraction.
            let r = P256Scalar(reducing: point.x)
            let s = k.inverse() * (e + r * d)
            // r = 0 or s = 0 needs a nonce that hits one of n values: probability 2^-256.
            precondition(r.isZeroMask == 0 && s.isZeroMask == 0, "ECDSA produced r = 0 or s = 0")
            return Signature(r: r.value, s: s.value)
        }

        /// Names the public key only.
        public var description: String { "P256.SigningKey(public: \(publicKey))" }
    }

    /// A P-256 public key Q, a point on the curve other than the point at infinity.
    public struct PublicKey: Sendable, Equatable, CustomStringConvertible {
        @usableFromInline let xValue: UInt256
        @usableFromInline let yValue: UInt256

        init(x: UInt256, y: UInt256) {
            xValue = x
            yValue = y
        }

        /// A key from its uncompressed SEC 1 encoding `04 || x || y` (65 bytes, SEC 1 §2.3.4).
        /// - Throws: ``CryptoError`` `.invalidKey` for another length or prefix, a coordinate ≥ p,
        ///   or a point not on the curve.
        public init(x963Representation bytes: some Collection<UInt8>) throws(CryptoError) {
            let array = Array(bytes)
            guard array.count == 65, array[0] == 0x04 else {
                throw CryptoError(.invalidKey, "P-256 public key must be 65 bytes 04 || x || y")
            }
            try self.init(rawRepresentation: array[1...])
        }

        /// A key from `x || y` (64 bytes, each coordinate big-endian).
        /// - Throws: ``CryptoError`` `.invalidKey` as ``init(x963Representation:)``.
        public init(rawRepresentation bytes: some Collection<UInt8>) throws(CryptoError) {
            let array = Array(bytes)
            guard array.count == 64 else { throw CryptoError(.invalidKey, "P-256 public key must be 64 bytes x || y") }
            let x = UInt256(bigEndian: array[0..<32])
            let y = UInt256(bigEndian: array[32..<64])
            let p = P256FieldModulus.modulus
            guard UInt256.lessThan(x, p) == 1, UInt256.lessThan(y, p) == 1 else {
                throw CryptoError(.invalidKey, "P-256 public key coordinate not below p")
            }
            guard P256Point.isOnCurve(x: P256FieldElement(reduced: x), y: P256FieldElement(reduced: y)) else {
                throw CryptoError(.invalidKey, "P-256 public key is not on the curve")
            }
            self.init(x: x, y: y)
        }

        /// x, 32 bytes big-endian.
        public var x: [UInt8] { xValue.bigEndianBytes }
        /// y, 32 bytes big-endian.
        public var y: [UInt8] { yValue.bigEndianBytes }
        /// `x || y`, 64 bytes.
        public var rawRepresentation: [UInt8] { x + y }
        /// `04 || x || y`, 65 bytes (SEC 1 §2.3.3, uncompressed).
        public var x963Representation: [UInt8] { [0x04] + x + y }

        /// Whether `signature` is a valid ECDSA signature of SHA-256(`message`).
        public func isValidSignature<C: Collection>(_ signature: Signature, for message: C) -> Bool
        where C.Element == UInt8 {
            isValidSignature(signature, forDigest: SHA256.hash(Array(message)))
        }

        /// Whether `signature` is valid for a 32-byte `digest` (SEC 1 §4.1.4): r and s in
        /// 1 ..< n, R = (e·w)·G + (r·w)·Q not the point at infinity, x(R) mod n = r. Public data
        /// only, so it may return early.
        public func isValidSignature(_ signature: Signature, forDigest digest: [UInt8]) -> Bool {
            guard digest.count == 32 else { return false }
            let n = P256OrderModulus.modulus
            let rValue = signature.rValue, sValue = signature.sValue
            guard rValue.isZeroMask == 0, sValue.isZeroMask == 0,
                  UInt256.lessThan(rValue, n) == 1, UInt256.lessThan(sValue, n) == 1
            else { return false }
            let e = P256Scalar(reducing: UInt256(bigEndian: digest))
            let w = P256Scalar(reduced: sValue).inverse()
            let u1 = (e * w).value
            let u2 = (P256Scalar(reduced: rValue) * w).value
            let q = P256Point(affineX: P256FieldElement(reduced: xValue), affineY: P256FieldElement(reduced: yValue))
            let sum = P256Point.multipliedGenerator(by: u1).adding(q.multiplied(by: u2))
            guard sum.isInfinityMask == 0 else { return false }
            let x = sum.affine().x
            return P256Scalar(reducing: x).value == rValue
        }

        /// The x coordinate in hex (public).
        public var description: String { "P256.PublicKey(x: \(x.hexString))" }
    }

    /// An ECDSA signature (r, s), each below n.
    public struct Signature: Sendable, Equatable {
        @usableFromInline let rValue: UInt256
        @usableFromInline let sValue: UInt256

        init(r: UInt256, s: UInt256) {
            rValue = r
            sValue = s
        }

        /// A signature from `r || s`, 64 bytes big-endian (IEEE P1363 form, as in COSE and JWS).
        /// - Throws: ``CryptoError`` `.invalidSignature` for another length.
        public init(rawRepresentation bytes: some Collection<UInt8>) throws(CryptoError) {
            let array = Array(bytes)
            guard array.count == 64 else { throw CryptoError(.invalidSignature, "ES256 raw signature must be 64 bytes") }
            self.init(r: UInt256(bigEndian: array[0..<32]), s: UInt256(bigEndian: array[32..<64]))
        }

        /// A signature from its DER encoding `SEQUENCE { r INTEGER, s INTEGER }` (SEC 1 §C.5,
        /// RFC 3279 §2.2.3), as WebAuthn assertions carry it. Strict DER: minimal lengths and
        /// integers, no negative values, nothing after the sequence, each integer at most 32 bytes.
        /// - Throws: ``CryptoError`` `.invalidSignature`.
        public init(derRepresentation bytes: some Collection<UInt8>) throws(CryptoError) {
            let r: ArraySlice<UInt8>, s: ArraySlice<UInt8>
            do {
                (r, s) = try Self.parseDER(Array(bytes))
            } catch {
                throw CryptoError(.invalidSignature, "ECDSA signature DER: \(error)")
            }
            guard r.count <= 32, s.count <= 32 else {
                throw CryptoError(.invalidSignature, "ECDSA signature integer longer than 32 bytes")
            }
            self.init(r: UInt256(bigEndian: Self.padded(r)), s: UInt256(bigEndian: Self.padded(s)))
        }

        static func parseDER(_ bytes: [UInt8]) throws(BytesError) -> (ArraySlice<UInt8>, ArraySlice<UInt8>) {
            var outer = DERReader(bytes, maxDepth: 1)
            var sequence = try outer.readSequence()
            try outer.finish()
            let r = try sequence.readUnsignedInteger()
            let s = try sequence.readUnsignedInteger()
            try sequence.finish()
            return (r, s)
        }

        static func padded(_ magnitude: ArraySlice<UInt8>) -> [UInt8] {
            [UInt8](repeating: 0, count: 32 - magnitude.count) + magnitude
        }

        /// r, 32 bytes big-endian.
        public var r: [UInt8] { rValue.bigEndianBytes }
        /// s, 32 bytes big-endian.
        public var s: [UInt8] { sValue.bigEndianBytes }
        /// `r || s`, 64 bytes.
        public var rawRepresentation: [UInt8] { r + s }
        /// `SEQUENCE { INTEGER r, INTEGER s }` in DER (70 to 72 bytes for typical values).
        public var derRepresentation: [UInt8] {
            var writer = DERWriter()
            writer.writeSequence { sequence in
                sequence.writeUnsignedInteger(r)
                sequence.writeUnsignedInteger(s)
            }
            return writer.bytes
        }
    }
}
