import MyPassBytes

/// Argon2 (RFC 9106), the memory-hard KDF of KDBX 4: Argon2d and Argon2id (and Argon2i, kept for
/// the reference known-answer tests), versions 0x13 (RFC 9106) and 0x10 (the original design).
///
/// Lanes are filled in parallel threads (Dispatch) when `parallelism > 1`, synchronising at the
/// four slice boundaries of each pass (RFC 9106 §3.4). The memory matrix is one contiguous
/// allocation of `memoryKiB` KiB (rounded down to a multiple of 4 × parallelism), wiped before it
/// is freed.
public enum Argon2 {
    /// Which addressing the fill uses (RFC 9106 §3.4.1).
    public enum Variant: Sendable, Equatable {
        /// Data-dependent addressing (KeePass's default KDF, UUID ef636ddf...).
        case argon2d
        /// Data-independent addressing; supported for the reference test vectors only.
        case argon2i
        /// Argon2i addressing for the first half of the first pass, Argon2d afterwards (UUID 9e298b19...).
        case argon2id

        /// The type number y hashed into H0 (RFC 9106 §3.2): 0, 1 or 2.
        var typeNumber: UInt32 {
            switch self {
            case .argon2d: 0
            case .argon2i: 1
            case .argon2id: 2
            }
        }
    }

    /// The largest lane count RFC 9106 §3.1 allows, 2^24 - 1.
    public static let maximumParallelism: UInt32 = (1 << 24) - 1

    /// Derives `parameters.outputByteCount` bytes from `password` (RFC 9106 §3.2, steps 1-8).
    ///
    /// Cost: `memoryKiB` KiB of memory and `iterations` × `memoryKiB` block compressions, spread
    /// over `parallelism` threads. KeePass's default (64 MiB, 2 iterations, 2 lanes) takes tens of
    /// milliseconds in a release build.
    /// - Parameters:
    ///   - password: the message P (KDBX: the 32-byte composite key), 0 to 2^32 - 1 bytes.
    ///   - parameters: variant, version, costs, salt, secret and associated data; validated here.
    ///   - memoryLimitBytes: the most memory the caller lets the derivation allocate (default 1 GiB).
    ///   - progress: called before every slice with the fraction done; `false` stops the
    ///     derivation (the matrix is wiped). `nil`: no reports.
    /// - Returns: the tag of `outputByteCount` bytes.
    /// - Throws: `CryptoError.invalidParameter` when a parameter is outside RFC 9106's ranges
    ///   (see ``Parameters/validate()``), `CryptoError.memoryLimitExceeded` when the memory matrix
    ///   (or the requested output) would be larger than `memoryLimitBytes`. Nothing is allocated
    ///   before these checks pass. `CryptoError.cancelled` when `progress` returned `false`.
    public static func deriveKey(
        password: [UInt8], parameters: Parameters, memoryLimitBytes: UInt64 = 1 << 30,
        progress: KDFProgressHandler? = nil
    ) throws(CryptoError) -> [UInt8] {
        try deriveKey(password: password, parameters: parameters, memoryLimitBytes: memoryLimitBytes,
                      progress: progress, platform: CryptoPlatform.current)
    }

    /// ``deriveKey(password:parameters:memoryLimitBytes:progress:)`` with the matrix memory and the
    /// lanes' parallel loop of `platform` (the tests run each).
    package static func deriveKey(
        password: [UInt8], parameters: Parameters, memoryLimitBytes: UInt64, progress: KDFProgressHandler?,
        platform: CryptoPlatform
    ) throws(CryptoError) -> [UInt8] {
        try parameters.validate()
        guard UInt64(password.count) <= UInt64(UInt32.max) else {
            throw CryptoError(.invalidParameter, "Argon2 password longer than 2^32 - 1 bytes")
        }
        let lanes = Int(parameters.parallelism)
        // m' = 4 p floor(m / 4p) blocks of 1 KiB (RFC 9106 §3.2 step 3).
        let blockCount = 4 * lanes * (Int(parameters.memoryKiB) / (4 * lanes))
        guard UInt64(blockCount) * 1024 <= memoryLimitBytes else {
            throw CryptoError(
                .memoryLimitExceeded,
                "Argon2 needs \(UInt64(blockCount) * 1024) bytes of memory, over the limit of \(memoryLimitBytes)")
        }
        guard UInt64(parameters.outputByteCount) <= memoryLimitBytes else {
            throw CryptoError(.memoryLimitExceeded, "Argon2 output length is over the memory limit")
        }
        guard blockCount <= Int.max / 1024 else {
            throw CryptoError(.memoryLimitExceeded, "Argon2 memory does not fit the address space")
        }

        var h0 = initialHash(password: password, parameters: parameters)
        defer { wipe(&h0) }
        let matrix = Argon2Matrix(blockCount: blockCount, lanes: lanes, platform: platform)
        defer { matrix.wipeAndDeallocate() }
        matrix.fillFirstBlocks(h0: h0)
        guard matrix.fill(iterations: parameters.iterations, variant: parameters.variant, version: parameters.version,
                          progress: progress)
        else { throw CryptoError(.cancelled, "Argon2 was cancelled") }
        var final = matrix.finalBlock()
        defer { wipe(&final) }
        return variableLengthHash(final, outputByteCount: parameters.outputByteCount)
    }

    /// H0 (RFC 9106 §3.2 step 1): BLAKE2b-512 over the parameters and inputs, each length as a
    /// 32-bit little-endian word.
    static func initialHash(password: [UInt8], parameters: Parameters) -> [UInt8] {
        var hasher = BLAKE2b(uncheckedOutputByteCount: 64)
        func word(_ value: UInt32) {
            withUnsafeBytes(of: value.littleEndian) { hasher.update($0) }
        }
        word(parameters.parallelism)
        word(UInt32(truncatingIfNeeded: parameters.outputByteCount))
        word(parameters.memoryKiB)
        word(parameters.iterations)
        word(parameters.version)
        word(parameters.variant.typeNumber)
        for field in [password, parameters.salt, parameters.secret, parameters.associatedData] {
            word(UInt32(truncatingIfNeeded: field.count))
            hasher.update(field)
        }
        return hasher.finalize()
    }

    /// H' (RFC 9106 §3.3): BLAKE2b extended to any output length `outputByteCount` (>= 1).
    static func variableLengthHash(_ input: [UInt8], outputByteCount: Int) -> [UInt8] {
        var lengthWord = [UInt8]()
        lengthWord.appendLittleEndian(UInt32(truncatingIfNeeded: outputByteCount))
        if outputByteCount <= 64 {
            var hasher = BLAKE2b(uncheckedOutputByteCount: outputByteCount)
            hasher.update(lengthWord)
            hasher.update(input)
            return hasher.finalize()
        }
        // r = ceil(T / 32) - 2 full 64-byte hashes contribute their first 32 bytes each; the last one
        // is BLAKE2b with the remaining T - 32 r bytes of output.
        let fullCount = (outputByteCount + 31) / 32 - 2
        var output = [UInt8]()
        output.reserveCapacity(outputByteCount)
        var hasher = BLAKE2b(uncheckedOutputByteCount: 64)
        hasher.update(lengthWord)
        hasher.update(input)
        var v = hasher.finalize()
        output.append(contentsOf: v[0..<32])
        for _ in 1..<fullCount {
            let next = BLAKE2b.hash(v)
            wipe(&v)
            v = next
            output.append(contentsOf: v[0..<32])
        }
        output.append(contentsOf: BLAKE2b.hash(v, outputByteCount: outputByteCount - 32 * fullCount))
        wipe(&v)
        return output
    }
}
