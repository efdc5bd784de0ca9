import Foundation
import MyPassBytes
import MyPassKDBX

/// The KDBX codec for sessions: the composite key from password and key file
/// (``MyPassKDBX/CompositeKey``), ``MyPassKDBX/KDBXCodec`` to open and save, and the vault
/// manifest to verify a save.
public struct KDBXVaultCodec: VaultCodec {
    /// Bounds on sizes and KDF cost when opening.
    public var limits: KDBXLimits
    /// How saves are written (version, compression level, block size).
    public var saveOptions: KDBXSaveOptions

    /// A codec with the given limits and save options (KeePass-like defaults).
    public init(limits: KDBXLimits = KDBXLimits(), saveOptions: KDBXSaveOptions = KDBXSaveOptions()) {
        self.limits = limits
        self.saveOptions = saveOptions
    }

    /// The composite key (SHA-256 of the password and key-file components).
    public func makeKey(_ credentials: VaultCredentials) throws -> CompositeKey {
        var keyFile = credentials.keyFileContents?.unsafeArray
        defer { if keyFile != nil { wipe(&keyFile!) } }
        return try CompositeKey(password: credentials.password, keyFileContents: keyFile)
    }

    /// Opens a KDBX file (runs the KDF).
    public func open(_ file: [UInt8], key: CompositeKey) throws -> Vault {
        try KDBXCodec.open(file, key: key, limits: limits)
    }

    /// Saves as KDBX (runs the KDF), with fresh seeds.
    public func save(_ vault: Vault, key: CompositeKey) throws -> [UInt8] {
        try KDBXCodec.save(vault, key: key, options: saveOptions)
    }

    /// The vault manifest with the file version left out (a save may raise the version the
    /// content needs; everything else must read back the same).
    public func manifest(of vault: Vault) -> String {
        var vault = vault
        vault.format.version = .v4_1
        return VaultManifest.json(of: vault)
    }
}

/// A session over a KDBX file.
public typealias KDBXVaultSession = VaultSession<KDBXVaultCodec>

extension VaultSession where Codec == KDBXVaultCodec {
    /// A locked session for the KDBX file at `fileURL`.
    public init(fileURL: URL, credentialStore: (any CredentialStore)? = nil, autoLockSeconds: Double? = nil,
                clock: any SessionClock = SystemClock(), vaultID: String? = nil) {
        self.init(fileURL: fileURL, codec: KDBXVaultCodec(), credentialStore: credentialStore,
                  autoLockSeconds: autoLockSeconds, clock: clock, vaultID: vaultID)
    }
}
