import MyPassKDBX

/// The settings of a new vault, with KeePass 2's defaults: KDBX 4.0, AES-256, gzip, Argon2d with
/// 64 MiB and 2 lanes, and the iterations calibrated to about one second on this machine (KeePass's
/// "1 second delay"), unless the caller fixes them.
public struct NewVaultSettings: Sendable, Equatable {
    /// The database name, and the name of the root group (KeePass names both after the file).
    public var name: String
    /// The KDF and its cost; with ``unlockSeconds`` set, the iterations or rounds are calibrated.
    public var kdf: KDFSettings
    /// The unlock delay to calibrate the KDF to, in seconds; `nil`: keep ``kdf``'s cost as given.
    public var unlockSeconds: Double?
    /// The payload cipher.
    public var cipher: PayloadCipher
    /// The KDBX version (3.1 holds AES-KDF only).
    public var version: KDBXVersion
    /// Payload compression.
    public var compression: PayloadCompression

    /// KeePass 2's new-vault settings named `name`: Argon2d 64 MiB, 2 lanes, calibrated to 1 s.
    public init(name: String, kdf: KDFSettings = .argon2(.keePassDefault), unlockSeconds: Double? = 1,
                cipher: PayloadCipher = .aes256, version: KDBXVersion = .v4_0, compression: PayloadCompression = .gzip) {
        self.name = name
        self.kdf = kdf
        self.unlockSeconds = unlockSeconds
        self.cipher = cipher
        self.version = version
        self.compression = compression
    }

    /// KeePass's default AES-KDF cost when no calibration runs (KeePass 2 `AesKdf`: 60,000 rounds
    /// before the button is pressed; its new-vault dialog then calibrates).
    public static let defaultAESRounds: UInt64 = 60_000

    /// The KDF cost a new vault gets: ``kdf`` calibrated to ``unlockSeconds`` when that is set.
    /// - Throws: ``CoreError`` `.invalidOperation` for parameters out of range; what `timer` throws.
    public func resolvedKDF(timer: KDFCalibration.Timer = KDFCalibration.measure) throws(CoreError) -> KDFSettings {
        try VaultSettingsChange.validate(kdf)
        guard let unlockSeconds else { return kdf }
        let calibrated = try KDFCalibration.calibrate(kdf, targetSeconds: unlockSeconds, timer: timer)
        try VaultSettingsChange.validate(calibrated)
        return calibrated
    }

    /// The new vault as KeePass creates one: a root group named ``name`` (icon 49, expanded),
    /// KeePass's default meta with every time stamp `now`, the recycle bin enabled (KeePass
    /// creates its group on the first delete), and the format from these settings.
    ///
    /// - Parameters:
    ///   - now: the creation time.
    ///   - timer: how calibration times the KDF (tests pass a fixed one).
    /// - Throws: ``CoreError`` `.invalidOperation`: an empty name, KDF parameters out of range,
    ///   KDBX 3.1 with Argon2, a version MyPass does not write.
    /// - Complexity: two or more KDF runs when calibrating (about a fifth of the target or more).
    public func makeVault(now: KDBXTime, timer: KDFCalibration.Timer = KDFCalibration.measure) throws(CoreError) -> Vault {
        guard !name.isEmpty else { throw CoreError(.invalidOperation, "the vault needs a name", location: "name") }
        guard VaultSettingsChange.writableVersions.contains(version) else {
            throw CoreError(.invalidOperation, "MyPass writes KDBX 3.1, 4.0 and 4.1", location: "format")
        }
        if version < .v4_0, case .argon2 = kdf {
            throw CoreError(.invalidOperation, "KDBX 3.1 has AES-KDF only; choose the AES KDF for it", location: "format")
        }
        let format = VaultFormat(version: version, cipher: cipher, kdf: try resolvedKDF(timer: timer), compression: compression,
                                 innerStream: version.isKDBX4 ? .chacha20 : .salsa20)
        return Vault.new(name: name, now: now, format: format)
    }

    /// The name KeePass gives a vault created as `path`: the file name without its extension.
    public static func name(forPath path: String) -> String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return file }
        return String(file[..<dot])
    }
}
