/// Object identifier contents octets (X.690 §8.19) of the key algorithms MyPass reads and writes.
enum KeyIdentifiers {
    /// id-ecPublicKey, 1.2.840.10045.2.1 (RFC 5480 §2.1.1).
    static let ecPublicKey: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]
    /// secp256r1 / prime256v1, 1.2.840.10045.3.1.7 (RFC 5480 §2.1.1.1).
    static let prime256v1: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
    /// rsaEncryption, 1.2.840.113549.1.1.1 (RFC 8017 Appendix A.1).
    static let rsaEncryption: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
    /// id-Ed25519, 1.3.101.112 (RFC 8410 §3).
    static let ed25519: [UInt8] = [0x2B, 0x65, 0x70]
}
