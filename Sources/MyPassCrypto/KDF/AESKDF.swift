import MyPassBytes

/// KeePass's AES-KDF (KDBX 3.1 and 4.x, KDF UUID c9d9f39a-628a-4460-bf74-0d08c18a4fea):
/// the 32-byte composite key is split into two 16-byte halves, each half is encrypted `rounds`
/// times in place with AES-256-ECB keyed by the 32-byte seed, and the result is hashed with
/// SHA-256 (KeePass `AesKdf.TransformKey`).
///
/// The two halves are independent chains; they run together in one bitsliced AES state (lanes 0
/// and 1), and stay in bit-plane form for all rounds, so no table is ever indexed by the key.
public enum AESKDF {
    /// The transformed halves before the final hash: `rounds` AES-256-ECB encryptions of each
    /// 16-byte half of `key`, keyed with `seed`.
    ///
    /// Cost: `rounds` × 2 AES-256 block encryptions (KeePass's default is 60,000 rounds).
    /// - Parameters:
    ///   - key: the 32-byte composite key.
    ///   - seed: the 32-byte transform seed (KDBX 3.1 header field 5; KDBX 4 KDF parameter "S").
    ///   - rounds: number of encryptions per half (KDBX 3.1 field 6; KDBX 4 parameter "R"); 0 is
    ///     allowed and returns `key` unchanged.
    /// - Returns: 32 bytes.
    /// - Throws: `.invalidKeySize` unless both `key` and `seed` have 32 bytes.
    public static func transformRaw(key: [UInt8], seed: [UInt8], rounds: UInt64) throws(CryptoError) -> [UInt8] {
        guard key.count == 32 else {
            throw CryptoError(.invalidKeySize, "AES-KDF needs a 32-byte composite key, got \(key.count) bytes")
        }
        guard seed.count == 32 else {
            throw CryptoError(.invalidKeySize, "AES-KDF needs a 32-byte seed, got \(seed.count) bytes")
        }
        let aes = try AES256(key: seed)
        var buffer = [UInt8](repeating: 0, count: 64)
        defer { wipe(&buffer) }
        for i in 0..<32 { buffer[i] = key[i] }
        buffer.withUnsafeMutableBytes { raw in
            var planes = AESPlanes(loading: raw.baseAddress!)
            let keys = aes.schedule.encryption
            var remaining = rounds
            while remaining > 0 {
                planes.encrypt256(keys)
                remaining &-= 1
            }
            planes.store(to: raw.baseAddress!)
            planes = AESPlanes()
        }
        return Array(buffer[0..<32])
    }
}
