import MyPassBytes

/// RSA signatures with PKCS#1 v1.5 padding (RFC 8017 §8.2, EMSA-PKCS1-v1_5 §9.2) over SHA-256 or
/// SHA-512: what SSH calls `rsa-sha2-256` and `rsa-sha2-512` (RFC 8332). Keys of 2,048 to 4,096
/// bits, public exponent odd, at least 3 and at most 64 bits.
///
/// Signing uses the Chinese remainder theorem with base blinding: a fresh random r, the message
/// representative multiplied by r^e before the private operation and the result by r^-1 after
/// (r^-1 mod each prime by Fermat), so the values the exponentiation sees are unrelated to the
/// message; each private exponentiation is constant-time (see ``Limbs``). The signature is
/// checked with the public key before it is returned (a fault in the computation would
/// otherwise reveal a prime). Verification is strict: the encoded message is rebuilt and
/// compared whole (no BER, no missing NULL), as Wycheproof's vectors expect.
public enum RSA {
    /// The smallest modulus accepted, in bits.
    public static let minimumModulusBits = 2048
    /// The largest modulus accepted, in bits.
    public static let maximumModulusBits = 4096

    /// The hash of a PKCS#1 v1.5 signature.
    public enum Digest: Sendable, Equatable {
        /// SHA-256 (`rsa-sha2-256`).
        case sha256
        /// SHA-512 (`rsa-sha2-512`).
        case sha512

        /// The DER DigestInfo prefix of RFC 8017 §9.2 note 1, before the digest itself.
        var digestInfoPrefix: [UInt8] {
            switch self {
            case .sha256:
                return [0x30, 0x31, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01,
                        0x05, 0x00, 0x04, 0x20]
            case .sha512:
                return [0x30, 0x51, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03,
                        0x05, 0x00, 0x04, 0x40]
            }
        }

        func hash(_ message: [UInt8]) -> [UInt8] {
            switch self {
            case .sha256: return SHA256.hash(message)
            case .sha512: return SHA512.hash(message)
            }
        }
    }

    /// EMSA-PKCS1-v1_5 (RFC 8017 §9.2): 00 01 FF…FF 00 DigestInfo, `length` bytes.
    static func encode(_ message: [UInt8], digest: Digest, length: Int) -> [UInt8] {
        let info = digest.digestInfoPrefix + digest.hash(message)
        var encoded = [UInt8](repeating: 0xFF, count: length)
        encoded[0] = 0
        encoded[1] = 1
        encoded[length - info.count - 1] = 0
        for (i, byte) in info.enumerated() { encoded[length - info.count + i] = byte }
        return encoded
    }

    // MARK: - Public key

    /// An RSA public key (n, e).
    public struct PublicKey: Sendable, Equatable, CustomStringConvertible {
        /// n, big-endian, without leading zeros.
        public let modulus: [UInt8]
        /// e, big-endian, without leading zeros.
        public let exponent: [UInt8]
        let modulusLimbs: Limbs
        let exponentLimbs: Limbs
        let context: MontgomeryModulusLimbs

        /// Checks and keeps (n, e), each big-endian (leading zeros allowed).
        /// - Throws: `CryptoError.invalidKey` for a modulus outside 2,048-4,096 bits or even, an
        ///   exponent even, below 3 or over 64 bits, or e ≥ n.
        public init(modulus: some Collection<UInt8>, exponent: some Collection<UInt8>) throws(CryptoError) {
            let n = Array(modulus.drop { $0 == 0 })
            let e = Array(exponent.drop { $0 == 0 })
            let bits = n.isEmpty ? 0 : 8 * n.count - n[0].leadingZeroBitCount
            guard bits >= RSA.minimumModulusBits, bits <= RSA.maximumModulusBits else {
                throw CryptoError(.invalidKey, "RSA modulus of \(bits) bits; 2048 to 4096 are supported")
            }
            guard n[n.count - 1] & 1 == 1 else { throw CryptoError(.invalidKey, "RSA modulus is even") }
            guard !e.isEmpty, e.count <= 8, e[e.count - 1] & 1 == 1, e.count > 1 || e[0] >= 3 else {
                throw CryptoError(.invalidKey, "RSA public exponent must be odd, at least 3 and at most 64 bits")
            }
            let limbs = (n.count + 7) / 8
            self.modulus = n
            self.exponent = e
            modulusLimbs = Limbs(bigEndian: n, count: limbs)!
            exponentLimbs = Limbs(bigEndian: e, count: 1)!
            context = MontgomeryModulusLimbs(modulusLimbs)
        }

