/// How ``KDBXCodec/save(_:key:options:)`` writes a vault.
public struct KDBXSaveOptions: Sendable {
    /// The version to write (3.1, 4.0 or 4.1). `nil`: the loaded version, raised to what the
    /// content and format need (``KDBXCodec/versionToWrite(for:options:)``).
    public var targetVersion: KDBXVersion?
    /// Gzip level 0...9 when the vault's format asks for compression. Default 6.
    public var compressionLevel: Int
    /// HMAC / hashed block size in bytes. Default 1 MiB, as KeePass writes.
    public var blockByteCount: Int
    /// Bounds on the KDF cost a save may run (the same limits as for opening).
    public var limits: KDBXLimits

    /// Options with the defaults above.
    public init(
        targetVersion: KDBXVersion? = nil, compressionLevel: Int = 6, blockByteCount: Int = 1 << 20,
        limits: KDBXLimits = KDBXLimits()
    ) {
        self.targetVersion = targetVersion
        self.compressionLevel = compressionLevel
        self.blockByteCount = blockByteCount
        self.limits = limits
    }
}
