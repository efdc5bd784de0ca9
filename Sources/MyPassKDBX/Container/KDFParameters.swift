import MyPassBytes

/// The key derivation function of one file: its settings plus the per-save random seed (AES-KDF
/// `S`) or salt (Argon2 `S`), and Argon2's optional secret `K` and associated data `A`.
///
/// KDBX 4 stores these as a ``VariantDictionary`` (header field 11); KDBX 3.x stores the AES-KDF
/// seed and rounds in header fields 5 and 6. Parameters read from a file keep that dictionary
/// (``storedItems``), so a save writes every item back in its place and with its type, including
/// items this reader does not know, as KeePass does (`KdfParameters` is a `VariantDictionary` it
/// re-serializes whole).
public struct KDFParameters: Equatable, Sendable {
    /// AES-KDF, KeePass's UUID c9d9f39a-628a-4460-bf74-0d08c18a4fea (the only one we write).
    public static let aesKDFUUID: [UInt8] = [
        0xC9, 0xD9, 0xF3, 0x9A, 0x62, 0x8A, 0x44, 0x60, 0xBF, 0x74, 0x0D, 0x08, 0xC1, 0x8A, 0x4F, 0xEA]
    /// KeePassXC's internal "AES-KDF (KDBX 4)" UUID 7c02bb82-79a7-4ac0-927d-114a00648238: read, never written.
    public static let aesKDFKeePassXCUUID: [UInt8] = [
        0x7C, 0x02, 0xBB, 0x82, 0x79, 0xA7, 0x4A, 0xC0, 0x92, 0x7D, 0x11, 0x4A, 0x00, 0x64, 0x82, 0x38]
    /// Argon2d, UUID ef636ddf-8c29-444b-91f7-a9a403e30a0c.
    public static let argon2dUUID: [UInt8] = [
        0xEF, 0x63, 0x6D, 0xDF, 0x8C, 0x29, 0x44, 0x4B, 0x91, 0xF7, 0xA9, 0xA4, 0x03, 0xE3, 0x0A, 0x0C]
    /// Argon2id, UUID 9e298b19-56db-4773-b23d-fc3ec6f0a1e6.
    public static let argon2idUUID: [UInt8] = [
        0x9E, 0x29, 0x8B, 0x19, 0x56, 0xDB, 0x47, 0x73, 0xB2, 0x3D, 0xFC, 0x3E, 0xC6, 0xF0, 0xA1, 0xE6]

    /// Which KDF and its cost.
    public var settings: KDFSettings
    /// AES-KDF seed (32 bytes) or Argon2 salt (8 to 2^32-1 bytes; KeePass writes 32).
    public var seed: [UInt8]
    /// Argon2 `K` (secret key); empty when absent.
    public var secret: [UInt8]
    /// Argon2 `A` (associated data); empty when absent.
    public var associatedData: [UInt8]
    /// The KDBX 4 dictionary as read, in stored order (empty for new parameters). ``dictionary``
    /// starts from it while it names the same KDF as ``settings``, so unknown items survive.
    public var storedItems: VariantDictionary

    /// Parameters with the given settings and seed.
    public init(
        settings: KDFSettings, seed: [UInt8], secret: [UInt8] = [], associatedData: [UInt8] = [],
        storedItems: VariantDictionary = VariantDictionary()
    ) {
        self.settings = settings
        self.seed = seed
        self.secret = secret
        self.associatedData = associatedData
        self.storedItems = storedItems
    }

    /// Fresh parameters for a save: `settings` with a new random 32-byte seed or salt.
    ///
    /// - Parameter stored: the dictionary the vault was read with (``VaultFormat/kdfItems``).
    ///   While it names the same KDF as `settings`, its items are kept in order and with their
    ///   types, and Argon2's `K` (secret) and `A` (associated data) go on being used; only the
    ///   seed (`S`) and the cost items are replaced.
    public static func fresh(_ settings: KDFSettings, keeping stored: VariantDictionary = VariantDictionary()) -> KDFParameters {
        var fresh = KDFParameters(settings: settings, seed: SecureRandom.bytes(count: 32))
        guard fresh.namesSameKDF(stored) else { return fresh }
        fresh.storedItems = stored
        if case .argon2 = settings {
            if case .bytes(let k)? = stored["K"] { fresh.secret = k }
            if case .bytes(let a)? = stored["A"] { fresh.associatedData = a }
        }
        return fresh
    }

    /// Equal when both write the same dictionary: same KDF, costs, seed, `K`, `A` and other items,
    /// in the same order.
    public static func == (lhs: KDFParameters, rhs: KDFParameters) -> Bool {
        lhs.dictionary == rhs.dictionary
    }