        /// The modulus size in bits.
        public var bitCount: Int { 8 * modulus.count - modulus[0].leadingZeroBitCount }

        /// The signature (and modulus) length in bytes, k.
        public var byteCount: Int { modulus.count }

        /// Whether `signature` is the PKCS#1 v1.5 signature of `message` with `digest` (RFC 8017
        /// §8.2.2): k bytes, below n, and s^e mod n equal to the expected encoding byte for byte.
        public func isValidSignature(_ signature: [UInt8], for message: [UInt8], digest: Digest) -> Bool {
            guard signature.count == byteCount, byteCount >= digest.digestInfoPrefix.count + 11 + 32,
                  let s = Limbs(bigEndian: signature, count: modulusLimbs.count),
                  Limbs.isLess(s, modulusLimbs)
            else { return false }
            let recovered = context.publicPower(s, exponentLimbs).bigEndianBytes(count: byteCount)
            return recovered == RSA.encode(message, digest: digest, length: byteCount)
        }

        public static func == (lhs: PublicKey, rhs: PublicKey) -> Bool {
            lhs.modulus == rhs.modulus && lhs.exponent == rhs.exponent
        }

        /// The size and exponent only.
        public var description: String { "RSA.PublicKey(\(bitCount) bits, e: \(exponent.hexString))" }
    }

    // MARK: - Private key

    /// An RSA private key: n, e, d and the two primes with the CRT values, all in wiping storage.
    public struct PrivateKey: Sendable, CustomStringConvertible {
        /// The public half.
        public let publicKey: PublicKey
        let privateExponent: Limbs
        let prime1: MontgomeryModulusLimbs
        let prime2: MontgomeryModulusLimbs
        /// d mod (p - 1), d mod (q - 1), q^-1 mod p.
        let exponent1: Limbs
        let exponent2: Limbs
        let coefficient: Limbs
        /// p - 2 and q - 2 (Fermat inverses of the blinding factor).
        let inverseExponent1: Limbs
        let inverseExponent2: Limbs

        /// A key from its parts, big-endian (leading zeros allowed). The CRT exponents are derived
        /// from d when absent (OpenSSH's format stores d, q^-1 mod p, p and q only).
        /// - Throws: `CryptoError.invalidKey` when a part is out of range, p·q ≠ n, or a test
        ///   signature does not verify (parts that do not belong together). Never a key byte.
        public init(
            modulus: some Collection<UInt8>, publicExponent: some Collection<UInt8>, privateExponent: some Collection<UInt8>,
            prime1: some Collection<UInt8>, prime2: some Collection<UInt8>, coefficient: some Collection<UInt8>
        ) throws(CryptoError) {
            let publicKey = try PublicKey(modulus: modulus, exponent: publicExponent)
            let limbs = publicKey.modulusLimbs.count
            // The primes: odd, above 64 bits, each in as many limbs as its bytes need (a key may
            // have primes of unequal sizes); their product must be n.
            let pBytes = Array(prime1.drop { $0 == 0 }), qBytes = Array(prime2.drop { $0 == 0 })
            guard pBytes.count > 8, qBytes.count > 8, pBytes.count + qBytes.count <= 8 * limbs + 1,
                  let p = Limbs(bigEndian: pBytes, count: (pBytes.count + 7) / 8),
                  let q = Limbs(bigEndian: qBytes, count: (qBytes.count + 7) / 8),
                  p.words[0] & 1 == 1, q.words[0] & 1 == 1
            else { throw CryptoError(.invalidKey, "RSA primes out of range") }
            let product = Limbs.multiply(p, q)
            let width = max(product.count, limbs)
            guard product.resized(to: width).isEqual(to: publicKey.modulusLimbs.resized(to: width)) else {
                throw CryptoError(.invalidKey, "RSA primes do not multiply to the modulus")
            }
            guard let d = Limbs(bigEndian: privateExponent, count: limbs),
                  let qInverse = Limbs(bigEndian: coefficient, count: limbs)
            else { throw CryptoError(.invalidKey, "RSA private exponent or coefficient out of range") }
            self.publicKey = publicKey
            self.privateExponent = d
            self.prime1 = MontgomeryModulusLimbs(p)
            self.prime2 = MontgomeryModulusLimbs(q)
            /// m - k for a small k (m above 64 bits: no borrow out of the value).
            func minus(_ m: Limbs, _ k: UInt64) -> Limbs {
                let small = Limbs(count: m.count)
                small.words[0] = k
                let result = Limbs(count: m.count)
                Limbs.subtract(m.words, small.words, into: result.words, count: m.count)
                return result
            }
            exponent1 = Limbs.reduce(d, modulo: minus(p, 1))
            exponent2 = Limbs.reduce(d, modulo: minus(q, 1))
            self.coefficient = Limbs.reduce(qInverse, modulo: p)
            inverseExponent1 = minus(p, 2)
            inverseExponent2 = minus(q, 2)
            // Parts that do not belong together (a wrong d or coefficient) give a bad signature.
            guard (try? signature(for: [0x6D, 0x79, 0x70, 0x61, 0x73, 0x73], digest: .sha256)) != nil else {
                throw CryptoError(.invalidKey, "RSA key parts do not agree")
            }
        }

