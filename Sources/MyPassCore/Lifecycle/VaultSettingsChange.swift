import MyPassKDBX

/// A change of a vault's file settings (KDF, cipher, version, compression) and database settings
/// (name, description, recycle bin, history limits), as KeePass's Database Settings dialog and
/// `keepassxc-cli db-edit` make them. `nil` fields stay as they are.
///
/// `Vault.applySettings(_:now:)` validates and applies it; the next ``VaultDocument/save(progress:)``
/// writes the file with the new header (fresh seeds, one KDF run with the new cost).
public struct VaultSettingsChange: Sendable, Equatable {
    /// The KDF and its cost (KDBX 4 header field 11; 3.1 fields 5 and 6).
    public var kdf: KDFSettings?
    /// The payload cipher (header field 2).
    public var cipher: PayloadCipher?
    /// The KDBX version to write (3.1, 4.0 or 4.1); 3.1 holds AES-KDF only, and no version below
    /// what the content needs (`Vault.requiredVersion`) is accepted.
    public var version: KDBXVersion?
    /// Payload compression (header field 3).
    public var compression: PayloadCompression?
    /// `Meta/DatabaseName`.
    public var name: String?
    /// `Meta/DatabaseDescription`.
    public var description: String?
    /// `Meta/RecycleBinEnabled`.
    public var recycleBinEnabled: Bool?
    /// `Meta/HistoryMaxItems`: -1 (no limit) or more; histories are trimmed to it, oldest first.
    public var historyMaxItems: Int?
    /// `Meta/HistoryMaxSize` in bytes: -1 (no limit) or more; histories are trimmed to it.
    public var historyMaxSize: Int64?

    /// No change.
    public init() {}

    /// Whether nothing is changed.
    public var isEmpty: Bool { self == VaultSettingsChange() }

    /// The versions a change may ask for.
    public static let writableVersions: [KDBXVersion] = [.v3_1, .v4_0, .v4_1]

    /// Checks KDF parameters against what KeePass accepts and what MyPass opens
    /// (`KDBXLimits` defaults): Argon2 memory a multiple of 1 KiB, at least 8 KiB per
    /// lane, at most 1 GiB; 1 to 100,000 iterations; 1 to 256 lanes; AES-KDF 1 to 2,000,000,000 rounds.
    /// - Throws: ``CoreError`` `.invalidOperation` naming the parameter.
    public static func validate(_ kdf: KDFSettings) throws(CoreError) {
        let limits = KDBXLimits()
        switch kdf {
        case .aes(let rounds):
            guard rounds >= 1, rounds <= limits.maxAESKDFRounds else {
                throw CoreError(.invalidOperation, "AES-KDF rounds must be from 1 to \(limits.maxAESKDFRounds)", location: "rounds")
            }
        case .argon2(let argon2):
            guard argon2.parallelism >= 1, argon2.parallelism <= limits.maxArgon2Parallelism else {
                throw CoreError(.invalidOperation, "Argon2 parallelism must be from 1 to \(limits.maxArgon2Parallelism)", location: "parallelism")
            }
            guard argon2.iterations >= 1, argon2.iterations <= limits.maxArgon2Iterations else {
                throw CoreError(.invalidOperation, "Argon2 iterations must be from 1 to \(limits.maxArgon2Iterations)", location: "iterations")
            }
            guard argon2.memoryBytes % 1024 == 0, argon2.memoryBytes >= 8 * 1024 * UInt64(argon2.parallelism),
                  argon2.memoryBytes <= limits.maxArgon2MemoryBytes else {
                throw CoreError(.invalidOperation,
                                "Argon2 memory must be a multiple of 1 KiB, at least 8 KiB per lane and at most 1 GiB", location: "memory")
            }
            guard argon2.memoryBytes <= limits.maxArgon2WorkBytes / argon2.iterations else {
                throw CoreError(.invalidOperation, "Argon2 memory times iterations is more than MyPass opens (64 GiB)", location: "iterations")
            }
        }
    }
}

extension Vault {
    /// Applies a settings change, all or nothing.
    ///
    /// Database settings update their time stamps as KeePass does (`DatabaseNameChanged`,
    /// `DatabaseDescriptionChanged`, and `SettingsChanged` for any change); new history limits
    /// trim every entry's history (KeePass's `MaintainBackups`). A KDF or cipher change takes
    /// effect at the next save, which draws fresh seeds.
    ///
    /// - Parameters:
    ///   - change: what to change.
    ///   - now: the time stamp for the changed settings.
    /// - Throws: ``CoreError`` `.invalidOperation`: KDF parameters out of range
    ///   (``VaultSettingsChange/validate(_:)``), a version other than 3.1/4.0/4.1, KDBX 3.1 with an
    ///   Argon2 KDF, a version below what the content needs, history limits below -1, an empty name.
    public mutating func applySettings(_ change: VaultSettingsChange, now: KDBXTime) throws(CoreError) {
        var copy = self
        if let kdf = change.kdf {
            try VaultSettingsChange.validate(kdf)
            copy.format.kdf = kdf
        }
        if let cipher = change.cipher { copy.format.cipher = cipher }
        if let compression = change.compression { copy.format.compression = compression }
        if let version = change.version {
            guard VaultSettingsChange.writableVersions.contains(version) else {
                throw CoreError(.invalidOperation, "MyPass writes KDBX 3.1, 4.0 and 4.1", location: "format")
            }
            if version < .v4_0, case .argon2 = copy.format.kdf {
                throw CoreError(.invalidOperation, "KDBX 3.1 has AES-KDF only; choose the AES KDF for it", location: "format")
            }
            copy.format.version = version
            copy.format.innerStream = version.isKDBX4 ? .chacha20 : .salsa20
            let needed = copy.requiredVersion
            guard needed <= version else {
                throw CoreError(.invalidOperation, "the vault's content needs KDBX \(needed) (group tags, custom data or icon names)",
                                location: "format")
            }
        }
        if let name = change.name, name != copy.meta.databaseName {
            copy.meta.databaseName = name
            copy.meta.databaseNameChanged = now
        }
        if let description = change.description, description != copy.meta.databaseDescription {
            copy.meta.databaseDescription = description
            copy.meta.databaseDescriptionChanged = now
        }
        if let enabled = change.recycleBinEnabled { copy.meta.recycleBinEnabled = enabled }
        if let maxItems = change.historyMaxItems {
            guard maxItems >= -1 else { throw CoreError(.invalidOperation, "the history limit is -1 (none) or more", location: "history-max-items") }
            copy.meta.historyMaxItems = maxItems
        }
        if let maxSize = change.historyMaxSize {
            guard maxSize >= -1 else { throw CoreError(.invalidOperation, "the history size is -1 (none) or more", location: "history-max-size") }
            copy.meta.historyMaxSize = maxSize
        }
        if change.historyMaxItems != nil || change.historyMaxSize != nil {
            copy.trimHistories()
        }
        if copy != self {
            copy.meta.settingsChanged = now
        }
        self = copy
    }

    /// Trims every entry's history to the vault's limits.
    mutating func trimHistories() {
        let maxItems = meta.historyMaxItems, maxSize = meta.historyMaxSize
        var uuids: [KDBXUUID] = []
        root.forEachGroup { group, _ in uuids.append(contentsOf: group.entries.map(\.uuid)) }
        for uuid in uuids {
            _ = root.modifyEntry(withUUID: uuid) { entry in _ = entry.trimHistory(maxItems: maxItems, maxSize: maxSize) }
        }
    }
}
