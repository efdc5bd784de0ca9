import MyPassBytes
import MyPassCrypto
import MyPassKDBX

extension VaultDocument {
    /// What a save did, for the user.
    public struct SaveReport: Sendable {
        /// The KDBX version written.
        public var version: KDBXVersion
        /// The version the file had, when the save had to raise it (an Argon2 KDF needs 4.0,
        /// 4.1-only content needs 4.1); `nil` when the version was kept.
        public var raisedFrom: KDBXVersion?
        /// When the file had changed on disk since it was read: the merge's summary (our changes
        /// were merged into the file's new content, and that was saved).
        public var merged: [String]?
        /// Things that went wrong after the new file was in place (the directory could not be
        /// flushed, a temporary file could not be removed): the vault is saved, but say so.
        public var warnings: [String]
    }

    /// The prefix and suffix of the temporary files a save writes beside the vault:
    /// `.NAME.mypass-HEX.tmp`.
    static func temporaryFilePrefix(for realPath: String) -> String { "." + lastComponent(realPath) + ".mypass-" }
    static let temporaryFileSuffix = ".tmp"

    /// Saves the model over the file (see the type's description for the steps).
    ///
    /// - Parameter progress: the KDF's progress; return `false` to cancel (nothing is written).
    /// - Returns: what happened (version raised, merge, warnings).
    /// - Throws: ``CoreError`` `.readOnly` (file or directory not writable; checked first),
    ///   `.fileChangedOnDisk` (the file changed and there is no merge handler, or it no longer opens
    ///   with our key: both versions intact), `.io` (a file operation or the lock failed),
    ///   `.verificationFailed` (the written file did not decrypt to the model), `.cancelled`,
    ///   `.codec`. On any error the vault file is as it was and no temporary file is left behind.
    /// - Complexity: one KDF run (two when the file changed on disk with a new seed), linear in the
    ///   vault's size otherwise; the file is streamed, never built whole in memory before the check.
    @discardableResult
    public mutating func save(progress: KDFProgressHandler? = nil) throws(CoreError) -> SaveReport {
        // The whole save runs inside one coordinated write of the vault (see ``VaultFileSystem``).
        let fileSystem = options.fileSystem
        let path = path
        return try fileSystem.coordinatingWrite(path) { () throws(CoreError) in try saveCoordinated(progress: progress) }
    }

    /// The save's steps, inside the coordinated write.
    private mutating func saveCoordinated(progress: KDFProgressHandler?) throws(CoreError) -> SaveReport {
        let fileSystem = options.fileSystem
        try Self.checkWritable(path, fileSystem: fileSystem)
        let realPath = try fileSystem.resolve(path)
        let directory = Self.directoryOf(realPath)

        // 1. The lock, on the file that is at the path now (a writer before us may have replaced it).
        var lock = try fileSystem.lock(realPath, timeoutSeconds: options.lockTimeoutSeconds)
        var attempts = 0
        while true {
            let locked = try fileSystem.status(of: lock)
            let current = try fileSystem.status(realPath)
            if let current, current.device == locked.device, current.inode == locked.inode { break }
            fileSystem.close(lock)
            attempts += 1
            guard attempts < 20 else { throw CoreError(.io, "the vault file keeps being replaced", location: realPath) }
            lock = try fileSystem.lock(realPath, timeoutSeconds: options.lockTimeoutSeconds)
        }
        defer { fileSystem.close(lock) }

        // 2. Identity: unchanged, or merged, or refused.
        var toWrite = vault
        var merged: [String]?
        guard let current = try fileSystem.status(realPath) else { throw CoreError(.io, "no such file", location: realPath) }
        if realPath != identity.path || !identity.matches(current) {
            let (bytes, _) = try Self.readStable(realPath, options: options)
            if realPath != identity.path || !identity.hasContent(bytes) {
                guard let mergeHandler = options.mergeHandler else {
                    throw CoreError(.fileChangedOnDisk, "another program saved it after it was read; nothing was written, both versions are intact",
                                    location: realPath)
                }
                let onDisk: Vault
                do {
                    (onDisk, _) = try Self.decode(bytes, key: fileKey, cachedKey: cachedKey, options: options, progress: progress)
                } catch where error.code == .wrongKey {
                    throw CoreError(.fileChangedOnDisk, "another program saved it with a different key after it was read; nothing was written",
                                    location: realPath)
                }
                let outcome = try mergeHandler(vault, onDisk)
                toWrite = outcome.vault
                merged = outcome.summary
            }
        }

        // 3. A fresh header and one KDF run for it.
        let writer = KDBXWriter(vault: toWrite, options: options.saveOptions)
        let plan: KDBXSavePlan
        let transformed: SecureBytes
        do throws(KDBXError) {
            plan = try writer.prepare()
            transformed = try options.keyDerivation.transform(key, plan.header.kdf, options.saveOptions.limits, progress)
        } catch {
            throw CoreError(codecError: error)
        }
        let keys = MasterKeys(transformedKey: transformed, masterSeed: plan.header.masterSeed)

        // 4. The temporary file beside the real one, streamed, flushed.
        let temporaryPath = directory + "/" + Self.temporaryFilePrefix(for: realPath)
            + SecureRandom.bytes(count: 8).hexString + Self.temporaryFileSuffix
        let output = try fileSystem.createExclusive(temporaryPath, permissions: current.permissions,
                                                    owner: (current.userID, current.groupID))
        var outputOpen = true
        let writtenStatus: VaultFileStatus, written: [UInt8], saved: Vault
        do throws(CoreError) {
            var sink = FileSink(fileSystem: fileSystem, handle: output)
            let contentDigest: [UInt8]
            do throws(KDBXError) {
                contentDigest = try writer.write(plan, keys: keys, to: &sink)
            } catch {
                throw sink.failure ?? CoreError(codecError: error)
            }
            try fileSystem.synchronize(output)
            writtenStatus = try fileSystem.status(of: output)
            fileSystem.close(output)
            outputOpen = false

            // 5. The check, with the keys just derived (no KDF): the file's header is the one planned,
            //    and its payload decodes to exactly the content serialized from the model (or, with
            //    `.fullReadBack`, reads back to the model).
            written = try fileSystem.readFile(temporaryPath, maxBytes: Int.max)
            saved = toWrite.asWritten(version: plan.version)
            try Self.verify(written, plan: plan, transformedKey: transformed, contentDigest: contentDigest, expected: saved,
                            options: options, location: realPath)

            // 6. In place, atomically; then the directory entry to disk.
            try fileSystem.rename(temporaryPath, to: realPath)
        } catch {
            if outputOpen { fileSystem.close(output) }
            throw Self.removingTemporaryFile(temporaryPath, after: error, fileSystem: fileSystem)
        }
        var warnings: [String] = []
        do {
            try fileSystem.synchronizeDirectory(directory)
        } catch {
            warnings.append("the vault was saved, but its directory could not be flushed to disk (\(error.reason)); a crash now could lose the save")
        }

        let loaded = vault.format.version
        identity = VaultFileIdentity(path: realPath, status: writtenStatus, bytes: written)
        vault = saved
        savedVault = saved
        cachedKey = CachedTransformedKey(transformedKey: transformed, kdf: plan.header.kdf)
        fileKey = key
        return SaveReport(version: plan.version, raisedFrom: plan.version > max(loaded, .v3_1) ? loaded : nil, merged: merged,
                          warnings: warnings)
    }
}

