import MyPassBytes

/// AES-256 (FIPS 197) with a 32-byte key: single-block encryption and decryption.
///
/// Two implementations give the same bytes (``CryptoBackend/aes`` names the one in use):
/// - the CPU's AES instructions (AES-NI, ARMv8 AESE/AESD) where ``CryptoBackend`` found them:
///   constant-time by construction, one instruction a round and no table in memory;
/// - the portable code, bitsliced and fixsliced (see `AESBitslice.swift`): it never indexes a
///   table with secret data, so its timing does not depend on the key or the data. It works on
///   four blocks at once; modes with independent blocks (CBC decryption, AES-KDF's two halves)
///   use that, a lone block costs as much as four. There is no table-driven variant.
///
/// The key expansion is the same for both (its S-box is the bitsliced circuit). The expanded key
/// lives in memory that is wiped when the last copy of the value is released.
public struct AES256: Sendable {
    /// Bytes in a key (32).
    public static let keyByteCount = 32
    /// Bytes in a block (16).
    public static let blockByteCount = 16

    /// One 16-byte block, in the byte order of FIPS 197 (input byte 0 first).
    public typealias Block = (
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
    )

    /// The expanded key in the backend's form. Portable: round keys as bit planes, 15 encryption
    /// keys then 15 decryption keys, 8 words each. Hardware: 15 encryption round keys then the 15
    /// equivalent inverse cipher's keys, 16 bytes each (``AESBackend``'s layout).
    final class Schedule: @unchecked Sendable {
        let backend: AESBackend
        let wordCount: Int
        let words: UnsafeMutablePointer<UInt64>

        init(backend: AESBackend) {
            self.backend = backend
            wordCount = backend.kernels == nil ? 2 * 15 * 8 : 2 * 15 * 2
            words = .allocate(capacity: wordCount)
            words.initialize(repeating: 0, count: wordCount)
        }

        var encryption: UnsafePointer<UInt64> { UnsafePointer(words) }
        var decryption: UnsafePointer<UInt64> { UnsafePointer(words + 15 * 8) }
        /// Hardware layout: the encryption round keys (240 bytes).
        var roundKeys: UnsafeRawPointer { UnsafeRawPointer(words) }
        /// Hardware layout: the decryption round keys (240 bytes).
        var inverseRoundKeys: UnsafeRawPointer { UnsafeRawPointer(words + 30) }

        deinit {
            secureZero(words, count: wordCount * 8)
            words.deallocate()
        }
    }

    let schedule: Schedule

    /// Expands a 32-byte key (FIPS 197 §5.2) for the backend in use.
    /// - Throws: `CryptoError.invalidKeySize` unless `key` has exactly 32 bytes.
    public init(key: [UInt8]) throws(CryptoError) {
        try self.init(key: key, backend: CryptoBackend.selection.aes)
    }

    /// Expands a 32-byte key for `backend` (the tests run every available backend).
    /// - Throws: `CryptoError.invalidKeySize` unless `key` has exactly 32 bytes.
    package init(key: [UInt8], backend: AESBackend) throws(CryptoError) {
        guard key.count == AES256.keyByteCount else {
            throw CryptoError(.invalidKeySize, "AES-256 needs a 32-byte key, got \(key.count) bytes")
        }
        schedule = Schedule(backend: backend)
        var expanded = [UInt8](repeating: 0, count: 240)
        defer { wipe(&expanded) }
        AES256.expandKey(key, into: &expanded)
        if backend.kernels != nil {
            let bytes = UnsafeMutableRawPointer(schedule.words)
            expanded.withUnsafeBytes { bytes.copyMemory(from: $0.baseAddress!, byteCount: 240) }
            AES256.storeInverseRoundKeys(expanded, into: bytes + 240)
            return
        }
        let enc = schedule.words, dec = schedule.words + 15 * 8
        var stored = [UInt8](repeating: 0, count: 64)
        defer { wipe(&stored) }
        for j in 0...14 {
            AES256.storeRoundKey(expanded, round: j, pendingShifts: j % 4, into: &stored)
            AES256.loadPlanes(stored, into: enc + 8 * j)
            AES256.storeRoundKey(expanded, round: j, pendingShifts: (j + 2) % 4, into: &stored)
            AES256.loadPlanes(stored, into: dec + 8 * (14 - j))
        }
    }

