import MyPassBytes
import MyPassCompression
import MyPassCrypto

/// Opens and saves KDBX 3.1, 4.0 and 4.1 files as bytes (the layer above touches files).
public enum KDBXCodec {
    /// Opens a vault.
    ///
    /// Order of checks: signature and version, header structure, (4.x) header SHA-256, KDF,
    /// (4.x) header HMAC or (3.x) stream start bytes, then blocks, padding, gzip and XML, all
    /// streamed so the payload is never held whole in several copies.
    /// - Parameters:
    ///   - file: the whole file.
    ///   - key: the composite key (a challenge-response component is asked once, for the file's
    ///     challenge).
    ///   - limits: bounds on sizes and KDF cost.
    /// - Returns: the vault, with ``Vault/format`` read from the header.
    /// - Throws: ``KDBXError``: `.wrongKey` (header HMAC or stream start bytes), `.corruptedFile`
    ///   (header hash, block HMAC or hash, padding, gzip, XML, Meta/HeaderHash), `.unsupported`
    ///   (not KDBX, KDB 1.x, version, cipher, KDF), `.limitExceeded`, `.missingKeyComponent` and
    ///   `.cancelled` (the challenge-response component did not answer).
    /// - Complexity: dominated by the KDF.
    public static func open(_ file: [UInt8], key: CompositeKey, limits: KDBXLimits = KDBXLimits()) throws(KDBXError) -> Vault {
        let reader = try KDBXReader(file: file, limits: limits)
        let keys = try reader.deriveKeys(key)
        return try reader.readVault(keys: keys)
    }

    /// Saves a vault with fresh master seed, encryption IV, KDF seed or salt and inner stream key.
    ///
    /// The vault's format gives the cipher, KDF cost, compression and public custom data; the
    /// version is ``versionToWrite(for:options:)``. KDBX 4 files use the ChaCha20 inner stream with
    /// a 64-byte key, 1 MiB HMAC blocks and a final empty block; KDBX 3.1 files use Salsa20 with a
    /// 32-byte key, stream start bytes, hashed blocks and Meta/HeaderHash.
    /// A key with a challenge-response component is asked once, for the new challenge (see
    /// ``ChallengeResponseKey``), before the KDF.
    /// - Throws: ``KDBXError`` `.invalidModel` (version impossible for the content or format),
    ///   `.limitExceeded` (KDF cost beyond `options.limits`), `.missingKeyComponent` and
    ///   `.cancelled` (the challenge-response component did not answer).
    /// - Complexity: dominated by the KDF.
    public static func save(_ vault: Vault, key: CompositeKey, options: KDBXSaveOptions = KDBXSaveOptions()) throws(KDBXError) -> [UInt8] {
        try KDBXWriter(vault: vault, options: options).write(key: key)
    }

    /// The lowest version the vault's format needs: 4.0 for an Argon2 KDF or public custom data,
    /// else 3.1. KDBX 3.1 holds every payload cipher (AES-256, ChaCha20 and Twofish with AES-KDF,
    /// as KeePassXC writes them): the cipher is a UUID in the header, whatever the version.
    public static func formatMinimumVersion(_ format: VaultFormat) -> KDBXVersion {
        if !format.publicCustomData.isEmpty { return .v4_0 }
        if case .argon2 = format.kdf { return .v4_0 }
        return .v3_1
    }

    /// The version a save writes: `options.targetVersion` when given (checked), else the loaded
    /// version raised to what the content (``Vault/minimumVersion``) and format need, at least 3.1
    /// and at most 4.1.
    /// - Throws: ``KDBXError`` `.invalidModel` when the target is not 3.1, 4.0 or 4.1, or is below
    ///   what the content or format needs.
    public static func versionToWrite(for vault: Vault, options: KDBXSaveOptions = KDBXSaveOptions()) throws(KDBXError) -> KDBXVersion {
        let needed = max(vault.minimumVersion, formatMinimumVersion(vault.format))
        if let target = options.targetVersion {
            guard target == .v3_1 || target == .v4_0 || target == .v4_1 else {
                throw KDBXError(.invalidModel, "cannot write KDBX \(target); 3.1, 4.0 and 4.1 are possible")
            }
            guard target >= needed else {
                throw KDBXError(.invalidModel, "the vault needs KDBX \(needed) or later (cipher, KDF or content), not \(target)")
            }
            return target
        }
        var version = max(vault.format.version, needed, .v3_1)
        if version.major == 3 { version = .v3_1 }
        if version > .v4_1 { version = .v4_1 }
        return version
    }
}
