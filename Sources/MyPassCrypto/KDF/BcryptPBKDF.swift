import MyPassBytes

/// bcrypt-pbkdf, OpenBSD's `bcrypt_pbkdf(3)`: the key derivation of OpenSSH's private key format
/// (`kdfname "bcrypt"`, PROTOCOL.key), a PBKDF2-shaped construction whose pseudo-random function
/// is bcrypt's expensive Blowfish key schedule ("bcrypt_hash") on SHA-512 digests.
///
/// For each output block `count` = 1, 2, …: `T = bcrypt_hash(SHA-512(password), SHA-512(salt ‖
/// BE32(count)))`, then `rounds - 1` more times `T' = bcrypt_hash(SHA-512(password), SHA-512(T'))`,
/// all XORed together; the 32-byte blocks are interleaved into the key with a stride of
/// ⌈keyLength / 32⌉ (so that every block is needed for any part of the key). bcrypt_hash runs
/// EksBlowfish (64 rounds of alternating salt and password schedules) and encrypts
/// "OxychromaticBlowfishSwatDynamite" 64 times, output as little-endian words.
///
/// - Important: Built on ``Blowfish``, whose key-dependent S-box lookups are indexed by secret
///   data: not constant-time (see ``Blowfish``). Used to open a private key file, once.
public enum BcryptPBKDF {
    /// The most rounds accepted (OpenSSH writes 16 by default; `ssh-keygen -a` sets more): a key
    /// file is data from a vault, and a hostile count must not hang the process. At about
    /// 1.5 ms a round here, 4,096 rounds of a 48-byte key take some 12 s.
    public static let maxRounds: UInt32 = 4096
    /// The longest output (OpenBSD: 32 × 32 bytes).
    public static let maxKeyByteCount = 1024
    /// The longest salt accepted (OpenBSD: 2^20 bytes; OpenSSH writes 16).
    public static let maxSaltByteCount = 1 << 20

    /// Derives `keyByteCount` bytes.
    /// - Parameters:
    ///   - password: the passphrase bytes (UTF-8 for OpenSSH), at least one byte.
    ///   - salt: 1 to 2^20 bytes.
    ///   - rounds: 1 to ``maxRounds``.
    ///   - keyByteCount: 1 to 1,024.
    /// - Returns: the key, which the caller wipes.
    /// - Throws: `CryptoError.invalidParameter` for a parameter out of those ranges (OpenBSD
    ///   refuses the same, but for the rounds limit, which is ours).
    public static func deriveKey(
        password: [UInt8], salt: [UInt8], rounds: UInt32, keyByteCount: Int
    ) throws(CryptoError) -> [UInt8] {
        guard !password.isEmpty else { throw CryptoError(.invalidParameter, "bcrypt-pbkdf needs a password") }
        guard !salt.isEmpty, salt.count <= maxSaltByteCount else {
            throw CryptoError(.invalidParameter, "bcrypt-pbkdf salt of \(salt.count) bytes")
        }
        guard rounds >= 1, rounds <= maxRounds else {
            throw CryptoError(.invalidParameter, "bcrypt-pbkdf rounds \(rounds) outside 1...\(maxRounds)")
        }
        guard keyByteCount >= 1, keyByteCount <= maxKeyByteCount else {
            throw CryptoError(.invalidParameter, "bcrypt-pbkdf output of \(keyByteCount) bytes")
        }
        let stride = (keyByteCount + 31) / 32
        let amount = (keyByteCount + stride - 1) / stride
        var key = [UInt8](repeating: 0, count: keyByteCount)
        var passwordDigest = SHA512.hash(password)
        defer { wipe(&passwordDigest) }
        var countSalt = salt + [0, 0, 0, 0]
        defer { wipe(&countSalt) }
        var block = 1
        while block <= stride {
            countSalt[salt.count] = UInt8(truncatingIfNeeded: block >> 24)
            countSalt[salt.count + 1] = UInt8(truncatingIfNeeded: block >> 16)
            countSalt[salt.count + 2] = UInt8(truncatingIfNeeded: block >> 8)
            countSalt[salt.count + 3] = UInt8(truncatingIfNeeded: block)
            var saltDigest = SHA512.hash(countSalt)
            var output = hash(passwordDigest: passwordDigest, saltDigest: saltDigest)
            var accumulated = output
            for _ in 1..<rounds {
                wipe(&saltDigest)
                saltDigest = SHA512.hash(output)
                wipe(&output)
                output = hash(passwordDigest: passwordDigest, saltDigest: saltDigest)
                for i in 0..<32 { accumulated[i] ^= output[i] }
            }
            for i in 0..<amount {
                let destination = i * stride + (block - 1)
                if destination >= keyByteCount { break }
                key[destination] = accumulated[i]
            }
            wipe(&saltDigest)
            wipe(&output)
            wipe(&accumulated)
            block += 1
        }
        return key
    }

    /// bcrypt_hash: EksBlowfish keyed by the two 64-byte digests, then the magic text encrypted
    /// 64 times; 32 bytes, each 32-bit word little-endian.
    static func hash(passwordDigest: [UInt8], saltDigest: [UInt8]) -> [UInt8] {
        let cipher = Blowfish()
        passwordDigest.withUnsafeBytes { password in
            saltDigest.withUnsafeBytes { salt in
                cipher.expand(data: salt, key: password)
                for _ in 0..<64 {
                    cipher.expand0(key: salt)
                    cipher.expand0(key: password)
                }
            }
        }
        // "OxychromaticBlowfishSwatDynamite" as eight big-endian words.
        var words: [UInt32] = [0x4F78_7963, 0x6872_6F6D, 0x6174_6963, 0x426C_6F77,
                               0x6669_7368, 0x5377_6174, 0x4479_6E61, 0x6D69_7465]
        for _ in 0..<64 {
            var i = 0
            while i < 8 {
                var left = words[i], right = words[i + 1]
                cipher.encipher(&left, &right)
                words[i] = left
                words[i + 1] = right
                i += 2
            }
        }
        var output = [UInt8](repeating: 0, count: 32)
        for i in 0..<8 {
            output[4 * i] = UInt8(truncatingIfNeeded: words[i])
            output[4 * i + 1] = UInt8(truncatingIfNeeded: words[i] >> 8)
            output[4 * i + 2] = UInt8(truncatingIfNeeded: words[i] >> 16)
            output[4 * i + 3] = UInt8(truncatingIfNeeded: words[i] >> 24)
        }
        wipe(&words)
        return output
    }
}
