import MyPassKDBX

/// A deterministic XOR keystream (64-bit LCG) standing in for the inner random stream, counting
/// the bytes it gave out.
struct TestKeystream: ProtectedValueStream {
    var state: UInt64
    var consumed = 0

    init(seed: UInt64) { state = seed }

    mutating func apply(to bytes: inout [UInt8]) {
        for i in bytes.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes[i] ^= UInt8(truncatingIfNeeded: state >> 56)
        }
        consumed += bytes.count
    }
}

/// The null inner stream (InnerStreamAlgorithm.none): protected values are in clear base64.
struct NullStream: ProtectedValueStream {
    mutating func apply(to bytes: inout [UInt8]) {}
}

/// Reads a whole XML body given as text.
func readBody(_ xml: String, version: KDBXVersion = .v4_0, pool: [BinaryPoolItem] = [],
              stream: inout some ProtectedValueStream, limits: VaultXMLLimits = VaultXMLLimits()) throws -> VaultBody {
    try VaultXMLReader.read(Array(xml.utf8), version: version, binaryPool: pool, stream: &stream, limits: limits)
}

/// Reads a whole XML body with the null stream.
func readBody(_ xml: String, version: KDBXVersion = .v4_0, pool: [BinaryPoolItem] = [],
              limits: VaultXMLLimits = VaultXMLLimits()) throws -> VaultBody {
    var stream = NullStream()
    return try readBody(xml, version: version, pool: pool, stream: &stream, limits: limits)
}

/// Wraps group XML in a minimal KeePassFile document.
func document(root: String, meta: String = "") -> String {
    """
    <?xml version="1.0" encoding="utf-8" standalone="yes"?>
    <KeePassFile><Meta>\(meta)</Meta><Root>\(root)</Root></KeePassFile>
    """
}

/// The base64 of `text`'s UTF-8 bytes XORed with the next bytes of `stream` (as a writer masks).
func masked(_ text: String, _ stream: inout TestKeystream) -> String {
    var bytes = Array(text.utf8)
    stream.apply(to: &bytes)
    return base64(bytes)
}

/// Standard base64 with padding (test-side reference, independent of MyPassBytes).
func base64(_ bytes: [UInt8]) -> String {
    let table = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
    var out = ""
    var i = 0
    while i < bytes.count {
        let b0 = bytes[i], b1 = i + 1 < bytes.count ? bytes[i + 1] : 0, b2 = i + 2 < bytes.count ? bytes[i + 2] : 0
        out.append(table[Int(b0 >> 2)])
        out.append(table[Int((b0 & 3) << 4 | b1 >> 4)])
        out.append(i + 1 < bytes.count ? table[Int((b1 & 15) << 2 | b2 >> 6)] : "=")
        out.append(i + 2 < bytes.count ? table[Int(b2 & 63)] : "=")
        i += 3
    }
    return out
}