extension VaultDocument {
    /// How a save checks the file it wrote, before renaming it over the vault. Both decrypt the
    /// file with the keys the save derived (no second KDF run) and check that its header is the
    /// one the save planned.
    public enum SaveVerification: Sendable {
        /// Decrypt and inflate the file and compare the BLAKE2b-256 of its content (inner header and
        /// XML) with the digest taken while it was serialized, in constant time: proves that the
        /// bytes on disk decode to exactly what was written from the model, with no XML parse and
        /// no second model. The default.
        case contentDigest
        /// Read the file back into a second model and compare it with the model as a save at that
        /// version reads back: also checks the reader against the writer, at the cost of a full
        /// parse and the memory of a second model (for tests).
        case fullReadBack
    }

    /// Removes the temporary file of a save or create that failed with `error`, and returns the
    /// error to throw: `error` itself, or, when the file cannot be removed, `error` with the
    /// file's path and the reason added to its reason (the next open of the vault removes it).
    static func removingTemporaryFile(_ path: String, after error: CoreError, fileSystem: any VaultFileSystem) -> CoreError {
        do throws(CoreError) {
            try fileSystem.remove(path)
            return error
        } catch let failure {
            let left = "the temporary file \(path) could not be removed (\(failure.reason)); the next open of the vault removes it"
            return CoreError(error.code, error.reason.isEmpty ? left : error.reason + "; " + left, location: error.location,
                             underlying: error.underlying)
        }
    }

    /// The save's check (see ``SaveVerification``).
    /// - Throws: ``CoreError/Code/verificationFailed`` (the codec error as ``CoreError/underlying``
    ///   when the file does not decrypt).
    static func verify(_ written: [UInt8], plan: KDBXSavePlan, transformedKey: SecureBytes, contentDigest: [UInt8],
                       expected: Vault, options: Options, location: String) throws(CoreError) {
        let matches: Bool
        do throws(KDBXError) {
            let reader = try KDBXReader(file: written, limits: options.limits)
            let keys = try reader.keys(transformedKey: transformedKey)
            if reader.header.rawBytes != plan.header.rawBytes {
                matches = false
            } else if options.verification == .contentDigest {
                matches = constantTimeEquals(try reader.contentDigest(keys: keys), contentDigest)
            } else {
                matches = try reader.readVault(keys: keys) == expected
            }
        } catch {
            throw CoreError(.verificationFailed, "the written file does not decrypt: \(error.description)", location: location,
                            underlying: error)
        }
        guard matches else {
            throw CoreError(.verificationFailed, "the written file does not read back to the vault in memory", location: location)
        }
    }
}

/// The temporary file as a sink for the streaming writer; the first file error is kept (the
/// writer only sees that the sink failed).
private struct FileSink: KDBXByteSink {
    let fileSystem: any VaultFileSystem
    let handle: VaultFileHandle
    var failure: CoreError?

    init(fileSystem: any VaultFileSystem, handle: VaultFileHandle) {
        self.fileSystem = fileSystem
        self.handle = handle
    }

    mutating func write(_ bytes: ArraySlice<UInt8>) throws(KDBXError) {
        do {
            try fileSystem.write(handle, bytes)
        } catch {
            failure = error
            throw KDBXError(.io, error.reason)
        }
    }
}