    /// The backend this value runs on.
    package var backend: AESBackend { schedule.backend }

    /// The equivalent inverse cipher's round keys (FIPS 197 §5.3.5): `w[14]`, InvMixColumns of
    /// `w[13]` ... `w[1]`, `w[0]`, 16 bytes each. InvMixColumns is computed with shifts and masks,
    /// no table: as MixColumns after adding x^2·(a0 + a2) to a0 and a2, x^2·(a1 + a3) to a1 and a3.
    private static func storeInverseRoundKeys(_ w: [UInt8], into out: UnsafeMutableRawPointer) {
        /// Multiplication by x in GF(2^8), without a branch on the byte.
        @inline(__always) func times2(_ b: UInt8) -> UInt8 { (b &<< 1) ^ (0x1B & (0 &- (b &>> 7))) }
        for i in 0...14 {
            for column in 0..<4 {
                let source = 16 * (14 - i) + 4 * column, target = 16 * i + 4 * column
                var a0 = w[source], a1 = w[source + 1], a2 = w[source + 2], a3 = w[source + 3]
                if i != 0 && i != 14 {
                    let u = times2(times2(a0 ^ a2)), v = times2(times2(a1 ^ a3))
                    a0 ^= u; a1 ^= v; a2 ^= u; a3 ^= v
                    let t = a0 ^ a1 ^ a2 ^ a3
                    (a0, a1, a2, a3) = (a0 ^ t ^ times2(a0 ^ a1), a1 ^ t ^ times2(a1 ^ a2),
                                        a2 ^ t ^ times2(a2 ^ a3), a3 ^ t ^ times2(a3 ^ a0))
                }
                out.storeBytes(of: a0, toByteOffset: target, as: UInt8.self)
                out.storeBytes(of: a1, toByteOffset: target + 1, as: UInt8.self)
                out.storeBytes(of: a2, toByteOffset: target + 2, as: UInt8.self)
                out.storeBytes(of: a3, toByteOffset: target + 3, as: UInt8.self)
            }
        }
    }

    /// FIPS 197 key expansion for Nk = 8 into 240 bytes; SubWord runs through the bitsliced S-box.
    private static func expandKey(_ key: [UInt8], into w: inout [UInt8]) {
        for i in 0..<32 { w[i] = key[i] }
        var rcon: UInt8 = 1
        var scratch = [UInt8](repeating: 0, count: 64)
        defer { wipe(&scratch) }
        for i in 8..<60 {
            var t = (w[4 * i - 4], w[4 * i - 3], w[4 * i - 2], w[4 * i - 1])
            if i % 8 == 0 || i % 8 == 4 {
                if i % 8 == 0 { t = (t.1, t.2, t.3, t.0) }
                scratch[0] = t.0; scratch[1] = t.1; scratch[2] = t.2; scratch[3] = t.3
                scratch.withUnsafeMutableBytes { buffer in
                    var planes = AESPlanes(loading: UnsafeRawPointer(buffer.baseAddress!))
                    planes.subBytes()
                    planes.store(to: buffer.baseAddress!)
                }
                t = (scratch[0], scratch[1], scratch[2], scratch[3])
                if i % 8 == 0 {
                    t.0 ^= rcon
                    rcon = (rcon << 1) ^ ((rcon >> 7) &* 0x1B)
                }
            }
            w[4 * i] = w[4 * i - 32] ^ t.0
            w[4 * i + 1] = w[4 * i - 31] ^ t.1
            w[4 * i + 2] = w[4 * i - 30] ^ t.2
            w[4 * i + 3] = w[4 * i - 29] ^ t.3
        }
    }

    /// Round key `round` laid out as the fixsliced state with `pendingShifts` skipped ShiftRows
    /// (stored column c holds true column c - r·i), repeated for all four blocks.
    private static func storeRoundKey(_ w: [UInt8], round: Int, pendingShifts i: Int, into out: inout [UInt8]) {
        for c in 0..<4 {
            for r in 0..<4 {
                let source = 4 * ((c - r * i) & 3) + r
                let byte = w[16 * round + source]
                for b in 0..<4 { out[16 * b + 4 * c + r] = byte }
            }
        }
    }

