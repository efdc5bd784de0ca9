/// How a vault is stored on disk: what the outer header says, apart from the per-save random values
/// (master seed, encryption IV, KDF salt, inner stream key), which are drawn fresh on every save.
public struct VaultFormat: Equatable, Sendable {
    /// The version read from the file (or requested for a new vault).
    public var version: KDBXVersion
    /// The payload cipher (header field 2, CipherID).
    public var cipher: PayloadCipher
    /// The key derivation function and its parameters (KDBX 4 field 11, or fields 5/6 in 3.x).
    public var kdf: KDFSettings
    /// Payload compression (header field 3).
    public var compression: PayloadCompression
    /// The inner random stream that masks protected values (3.x field 10, 4.x inner header field 1).
    public var innerStream: InnerStreamAlgorithm
    /// KDBX 4 PublicCustomData (header field 12), kept as raw VariantDictionary bytes; empty when absent.
    public var publicCustomData: [UInt8]
    /// The KDBX 4 KDF parameters (header field 11) as read, every item in stored order with its
    /// type; empty for a new vault or a 3.x file. The seed `S` keeps its place with an empty value,
    /// since it is drawn fresh on every save. A save keeps these items while ``kdf`` names the same
    /// KDF: Argon2's `K` (secret) and `A` (associated data) stay in use and unknown items stay in
    /// place; the cost items follow ``kdf``.
    public var kdfItems: VariantDictionary

    /// A format; the defaults are KeePass 2's for a new vault (KDBX 4.0, AES-256, Argon2d 64 MiB x 2 x 2,
    /// gzip, ChaCha20 inner stream).
    public init(
        version: KDBXVersion = .v4_0, cipher: PayloadCipher = .aes256,
        kdf: KDFSettings = .argon2(.keePassDefault), compression: PayloadCompression = .gzip,
        innerStream: InnerStreamAlgorithm = .chacha20, publicCustomData: [UInt8] = [],
        kdfItems: VariantDictionary = VariantDictionary()
    ) {
        self.version = version
        self.cipher = cipher
        self.kdf = kdf
        self.compression = compression
        self.innerStream = innerStream
        self.publicCustomData = publicCustomData
        self.kdfItems = kdfItems
    }
}

/// The outer payload cipher.
public enum PayloadCipher: String, Sendable, Equatable, CaseIterable {
    /// AES-256-CBC, UUID 31c1f2e6-bf71-4350-be58-05216afc5aff.
    case aes256
    /// ChaCha20 (RFC 8439, 12-byte IV), UUID d6038a2b-8b6f-4cb5-a524-339a31dbb59a.
    case chacha20
    /// Twofish-256-CBC, UUID ad68f29f-576f-4bb9-a36a-d47af965346c.
    case twofish

    /// The 16-byte cipher UUID as stored in header field 2.
    public var uuid: [UInt8] {
        switch self {
        case .aes256: return [0x31, 0xC1, 0xF2, 0xE6, 0xBF, 0x71, 0x43, 0x50, 0xBE, 0x58, 0x05, 0x21, 0x6A, 0xFC, 0x5A, 0xFF]
        case .chacha20: return [0xD6, 0x03, 0x8A, 0x2B, 0x8B, 0x6F, 0x4C, 0xB5, 0xA5, 0x24, 0x33, 0x9A, 0x31, 0xDB, 0xB5, 0x9A]
        case .twofish: return [0xAD, 0x68, 0xF2, 0x9F, 0x57, 0x6F, 0x4B, 0xB9, 0xA3, 0x6A, 0xD4, 0x7A, 0xF9, 0x65, 0x34, 0x6C]
        }
    }

    /// The cipher for a stored UUID, or `nil` when unknown.
    public init?(uuid: some Collection<UInt8>) {
        guard let match = Self.allCases.first(where: { $0.uuid.elementsEqual(uuid) }) else { return nil }
        self = match
    }

    /// The IV length this cipher takes in header field 7: 16 bytes (AES, Twofish) or 12 (ChaCha20).
    public var ivByteCount: Int { self == .chacha20 ? 12 : 16 }
}

/// Payload compression (header field 3, u32).
public enum PayloadCompression: UInt32, Sendable, Equatable {
    case none = 0
    case gzip = 1
}

/// The inner random stream algorithm (KeePass `CrsAlgorithm`).
public enum InnerStreamAlgorithm: UInt32, Sendable, Equatable {
    /// No masking (0): protected values are stored in clear base64.
    case none = 0
    /// ArcFourVariant (1): obsolete, refused as unsupported.
    case arcFourVariant = 1
    /// Salsa20 (2): key SHA-256(stream key), IV E8 30 09 4B 97 20 5D 2A. KDBX 3.x default.
    case salsa20 = 2
    /// ChaCha20 (3): SHA-512(stream key) gives key [0..<32] and nonce [32..<44]. KDBX 4 default.
    case chacha20 = 3
}

/// The key derivation function of a vault, with its cost parameters.
public enum KDFSettings: Equatable, Sendable {
    /// AES-KDF: `rounds` of AES-256-ECB on each half of the composite key (UUID c9d9f39a-...).
    case aes(rounds: UInt64)
    /// Argon2d or Argon2id (RFC 9106).
    case argon2(Argon2Settings)
}

/// Argon2 cost parameters as KDBX 4 stores them in the KDF VariantDictionary.
public struct Argon2Settings: Equatable, Sendable {
    /// Argon2d (UUID ef636ddf-...) or Argon2id (UUID 9e298b19-...).
    public enum Variant: String, Sendable, Equatable { case argon2d, argon2id }

    /// Which Argon2 variant the KDF UUID names.
    public var variant: Variant
    /// `M`: memory in bytes, as stored (KiB = bytes / 1024).
    public var memoryBytes: UInt64
    /// `I`: passes over memory.
    public var iterations: UInt64
    /// `P`: lanes, computed in parallel.
    public var parallelism: UInt32
    /// `V`: 0x13 (19) or 0x10 (16).
    public var version: UInt32

    /// Argon2 KDF parameters as KDBX stores them (memory in bytes, a multiple of 1024).
    public init(variant: Variant, memoryBytes: UInt64, iterations: UInt64, parallelism: UInt32, version: UInt32 = 0x13) {
        self.variant = variant
        self.memoryBytes = memoryBytes
        self.iterations = iterations
        self.parallelism = parallelism
        self.version = version
    }

    /// KeePass 2.x's default for new vaults: Argon2d, 64 MiB, 2 iterations, 2 lanes, version 0x13.
    public static let keePassDefault = Argon2Settings(
        variant: .argon2d, memoryBytes: 64 * 1024 * 1024, iterations: 2, parallelism: 2, version: 0x13)
}

/// What masks protected values in document order: the inner random stream seen as an XOR keystream.
///
/// The codec's `InnerRandomStream` conforms; the XML body reader and writer take any conforming
/// value, so the model layer does not depend on which cipher is used.
package protocol ProtectedValueStream {
    /// XORs the next `bytes.count` keystream bytes into `bytes`, in place, advancing the stream.
    mutating func apply(to bytes: inout [UInt8])
}
