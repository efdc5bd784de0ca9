import MyPassBytes
import MyPassCrypto
import MyPassKDBX

extension VaultDocument {
    /// Creates a new vault file at `path` holding `vault`, through the same safe save as every
    /// other write (temporary file, flushed, checked by decrypting it), and never over anything.
    ///
    /// The vault is first saved under a staging name beside `path`, named like a save's temporary
    /// file (`.NAME.mypass-HEX.tmp`); then `link(2)` gives it its real name, which fails when
    /// anything appeared at `path` meanwhile, and the staging name is removed. So at no moment is
    /// there a partial or empty file at `path`: a create that fails, is cancelled or is killed
    /// leaves `path` as it was, and a staging file left by a killed one is removed by the next
    /// create or open of that vault, like any stale temporary file.
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
    ///   a symbolic link), before or after the save, `.readOnly` (directory not writable), `.io`,
    ///   `.verificationFailed`, `.cancelled`, `.codec` (a format the content cannot be written in).
    /// - Complexity: one KDF run.
    public static func create(_ path: String, vault: Vault, key: CompositeKey, options: Options = Options(),
                              progress: KDFProgressHandler? = nil) throws(CoreError) -> (VaultDocument, SaveReport) {
        SystemPlatform.install()
        // The whole create runs inside one coordinated write of the new file (see ``VaultFileSystem``).
        let absolute = absolutePath(path)
        return try options.fileSystem.coordinatingWrite(absolute) { () throws(CoreError) in
            try createCoordinated(absolute, vault: vault, key: key, options: options, progress: progress)
        }
    }

    /// The create's steps, inside the coordinated write.
    private static func createCoordinated(_ absolute: String, vault: Vault, key: CompositeKey, options: Options,
                                          progress: KDFProgressHandler?) throws(CoreError) -> (VaultDocument, SaveReport) {
        let fileSystem = options.fileSystem
        let directory = try fileSystem.resolve(directoryOf(absolute))
        let realPath = directory + "/" + lastComponent(absolute)
        let taken = try fileSystem.status(absolute) != nil
        let listed = try fileSystem.contentsOfDirectory(directory).contains(lastComponent(absolute))
        if taken || listed {
            throw CoreError(.alreadyExists, "a file is already there; nothing was written", location: absolute)
        }
        try checkWritable(realPath, fileSystem: fileSystem)

        // The staging file: saved like any vault (lock, temporary file, check, rename over it).
        let stagingPath = directory + "/" + temporaryFilePrefix(for: realPath) + SecureRandom.bytes(count: 8).hexString
            + temporaryFileSuffix
        let placeholder = try fileSystem.createExclusive(stagingPath, permissions: 0o600, owner: nil)
        let placeholderStatus: VaultFileStatus
        do throws(CoreError) {
            placeholderStatus = try fileSystem.status(of: placeholder)
            fileSystem.close(placeholder)
        } catch {
            fileSystem.close(placeholder)
            throw removingTemporaryFile(stagingPath, after: error, fileSystem: fileSystem)
        }
        var staged = VaultDocument(
            path: stagingPath, identity: VaultFileIdentity(path: stagingPath, status: placeholderStatus, bytes: []),
            vault: vault, key: key, fileKey: key,
            cachedKey: CachedTransformedKey(transformedKey: SecureBytes(zeroedCount: 32), kdf: KDFParameters(settings: vault.format.kdf, seed: [])),
            options: options, savedVault: vault)
        staged.options.mergeHandler = nil
        var report: SaveReport
        do throws(CoreError) {
            report = try staged.save(progress: progress)
            // 7. The real name, only if still free; then the staging name goes.
            try fileSystem.link(stagingPath, to: realPath)
        } catch {
            throw removingTemporaryFile(stagingPath, after: error, fileSystem: fileSystem)
        }
        do throws(CoreError) {
            try fileSystem.remove(stagingPath)
        } catch {
            report.warnings.append("the vault was created, but its staging file \(stagingPath) could not be removed (\(error.reason))")
        }
        do throws(CoreError) {
            try fileSystem.synchronizeDirectory(directory)
        } catch {
            report.warnings.append("the vault was created, but its directory could not be flushed to disk (\(error.reason)); a crash now could lose it")
        }
        let published = (try? fileSystem.status(realPath)).flatMap { $0 } ?? staged.identity.status
        var document = VaultDocument(
            path: absolute, identity: staged.identity.relocated(to: realPath, status: published), vault: staged.vault,
            key: staged.key, fileKey: staged.fileKey, cachedKey: staged.cachedKey, options: options,
            savedVault: staged.savedVault)
        (document.removedStaleFiles, document.staleFilesLeft, document.conflictCopies)
            = lookBeside(realPath, removingStaleFiles: true, fileSystem: fileSystem)
        return (document, report)
    }

    /// Replaces the composite key (a new master password, key file, challenge-response component,
    /// or several; `CompositeKey.replacingChallengeResponse(with:)` replaces or removes the
    /// hardware key of a key that has one and keeps the rest): the next
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
