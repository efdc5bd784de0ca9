import MyPassBytes

/// KeePass's AES-KDF (KDBX 3.1 and 4.x, KDF UUID c9d9f39a-628a-4460-bf74-0d08c18a4fea):
/// the 32-byte composite key is split into two 16-byte halves, each half is encrypted `rounds`
/// times in place with AES-256-ECB keyed by the 32-byte seed, and the result is hashed with
/// SHA-256 (KeePass `AesKdf.TransformKey`).
///
/// The two halves are independent chains. With the CPU's AES instructions (``CryptoBackend/aes``)
/// the two chains are interleaved, each instruction's latency shared by both; the portable code
/// runs them together in one bitsliced AES state (lanes 0 and 1), in bit-plane form for all
/// rounds, so no table is ever indexed by the key.
public enum AESKDF {
    /// How many rounds run between two calls of a progress handler (a few milliseconds' work).
    public static let progressInterval: UInt64 = 16_384

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
    ///   - progress: called every ``progressInterval`` rounds with the fraction done (0...1); return
    ///     `false` to stop. `nil`: no reports.
    /// - Throws: `.invalidKeySize` unless both `key` and `seed` have 32 bytes; `.cancelled` when
    ///   `progress` returned `false` (the partial state is wiped).
    public static func transformRaw(
        key: [UInt8], seed: [UInt8], rounds: UInt64, progress: KDFProgressHandler? = nil
    ) throws(CryptoError) -> [UInt8] {
        try transformRaw(key: key, seed: seed, rounds: rounds, backend: CryptoBackend.selection.aes, progress: progress)
    }

    /// ``transformRaw(key:seed:rounds:progress:)`` on `backend` (the tests run every available one).
    package static func transformRaw(
        key: [UInt8], seed: [UInt8], rounds: UInt64, backend: AESBackend, progress: KDFProgressHandler? = nil
    ) throws(CryptoError) -> [UInt8] {
        guard key.count == 32 else {
            throw CryptoError(.invalidKeySize, "AES-KDF needs a 32-byte composite key, got \(key.count) bytes")
        }
        guard seed.count == 32 else {
            throw CryptoError(.invalidKeySize, "AES-KDF needs a 32-byte seed, got \(seed.count) bytes")
        }
        let aes = try AES256(key: seed, backend: backend)
        var buffer = [UInt8](repeating: 0, count: 64)
        defer { wipe(&buffer) }
        for i in 0..<32 { buffer[i] = key[i] }
        let completed: Bool = buffer.withUnsafeMutableBytes { raw in
            if let kernels = aes.schedule.backend.kernels {
                var remaining = rounds
                while remaining > 0 {
                    let batch = progress == nil ? remaining : min(remaining, progressInterval)
                    kernels.kdf(aes.schedule.roundKeys, raw.baseAddress!, batch)
                    remaining &-= batch
                    if let progress, !progress(Double(rounds - remaining) / Double(rounds)) { return false }
                }
                return true
            }
            var planes = AESPlanes(loading: raw.baseAddress!)
            defer { planes = AESPlanes() }
            let keys = aes.schedule.encryption
            var remaining = rounds
            while remaining > 0 {
                // Between reports the loop is the plain one: no closure call per round.
                var batch = progress == nil ? remaining : min(remaining, progressInterval)
                remaining &-= batch
                while batch > 0 {
                    planes.encrypt256(keys)
                    batch &-= 1
                }
                if let progress, !progress(Double(rounds - remaining) / Double(rounds)) { return false }
            }
            planes.store(to: raw.baseAddress!)
            return true
        }
        guard completed else { throw CryptoError(.cancelled, "AES-KDF was cancelled") }
        return Array(buffer[0..<32])
    }

    /// The AES-KDF transformed key: SHA-256 of `transformRaw(key:seed:rounds:)`.
    ///
    /// Cost: `rounds` × 2 AES-256 block encryptions plus one SHA-256.
    /// - Parameters: as `transformRaw(key:seed:rounds:)`.
    /// - Returns: the 32-byte transformed key.
    /// - Throws: `.invalidKeySize` unless both `key` and `seed` have 32 bytes; `.cancelled`.
    public static func transform(
        key: [UInt8], seed: [UInt8], rounds: UInt64, progress: KDFProgressHandler? = nil
    ) throws(CryptoError) -> [UInt8] {
        var raw = try transformRaw(key: key, seed: seed, rounds: rounds, progress: progress)
        defer { wipe(&raw) }
        return SHA256.hash(raw)
    }
}