    /// The KDF UUID that ``settings`` names (KeePass's AES-KDF UUID for AES-KDF).
    private var settingsUUID: [UInt8] {
        switch settings {
        case .aes: return Self.aesKDFUUID
        case .argon2(let a): return a.variant == .argon2d ? Self.argon2dUUID : Self.argon2idUUID
        }
    }

    /// Whether `stored` holds a `$UUID` for the KDF that ``settings`` names (either AES-KDF UUID
    /// counts as AES-KDF).
    private func namesSameKDF(_ stored: VariantDictionary) -> Bool {
        guard case .bytes(var uuid)? = stored["$UUID"] else { return false }
        if uuid == Self.aesKDFKeePassXCUUID { uuid = Self.aesKDFUUID }
        return uuid == settingsUUID
    }

    /// Reads KDBX 4 KDF parameters (`$UUID`, then `R`/`S` or `S`,`P`,`M`,`I`,`V`,`K`,`A`).
    /// - Throws: ``KDBXError`` `.unsupported` for an unknown KDF UUID, `.corruptedFile` for a
    ///   missing or mistyped parameter.
    public init(dictionary: VariantDictionary) throws(KDBXError) {
        let location = "header field 11 (KdfParameters)"
        func missing(_ name: String) -> KDBXError {
            KDBXError(.corruptedFile, "KDF parameter \(name) missing or of the wrong type", location: location)
        }
        guard case .bytes(let uuid)? = dictionary["$UUID"], uuid.count == 16 else { throw missing("$UUID") }
        if uuid == Self.aesKDFUUID || uuid == Self.aesKDFKeePassXCUUID {
            guard case .uint64(let rounds)? = dictionary["R"] else { throw missing("R") }
            guard case .bytes(let seed)? = dictionary["S"], seed.count == 32 else { throw missing("S") }
            self.init(settings: .aes(rounds: rounds), seed: seed, storedItems: dictionary)
        } else if uuid == Self.argon2dUUID || uuid == Self.argon2idUUID {
            guard case .bytes(let salt)? = dictionary["S"] else { throw missing("S") }
            guard case .uint32(let parallelism)? = dictionary["P"] else { throw missing("P") }
            guard case .uint64(let memory)? = dictionary["M"] else { throw missing("M") }
            guard case .uint64(let iterations)? = dictionary["I"] else { throw missing("I") }
            guard case .uint32(let version)? = dictionary["V"] else { throw missing("V") }
            var secret: [UInt8] = []
            var associated: [UInt8] = []
            if let value = dictionary["K"] {
                guard case .bytes(let k) = value else { throw missing("K") }
                secret = k
            }
            if let value = dictionary["A"] {
                guard case .bytes(let a) = value else { throw missing("A") }
                associated = a
            }
            let variant: Argon2Settings.Variant = uuid == Self.argon2dUUID ? .argon2d : .argon2id
            self.init(
                settings: .argon2(Argon2Settings(
                    variant: variant, memoryBytes: memory, iterations: iterations, parallelism: parallelism,
                    version: version)),
                seed: salt, secret: secret, associatedData: associated, storedItems: dictionary)
        } else {
            throw KDBXError(.unsupported, "unknown KDF " + uuid.hexString, location: location)
        }
    }

    /// The KDBX 4 VariantDictionary form. Starts from ``storedItems`` when they name the same KDF
    /// (every item kept in place with its type; the known ones take the current values), otherwise
    /// KeePass's item order: `$UUID`, `R`, `S` (AES-KDF) or `$UUID`, `S`, `P`, `M`, `I`, `V`, `K`,
    /// `A` (Argon2, `K` and `A` only when set). AES-KDF is always written with KeePass's UUID
    /// c9d9f39a-… and `R` as UInt64 (KeePassXC does the same).
    public var dictionary: VariantDictionary {
        var d = namesSameKDF(storedItems) ? storedItems : VariantDictionary()
        d["$UUID"] = .bytes(settingsUUID)
        switch settings {
        case .aes(let rounds):
            d["R"] = .uint64(rounds)
            d["S"] = .bytes(seed)
        case .argon2(let a):
            d["S"] = .bytes(seed)
            d["P"] = .uint32(a.parallelism)
            d["M"] = .uint64(a.memoryBytes)
            d["I"] = .uint64(a.iterations)
            d["V"] = .uint32(a.version)
            // An empty K or A read from the file stays as it was; one cleared by the caller goes.
            if !secret.isEmpty || d["K"] == .bytes([]) { d["K"] = .bytes(secret) } else { d["K"] = nil }
            if !associatedData.isEmpty || d["A"] == .bytes([]) { d["A"] = .bytes(associatedData) } else { d["A"] = nil }
        }
        return d
    }
}
