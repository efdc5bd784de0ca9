import MyPassKDBX

extension Vault {
    /// A new vault from imported contents: the settings' new vault with the imported groups and
    /// entries directly below its root; a KeePass XML export also brings its meta (name,
    /// description, memory protection, custom icons, recycle bin...), with the new settings' name
    /// when the export has none.
    /// - Throws: what ``NewVaultSettings/makeVault(now:timer:)`` throws.
    public static func imported(_ contents: VaultImport.Contents, settings: NewVaultSettings, now: KDBXTime,
                                timer: KDFCalibration.Timer = KDFCalibration.measure) throws(CoreError) -> Vault {
        var vault = try settings.makeVault(now: now, timer: timer)
        if let meta = contents.meta {
            var root = contents.root
            if root.name.isEmpty { root.name = settings.name }
            vault.root = root
            vault.meta = meta
            vault.meta.generator = "MyPass"
            if vault.meta.databaseName.isEmpty { vault.meta.databaseName = settings.name }
            vault.deletedObjects = contents.deletedObjects
        } else {
            vault.root.groups = contents.root.groups
            vault.root.entries = contents.root.entries
        }
        return vault
    }
}