    private static func loadPlanes(_ bytes: [UInt8], into destination: UnsafeMutablePointer<UInt64>) {
        let planes = bytes.withUnsafeBytes { AESPlanes(loading: $0.baseAddress!) }
        destination[0] = planes.p0; destination[1] = planes.p1; destination[2] = planes.p2
        destination[3] = planes.p3; destination[4] = planes.p4; destination[5] = planes.p5
        destination[6] = planes.p6; destination[7] = planes.p7
    }

    // MARK: Batches of four blocks

    /// Encrypts four consecutive blocks (64 bytes) from `input` to `output` (may be the same), on
    /// the backend whose layout the schedule holds (hardware: four blocks of ECB, each one block of
    /// CBC with a zero chaining value).
    func encryptFour(_ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer) {
        if schedule.backend.kernels != nil {
            for block in 0..<4 { crypt(input + 16 * block, into: output + 16 * block, decrypt: false) }
            return
        }
        var planes = AESPlanes(loading: input)
        planes.encrypt256(schedule.encryption)
        planes.store(to: output)
    }

    /// Decrypts four consecutive blocks (64 bytes) from `input` to `output` (may be the same), on
    /// the backend whose layout the schedule holds.
    func decryptFour(_ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer) {
        if schedule.backend.kernels != nil {
            for block in 0..<4 { crypt(input + 16 * block, into: output + 16 * block, decrypt: true) }
            return
        }
        var planes = AESPlanes(loading: input)
        planes.decrypt256(schedule.decryption)
        planes.store(to: output)
    }

    // MARK: Public single-block API

    /// Encrypts one 16-byte block in place (FIPS 197 §5.1).
    public func encryptBlock(_ block: inout Block) {
        withUnsafeMutableBytes(of: &block) { crypt(UnsafeMutableRawPointer($0.baseAddress!), decrypt: false) }
    }

    /// Decrypts one 16-byte block in place (FIPS 197 §5.3).
    public func decryptBlock(_ block: inout Block) {
        withUnsafeMutableBytes(of: &block) { crypt(UnsafeMutableRawPointer($0.baseAddress!), decrypt: true) }
    }

    /// Encrypts one block. `block` must hold exactly 16 bytes (a precondition).
    /// - Returns: the 16-byte ciphertext.
    public func encrypt(block: [UInt8]) -> [UInt8] {
        precondition(block.count == 16, "AES works on 16-byte blocks")
        var out = block
        out.withUnsafeMutableBytes { crypt($0.baseAddress!, decrypt: false) }
        return out
    }

    /// Decrypts one block. `block` must hold exactly 16 bytes (a precondition).
    /// - Returns: the 16-byte plaintext.
    public func decrypt(block: [UInt8]) -> [UInt8] {
        precondition(block.count == 16, "AES works on 16-byte blocks")
        var out = block
        out.withUnsafeMutableBytes { crypt($0.baseAddress!, decrypt: true) }
        return out
    }

    private func crypt(_ block: UnsafeMutableRawPointer, decrypt: Bool) {
        crypt(UnsafeRawPointer(block), into: block, decrypt: decrypt)
    }

    /// One block from `input` to `output` (may be the same).
    private func crypt(_ input: UnsafeRawPointer, into block: UnsafeMutableRawPointer, decrypt: Bool) {
        if let kernels = schedule.backend.kernels {
            // One block of CBC with a zero chaining value is one block of ECB.
            withUnsafeTemporaryAllocation(byteCount: 32, alignment: 16) { scratch in
                let chain = scratch.baseAddress!, result = chain + 16
                chain.initializeMemory(as: UInt8.self, repeating: 0, count: 32)
                if decrypt {
                    kernels.cbcDecrypt(schedule.inverseRoundKeys, input, result, 1, chain)
                } else {
                    kernels.cbcEncrypt(schedule.roundKeys, input, result, 1, chain)
                }
                block.copyMemory(from: result, byteCount: 16)
                secureZero(chain, count: 32)
            }
            return
        }
        var planes = AESPlanes(block: UInt64(littleEndian: input.loadUnaligned(as: UInt64.self)),
                               UInt64(littleEndian: input.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        if decrypt { planes.decrypt256(schedule.decryption) } else { planes.encrypt256(schedule.encryption) }
        let (lo, hi) = planes.block0()
        block.storeBytes(of: lo.littleEndian, as: UInt64.self)
        block.storeBytes(of: hi.littleEndian, toByteOffset: 8, as: UInt64.self)
    }
}
