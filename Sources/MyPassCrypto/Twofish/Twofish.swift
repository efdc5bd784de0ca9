import MyPassBytes

/// Twofish (Schneier et al., "Twofish: A 128-Bit Block Cipher", 1998) with 16-, 24- or 32-byte
/// keys: single-block encryption and decryption. KeePassXC and KeePass's Twofish plugin use it with
/// 32-byte keys in CBC mode (`TwofishCBCEncryptor` / `TwofishCBCDecryptor`).
///
/// Side channels: Twofish's S-boxes are key-dependent by design, so this implementation, like every
/// practical software Twofish, precomputes four 256-entry key-dependent tables (S-box fused with
/// the MDS matrix) and indexes them with secret data. Table lookups can leak through cache timing
/// to an attacker sharing the CPU; there is no practical bitsliced Twofish. AES-256 or ChaCha20
/// are the constant-time choices.
///
/// The key-dependent tables and subkeys are wiped when the last copy is released.
public struct Twofish: Sendable {
    /// Bytes in a block (16).
    public static let blockByteCount = 16

    final class Schedule: @unchecked Sendable {
        /// 40 subkeys K0...K39, then the four fused S-box/MDS tables of 256 words each.
        let words: UnsafeMutablePointer<UInt32>
        static let wordCount = 40 + 4 * 256

        init() {
            words = .allocate(capacity: Schedule.wordCount)
            words.initialize(repeating: 0, count: Schedule.wordCount)
        }

        deinit {
            secureZero(words, count: Schedule.wordCount * 4)
            words.deallocate()
        }
    }

    let schedule: Schedule

    /// Runs the key schedule (Twofish paper §4.3).
    /// - Parameter key: 16, 24 or 32 bytes.
    /// - Throws: `.invalidKeySize` for any other length.
    public init(key: [UInt8]) throws(CryptoError) {
        guard key.count == 16 || key.count == 24 || key.count == 32 else {
            throw CryptoError(.invalidKeySize, "Twofish needs a 16-, 24- or 32-byte key, got \(key.count) bytes")
        }
        schedule = Schedule()
        let k = key.count / 8
        var me = [UInt32](repeating: 0, count: k), mo = [UInt32](repeating: 0, count: k)
        var sbox = [UInt32](repeating: 0, count: k)
        defer { wipe(&me); wipe(&mo); wipe(&sbox) }
        for i in 0..<k {
            me[i] = littleEndianWord(key, 8 * i)
            mo[i] = littleEndianWord(key, 8 * i + 4)
            // S vector, reversed order: S_{k-1-i} = RS · m[8i ..< 8i+8].
            sbox[k - 1 - i] = TwofishTables.reedSolomon(key, 8 * i)
        }
        let w = schedule.words
        let rho: UInt32 = 0x0101_0101
        for i in 0..<20 {
            let a = TwofishTables.h(UInt32(2 * i) &* rho, me)
            var b = TwofishTables.h(UInt32(2 * i + 1) &* rho, mo)
            b = (b << 8) | (b >> 24)
            w[2 * i] = a &+ b
            let t = a &+ 2 &* b
            w[2 * i + 1] = (t << 9) | (t >> 23)
        }
        // Fused tables: T_j[x] = MDS column j · s_j(x), so g(X) = T0[x0] ^ T1[x1] ^ T2[x2] ^ T3[x3].
        for x in 0..<256 {
            let bytes = TwofishTables.keyedSBoxes(UInt8(x), sbox)
            w[40 + x] = TwofishTables.mdsColumn(0, bytes.0)
            w[40 + 256 + x] = TwofishTables.mdsColumn(1, bytes.1)
            w[40 + 512 + x] = TwofishTables.mdsColumn(2, bytes.2)
            w[40 + 768 + x] = TwofishTables.mdsColumn(3, bytes.3)
        }
    }

    @inline(__always)
    private func g(_ x: UInt32, _ t: UnsafePointer<UInt32>) -> UInt32 {
        t[Int(x & 0xFF)] ^ t[256 + Int((x >> 8) & 0xFF)] ^ t[512 + Int((x >> 16) & 0xFF)]
            ^ t[768 + Int(x >> 24)]
    }