        /// Reads an RFC 8017 Appendix A.1.2 `RSAPrivateKey` (PKCS#1 DER, the body of OpenSSL's
        /// `RSA PRIVATE KEY` PEM): version 0 (two primes), n, e, d, p, q, dp, dq, qInv.
        /// - Throws: `CryptoError.invalidKey` for bad DER, a multi-prime key (version 1) or bad parts.
        public init(pkcs1DER bytes: some Collection<UInt8>) throws(CryptoError) {
            let der = Array(bytes)
            guard der.count <= 8192 else { throw CryptoError(.invalidKey, "PKCS#1 key longer than 8192 bytes") }
            try SigningPrivateKey.readDER("PKCS#1", DERReader.validateStructure(der[...], maxDepth: 4))
            try self.init(pkcs1: der[...], format: "PKCS#1")
        }

        /// Reads a PKCS#8 `PrivateKeyInfo` (RFC 5208, RFC 5958) whose algorithm is rsaEncryption
        /// (1.2.840.113549.1.1.1, parameters NULL) around a PKCS#1 `RSAPrivateKey`: the body of a
        /// `PRIVATE KEY` PEM as OpenSSL and `ssh-keygen -m PKCS8` write it.
        /// - Throws: `CryptoError.invalidKey` for bad DER, another algorithm or bad parts.
        public init(pkcs8DER bytes: some Collection<UInt8>) throws(CryptoError) {
            let der = Array(bytes)
            let format = "PKCS#8"
            guard der.count <= 8192 else { throw CryptoError(.invalidKey, "PKCS#8 key longer than 8192 bytes") }
            try SigningPrivateKey.readDER(format, DERReader.validateStructure(der[...], maxDepth: 6))
            var outer = DERReader(der, maxDepth: 6)
            var info = try SigningPrivateKey.readDER(format, outer.readSequence())
            try SigningPrivateKey.readDER(format, outer.finish())
            let version = try SigningPrivateKey.readDER(format, info.readSmallInteger())
            guard version == 0 || version == 1 else { throw CryptoError(.invalidKey, "PKCS#8 version \(version)") }
            var algorithm = try SigningPrivateKey.readDER(format, info.readSequence())
            guard Array(try SigningPrivateKey.readDER(format, algorithm.readObjectIdentifier())) == KeyIdentifiers.rsaEncryption else {
                throw CryptoError(.invalidKey, "PKCS#8 key is not an RSA key")
            }
            if !algorithm.isAtEnd { try SigningPrivateKey.readDER(format, algorithm.readNull()) }
            try SigningPrivateKey.readDER(format, algorithm.finish())
            let octets = try SigningPrivateKey.readDER(format, info.readOctetString())
            // Attributes [0] and a v2 public key [1] may follow; neither matters here.
            try self.init(pkcs1: octets, format: format)
        }

        /// The fields of a DER `RSAPrivateKey` whose structure was validated.
        private init(pkcs1 der: ArraySlice<UInt8>, format: String) throws(CryptoError) {
            var outer = DERReader(der, maxDepth: 4)
            var sequence = try SigningPrivateKey.readDER(format, outer.readSequence())
            try SigningPrivateKey.readDER(format, outer.finish())
            guard try SigningPrivateKey.readDER(format, sequence.readSmallInteger()) == 0 else {
                throw CryptoError(.invalidKey, "RSAPrivateKey version is not 0 (multi-prime keys are not supported)")
            }
            var parts: [ArraySlice<UInt8>] = []
            for _ in 0..<8 { parts.append(try SigningPrivateKey.readDER(format, sequence.readUnsignedInteger())) }
            try SigningPrivateKey.readDER(format, sequence.finish())
            try self.init(modulus: parts[0], publicExponent: parts[1], privateExponent: parts[2],
                          prime1: parts[3], prime2: parts[4], coefficient: parts[7])
        }

