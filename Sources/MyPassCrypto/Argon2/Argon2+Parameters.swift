extension Argon2 {
    /// The inputs of one Argon2 derivation besides the password (RFC 9106 §3.1).
    public struct Parameters: Sendable, Equatable {
        /// Argon2d, Argon2i or Argon2id.
        public var variant: Variant
        /// 0x13 (RFC 9106, KDBX default) or 0x10 (original Argon2, no XOR with the old block).
        public var version: UInt32
        /// Memory m in KiB, at least 8 × `parallelism`; the matrix uses m rounded down to a
        /// multiple of 4 × `parallelism` blocks of 1 KiB.
        public var memoryKiB: UInt32
        /// Number of passes t over the memory, at least 1.
        public var iterations: UInt32
        /// Number of lanes p (and threads), 1 to 2^24 - 1.
        public var parallelism: UInt32
        /// Tag length T in bytes, at least 4 (KDBX uses 32).
        public var outputByteCount: Int
        /// Salt S, at least 8 bytes (KDBX: 32 random bytes).
        public var salt: [UInt8]
        /// Optional secret value K (KDBX parameter "K"), up to 2^32 - 1 bytes.
        public var secret: [UInt8]
        /// Optional associated data X (KDBX parameter "A"), up to 2^32 - 1 bytes.
        public var associatedData: [UInt8]

        /// Collects the parameters; they are checked by ``validate()`` when a key is derived.
        public init(
            variant: Variant, version: UInt32 = 0x13, memoryKiB: UInt32, iterations: UInt32, parallelism: UInt32,
            salt: [UInt8], secret: [UInt8] = [], associatedData: [UInt8] = [], outputByteCount: Int = 32
        ) {
            self.variant = variant
            self.version = version
            self.memoryKiB = memoryKiB
            self.iterations = iterations
            self.parallelism = parallelism
            self.outputByteCount = outputByteCount
            self.salt = salt
            self.secret = secret
            self.associatedData = associatedData
        }

        /// The parameters as a KDBX 4 header stores them (KeePass's VariantDictionary: "M" memory
        /// in bytes as UInt64, "I" iterations as UInt64, "P" parallelism as UInt32, "V" version,
        /// "S" salt, optional "K" secret and "A" associated data), with a 32-byte output.
        /// - Throws: `CryptoError.invalidParameter` when `memoryBytes` is not a multiple of 1024 or
        ///   exceeds 2^32 - 1 KiB, or `iterations` exceeds 2^32 - 1; the remaining checks happen
        ///   in ``validate()``, which this also runs.
        public static func kdbx(
            variant: Variant, memoryBytes: UInt64, iterations: UInt64, parallelism: UInt32, version: UInt32,
            salt: [UInt8], secret: [UInt8] = [], associatedData: [UInt8] = []
        ) throws(CryptoError) -> Parameters {
            guard memoryBytes % 1024 == 0 else {
                throw CryptoError(.invalidParameter, "Argon2 memory must be a whole number of KiB")
            }
            guard let memoryKiB = UInt32(exactly: memoryBytes / 1024) else {
                throw CryptoError(.invalidParameter, "Argon2 memory above 2^32 - 1 KiB")
            }
            guard let passes = UInt32(exactly: iterations) else {
                throw CryptoError(.invalidParameter, "Argon2 iterations above 2^32 - 1")
            }
            let parameters = Parameters(
                variant: variant, version: version, memoryKiB: memoryKiB, iterations: passes,
                parallelism: parallelism, salt: salt, secret: secret, associatedData: associatedData)
            try parameters.validate()
            return parameters
        }

        /// Checks the ranges of RFC 9106 §3.1: parallelism 1...2^24 - 1, memory >= 8 × parallelism
        /// KiB, iterations >= 1, output 4...2^32 - 1 bytes, salt 8...2^32 - 1 bytes, secret and
        /// associated data at most 2^32 - 1 bytes, version 0x10 or 0x13.
        /// - Throws: `CryptoError.invalidParameter` naming the first field out of range.
        public func validate() throws(CryptoError) {
            guard version == 0x13 || version == 0x10 else {
                throw CryptoError(.invalidParameter, "Argon2 version must be 0x13 or 0x10")
            }
            guard (1...Argon2.maximumParallelism).contains(parallelism) else {
                throw CryptoError(.invalidParameter, "Argon2 parallelism must be 1...2^24 - 1")
            }
            guard UInt64(memoryKiB) >= 8 * UInt64(parallelism) else {
                throw CryptoError(.invalidParameter, "Argon2 memory must be at least 8 KiB per lane")
            }
            guard iterations >= 1 else {
                throw CryptoError(.invalidParameter, "Argon2 needs at least one iteration")
            }
            guard outputByteCount >= 4, UInt64(outputByteCount) <= UInt64(UInt32.max) else {
                throw CryptoError(.invalidParameter, "Argon2 output length must be 4...2^32 - 1 bytes")
            }
            guard salt.count >= 8, UInt64(salt.count) <= UInt64(UInt32.max) else {
                throw CryptoError(.invalidParameter, "Argon2 salt must be 8...2^32 - 1 bytes")
            }
            guard UInt64(secret.count) <= UInt64(UInt32.max), UInt64(associatedData.count) <= UInt64(UInt32.max) else {
                throw CryptoError(.invalidParameter, "Argon2 secret or associated data longer than 2^32 - 1 bytes")
            }
        }
    }
}