    /// Encrypts 16 bytes at `input` into `output` (may be the same memory).
    func encrypt(_ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer) {
        let k = UnsafePointer(schedule.words), t = k + 40
        var r0 = UInt32(littleEndian: input.loadUnaligned(fromByteOffset: 0, as: UInt32.self)) ^ k[0]
        var r1 = UInt32(littleEndian: input.loadUnaligned(fromByteOffset: 4, as: UInt32.self)) ^ k[1]
        var r2 = UInt32(littleEndian: input.loadUnaligned(fromByteOffset: 8, as: UInt32.self)) ^ k[2]
        var r3 = UInt32(littleEndian: input.loadUnaligned(fromByteOffset: 12, as: UInt32.self)) ^ k[3]
        var round = 0
        while round < 16 {
            // Two rounds per iteration, so the halves swap back without moves.
            var t0 = g(r0, t), t1 = g((r1 << 8) | (r1 >> 24), t)
            r2 ^= t0 &+ t1 &+ k[2 * round + 8]
            r2 = (r2 >> 1) | (r2 << 31)
            r3 = ((r3 << 1) | (r3 >> 31)) ^ (t0 &+ 2 &* t1 &+ k[2 * round + 9])
            t0 = g(r2, t); t1 = g((r3 << 8) | (r3 >> 24), t)
            r0 ^= t0 &+ t1 &+ k[2 * round + 10]
            r0 = (r0 >> 1) | (r0 << 31)
            r1 = ((r1 << 1) | (r1 >> 31)) ^ (t0 &+ 2 &* t1 &+ k[2 * round + 11])
            round += 2
        }
        output.storeBytes(of: (r2 ^ k[4]).littleEndian, toByteOffset: 0, as: UInt32.self)
        output.storeBytes(of: (r3 ^ k[5]).littleEndian, toByteOffset: 4, as: UInt32.self)
        output.storeBytes(of: (r0 ^ k[6]).littleEndian, toByteOffset: 8, as: UInt32.self)
        output.storeBytes(of: (r1 ^ k[7]).littleEndian, toByteOffset: 12, as: UInt32.self)
    }

    /// Decrypts 16 bytes at `input` into `output` (may be the same memory).
    func decrypt(_ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer) {
        let k = UnsafePointer(schedule.words), t = k + 40
        var r2 = UInt32(littleEndian: input.loadUnaligned(fromByteOffset: 0, as: UInt32.self)) ^ k[4]
        var r3 = UInt32(littleEndian: input.loadUnaligned(fromByteOffset: 4, as: UInt32.self)) ^ k[5]
        var r0 = UInt32(littleEndian: input.loadUnaligned(fromByteOffset: 8, as: UInt32.self)) ^ k[6]
        var r1 = UInt32(littleEndian: input.loadUnaligned(fromByteOffset: 12, as: UInt32.self)) ^ k[7]
        var round = 14
        while round >= 0 {
            var t0 = g(r2, t), t1 = g((r3 << 8) | (r3 >> 24), t)
            r0 = (r0 << 1) | (r0 >> 31)
            r0 ^= t0 &+ t1 &+ k[2 * round + 10]
            r1 ^= t0 &+ 2 &* t1 &+ k[2 * round + 11]
            r1 = (r1 >> 1) | (r1 << 31)
            t0 = g(r0, t); t1 = g((r1 << 8) | (r1 >> 24), t)
            r2 = (r2 << 1) | (r2 >> 31)
            r2 ^= t0 &+ t1 &+ k[2 * round + 8]
            r3 ^= t0 &+ 2 &* t1 &+ k[2 * round + 9]
            r3 = (r3 >> 1) | (r3 << 31)
            round -= 2
        }
        output.storeBytes(of: (r0 ^ k[0]).littleEndian, toByteOffset: 0, as: UInt32.self)
        output.storeBytes(of: (r1 ^ k[1]).littleEndian, toByteOffset: 4, as: UInt32.self)
        output.storeBytes(of: (r2 ^ k[2]).littleEndian, toByteOffset: 8, as: UInt32.self)
        output.storeBytes(of: (r3 ^ k[3]).littleEndian, toByteOffset: 12, as: UInt32.self)
    }

    /// Encrypts one block. `block` must hold exactly 16 bytes (a precondition).
    /// - Returns: the 16-byte ciphertext.
    public func encrypt(block: [UInt8]) -> [UInt8] {
        precondition(block.count == 16, "Twofish works on 16-byte blocks")
        var out = block
        out.withUnsafeMutableBytes { encrypt($0.baseAddress!, $0.baseAddress!) }
        return out
    }

    /// Decrypts one block. `block` must hold exactly 16 bytes (a precondition).
    /// - Returns: the 16-byte plaintext.
    public func decrypt(block: [UInt8]) -> [UInt8] {
        precondition(block.count == 16, "Twofish works on 16-byte blocks")
        var out = block
        out.withUnsafeMutableBytes { decrypt($0.baseAddress!, $0.baseAddress!) }
        return out
    }
}