        /// The PKCS#1 v1.5 signature of `message` (RFC 8017 §8.2.1): k bytes.
        /// - Throws: `CryptoError.invalidKey` when the computed signature does not verify (a fault;
        ///   nothing is returned).
        public func signature(for message: [UInt8], digest: Digest) throws(CryptoError) -> [UInt8] {
            let k = publicKey.byteCount
            let limbs = publicKey.modulusLimbs.count
            let encoded = RSA.encode(message, digest: digest, length: k)
            let m = Limbs(bigEndian: encoded, count: limbs)!  // below n: its first byte is 0, n's is not
            // Blinding: r < n at random, m' = m · r^e mod n.
            let r = Limbs(count: limbs)
            r.words.withMemoryRebound(to: UInt8.self, capacity: 8 * limbs) { bytes in
                SecureRandom.fill(UnsafeMutableRawBufferPointer(start: bytes, count: 8 * limbs))
            }
            let topBits = publicKey.modulusLimbs.bitLength - 1 - 64 * (limbs - 1)  // keep r below n
            r.words[limbs - 1] &= topBits >= 64 ? ~0 : (UInt64(1) << UInt64(topBits)) &- 1
            r.words[0] |= 1  // never zero
            let context = publicKey.context
            let blinded = context.multiplyPlain(context.publicPower(r, publicKey.exponentLimbs), m)
            // CRT halves with the blinding removed in each: s_p = m'^dp · r^-1 mod p.
            func crtHalf(_ prime: MontgomeryModulusLimbs, _ exponent: Limbs, _ inverseExponent: Limbs) -> Limbs {
                let reduced = Limbs.reduce(blinded, modulo: prime.modulus)
                let rReduced = Limbs.reduce(r, modulo: prime.modulus)
                let inverse = prime.power(rReduced, inverseExponent)
                return prime.multiplyPlain(prime.power(reduced, exponent), inverse)
            }
            let sp = crtHalf(prime1, exponent1, inverseExponent1)
            let sq = crtHalf(prime2, exponent2, inverseExponent2)
            // Garner: h = qInv · (s_p - s_q) mod p; s = s_q + h · q (< n).
            let pLimbs = prime1.n
            let sqModP = Limbs.reduce(sq, modulo: prime1.modulus)
            let difference = Limbs(count: pLimbs)
            let borrow = Limbs.subtract(sp.words, sqModP.words, into: difference.words, count: pLimbs)
            let corrected = Limbs(count: pLimbs)
            Limbs.add(difference.words, prime1.modulus.words, into: corrected.words, count: pLimbs)
            Limbs.select(maskFromBit(borrow), corrected.words, difference.words, into: difference.words, count: pLimbs)
            let h = prime1.multiplyPlain(coefficient, difference)
            let product = Limbs.multiply(h, prime2.modulus)
            let sum = product.resized(to: product.count + 1)
            let extended = sq.resized(to: product.count + 1)
            Limbs.add(sum.words, extended.words, into: sum.words, count: product.count + 1)
            let signature = sum.resized(to: limbs).bigEndianBytes(count: k)
            guard publicKey.isValidSignature(signature, for: message, digest: digest) else {
                throw CryptoError(.invalidKey, "RSA signature failed its check")
            }
            return signature
        }

        /// Calls `body` with d, q^-1 mod p, p and q big-endian (scratch copies, wiped after).
        func withSecretParts(_ body: ([UInt8], [UInt8], [UInt8], [UInt8]) -> Void) {
            var d = privateExponent.bigEndianBytes(count: 8 * privateExponent.count)
            var iqmp = coefficient.bigEndianBytes(count: 8 * coefficient.count)
            var p = prime1.modulus.bigEndianBytes(count: 8 * prime1.n)
            var q = prime2.modulus.bigEndianBytes(count: 8 * prime2.n)
            defer {
                wipe(&d)
                wipe(&iqmp)
                wipe(&p)
                wipe(&q)
            }
            body(d, iqmp, p, q)
        }

        /// The public key only.
        public var description: String { "RSA.PrivateKey(\(publicKey))" }
    }
}
