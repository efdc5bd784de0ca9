import MyPassBytes
import MyPassCrypto
import MyPassKDBX

extension VaultDocument {
    /// Creates a new vault file at `path` holding `vault`, through the same safe save as every
    /// other write (temporary file beside it, flushed, checked by decrypting it, renamed into place).
    ///
    /// The path is claimed first by creating an empty file exclusively (mode 0600), so that a file
    /// another program creates meanwhile is never overwritten; the save then replaces that
    /// placeholder atomically. When anything fails, the placeholder is removed again.
    ///
    /// - Parameters:
    ///   - path: the new file; relative paths are taken from the current directory. Its directory
    ///     must exist and be writable.
    ///   - vault: the content and format (``NewVaultSettings/makeVault(now:timer:)`` builds KeePass's
    ///     new vault).
    ///   - key: the composite key.
    ///   - options: limits, save options, file system, KDF.
    ///   - progress: the KDF's progress; return `false` to cancel (nothing is left behind).
    /// - Returns: the open document (no unsaved changes) and what the save did.
    /// - Throws: ``CoreError`` `.alreadyExists` when something is at `path` (a file, a directory,
    ///   a symbolic link), `.readOnly` (directory not writable), `.io`, `.verificationFailed`,
    ///   `.cancelled`, `.codec` (a format the content cannot be written in).
    /// - Complexity: one KDF run.
    public static func create(_ path: String, vault: Vault, key: CompositeKey, options: Options = Options(),
                              progress: KDFProgressHandler? = nil) throws(CoreError) -> (VaultDocument, SaveReport) {
        let fileSystem = options.fileSystem
        let absolute = absolutePath(path)
        let directory = try fileSystem.resolve(directoryOf(absolute))
        let realPath = directory + "/" + lastComponent(absolute)
        let taken = try fileSystem.status(absolute) != nil
        let listed = try fileSystem.contentsOfDirectory(directory).contains(lastComponent(absolute))
        if taken || listed {
            throw CoreError(.alreadyExists, "a file is already there; nothing was written", location: absolute)
        }
        try checkWritable(realPath, fileSystem: fileSystem)
        let placeholder = try fileSystem.createExclusive(realPath, permissions: 0o600, owner: nil)
        let placeholderStatus: VaultFileStatus
        do throws(CoreError) {
            placeholderStatus = try fileSystem.status(of: placeholder)
            fileSystem.close(placeholder)
        } catch {
            fileSystem.close(placeholder)
            try? fileSystem.remove(realPath)
            throw error
        }
        var document = VaultDocument(
            path: realPath, identity: VaultFileIdentity(path: realPath, status: placeholderStatus, bytes: []),
            vault: vault, key: key, fileKey: key,
            cachedKey: CachedTransformedKey(transformedKey: SecureBytes(zeroedCount: 32), kdf: KDFParameters(settings: vault.format.kdf, seed: [])),
            options: options, savedVault: vault)
        document.options.mergeHandler = nil
        do throws(CoreError) {
            let report = try document.save(progress: progress)
            document.options.mergeHandler = options.mergeHandler
            return (document, report)
        } catch {
            // Remove the placeholder only while it is still ours (empty, same file).
            if let status = try? fileSystem.status(realPath), status.inode == placeholderStatus.inode,
               status.device == placeholderStatus.device, status.size == 0 {
                try? fileSystem.remove(realPath)
            }
            throw error
        }
    }

    /// Replaces the composite key (a new master password, key file, or both): the next
    /// ``save(progress:)`` encrypts the file with `newKey` under fresh seeds, after which the old
    /// key no longer opens it. `Meta/MasterKeyChanged` is set to `now` and a pending
    /// `MasterKeyChangeForceOnce` is cleared, as KeePass's Change Master Key does.
    ///
    /// A file changed on disk before that save is still read with the old key (the one it has),
    /// so the usual merge applies; ``cachedKey`` keeps belonging to the file until the save.
    ///
    /// - Parameters:
    ///   - newKey: the new composite key.
    ///   - now: the time stamp for `MasterKeyChanged`.
    public mutating func changeKey(to newKey: CompositeKey, now: KDBXTime) {
        key = newKey
        vault.meta.masterKeyChanged = now
        vault.meta.masterKeyChangeForceOnce = false
    }
}
