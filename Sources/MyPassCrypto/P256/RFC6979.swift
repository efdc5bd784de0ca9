import MyPassBytes

/// Deterministic ECDSA nonces (RFC 6979 §3.2) for P-256 with HMAC-SHA-256 (qlen = hlen = 256).
enum RFC6979 {
    /// The nonce k in 1 ..< n for private key `privateKey` (32 bytes, big-endian, already < n)
    /// and message digest `digest` (32 bytes).
    ///
    /// Constant time apart from the retry of step h.3, which happens with probability about
    /// 2^-32 and reveals only that a candidate was out of range. The HMAC keys and V live in
    /// SecureBytes; scratch arrays are wiped.
    static func nonce(privateKey: [UInt8], digest: [UInt8]) -> UInt256 {
        // bits2octets(h1) = int2octets(bits2int(h1) mod n) (§2.3.4); bits2int of 256 bits is the integer itself.
        let h1 = UInt256(bigEndian: digest)
        let (h1MinusN, borrow) = UInt256.subtract(h1, P256OrderModulus.modulus)
        var h1Octets = UInt256.select(maskFromBit(borrow), h1, h1MinusN).bigEndianBytes
        defer { wipe(&h1Octets) }

        var v = [UInt8](repeating: 0x01, count: 32)
        var k = SecureBytes(zeroedCount: 32)
        defer { wipe(&v) }

        func hmac(_ key: SecureBytes, _ parts: [[UInt8]]) -> [UInt8] {
            var mac = HMAC<SHA256>(key: key)
            for part in parts { mac.update(part) }
            return mac.finalize()
        }
        func setK(_ bytes: [UInt8]) {
            var bytes = bytes
            k = SecureBytes(bytes)
            wipe(&bytes)
        }
        // Steps d-g.
        setK(hmac(k, [v, [0x00], privateKey, h1Octets]))
        v = hmac(k, [v])
        setK(hmac(k, [v, [0x01], privateKey, h1Octets]))
        v = hmac(k, [v])
        // Step h.
        while true {
            v = hmac(k, [v])
            let candidate = UInt256(bigEndian: v)
            let inRange = UInt256.lessThan(candidate, P256OrderModulus.modulus) & ~(candidate.isZeroMask & 1)
            if inRange == 1 { return candidate }
            setK(hmac(k, [v, [0x00]]))
            v = hmac(k, [v])
        }
    }
}
