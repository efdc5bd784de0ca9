import Foundation
import MyPassBytes
import MyPassCrypto
import MyPassKDBX

/// One open vault file: where it is, which state of it was read, the key that opened it, and the
/// model. The only code in MyPass that writes vault files: the CLI, ``VaultSession`` and the agent
/// all open, edit and save through it.
///
/// - Opening resolves symbolic links, records the file's identity (real path, `stat`, SHA-256)
///   and runs the KDF once (none with a ``CachedTransformedKey`` that fits the file's seed).
/// - ``save(progress:)`` locks the file, checks its identity again (a change made meanwhile is merged
///   with ``Options/mergeHandler`` or refused, never overwritten), draws fresh seeds, runs the KDF once,
///   streams the file to a temporary file beside the real one (same mode, and owner when run as
///   root), flushes it, checks it by decrypting it with the keys just derived, renames it over
///   the real path (a symbolic link stays a link; its target gets the new content) and flushes
///   the directory.
public struct VaultDocument: Sendable {
    /// What happened to the file on disk when a save found it changed.
    public typealias MergeHandler = @Sendable (_ ours: Vault, _ onDisk: Vault) throws(CoreError) -> MergeOutcome

    /// A merge's result, for ``MergeHandler``.
    public struct MergeOutcome: Sendable {
        /// The vault to save: our changes merged into what is on disk.
        public var vault: Vault
        /// One line per change the merge made, for the user.
        public var summary: [String]

        /// An outcome from its parts.
        public init(vault: Vault, summary: [String]) {
            self.vault = vault
            self.summary = summary
        }
    }

    /// How a document opens and saves.
    public struct Options: Sendable {
        /// Limits for reading (sizes, KDF cost).
        public var limits: KDBXLimits
        /// How saves are written (compression level, block size; the version is the document's rule).
        public var saveOptions: KDBXSaveOptions
        /// The largest vault file read, in bytes (default 1 GiB).
        public var maxFileBytes: Int
        /// Seconds a save waits for another writer's lock (default 30).
        public var lockTimeoutSeconds: Double
        /// The file operations.
        public var fileSystem: any VaultFileSystem
        /// The KDF.
        public var keyDerivation: KeyDerivation
        /// Merges our changes into a file that changed on disk (default:
        /// ``VaultDocument/keePassSynchronize``); `nil`: such a save fails with
        /// ``CoreError/Code/fileChangedOnDisk``.
        public var mergeHandler: MergeHandler?
        /// How a save checks the file it wrote (default ``SaveVerification/contentDigest``).
        public var verification: SaveVerification

        /// Options with the defaults above and the system file system.
        public init(limits: KDBXLimits = KDBXLimits(), saveOptions: KDBXSaveOptions = KDBXSaveOptions(),
                    maxFileBytes: Int = 1 << 30, lockTimeoutSeconds: Double = 30,
                    fileSystem: any VaultFileSystem = SystemFileSystem(), keyDerivation: KeyDerivation = .standard,
                    mergeHandler: MergeHandler? = VaultDocument.keePassSynchronize,
                    verification: SaveVerification = .contentDigest) {
            SystemPlatform.install()
            self.limits = limits
            self.saveOptions = saveOptions
            self.maxFileBytes = maxFileBytes
            self.lockTimeoutSeconds = lockTimeoutSeconds
            self.fileSystem = fileSystem
            self.keyDerivation = keyDerivation
            self.mergeHandler = mergeHandler
            self.verification = verification
        }
    }

    /// The path the document was opened with (a symbolic link stays one).
    public let path: String
    /// The state of the file this document last read or wrote.
    public internal(set) var identity: VaultFileIdentity
    /// The decrypted model. Edit it directly or with ``edit(_:)``; ``save(progress:)`` writes it.
    public var vault: Vault
    /// The composite key that saves use: the one that opened the vault, or the one
    /// ``changeKey(to:now:)`` set.
    public internal(set) var key: CompositeKey
    /// The composite key of the file on disk as last read or written (what decrypts the file when
    /// a save finds it changed meanwhile); differs from ``key`` between a key change and its save.
    var fileKey: CompositeKey
    /// The transformed key for the file's current KDF parameters (what unlock-once caches).
    public internal(set) var cachedKey: CachedTransformedKey
    /// The options in force.
    public var options: Options
    /// The model as last read or written, to tell whether there is anything to save.
    var savedVault: Vault
    /// The temporary files of interrupted saves (`.NAME.mypass-HEX.tmp`, full encrypted copies of
    /// the vault) that opening found beside the file and removed: their paths, for the user.
    public internal(set) var removedStaleFiles: [String] = []
    /// Stale temporary files found but not removable (a read-only directory, say): their paths.
    public internal(set) var staleFilesLeft: [String] = []
    /// The conflict copies of the vault that sync engines left beside it, found when it was opened
    /// (``ConflictCopy``: one listing of the folder, no copy read). Merge them with
    /// ``mergeCopy(at:key:progress:)`` and one ``save(progress:)``.
    public internal(set) var conflictCopies: [ConflictCopy] = []

    /// Whether the model differs from the file.
    public var hasUnsavedChanges: Bool { vault != savedVault }

    /// Opens the vault at `path` with `key`.
    ///
    /// - Parameters:
    ///   - path: the vault file; relative paths are taken from the current directory.
    ///   - key: the composite key.
    ///   - cachedKey: a transformed key from an earlier unlock; used (no KDF) when it was derived
    ///     for the file's KDF parameters, ignored otherwise.
    ///   - options: limits, file system, KDF.
    ///   - progress: the KDF's progress; return `false` to cancel.
    /// - Throws: ``CoreError`` `.io` (missing or unreadable file), `.limitExceeded` (file too large),
    ///   `.wrongKey`, `.cancelled`, `.codec` (corrupted or unsupported file; the `KDBXError`
    ///   as ``CoreError/underlying``).
    /// - Complexity: one KDF run (none with a fitting `cachedKey`), then linear in the file size.
    public static func open(_ path: String, key: CompositeKey, cachedKey: CachedTransformedKey? = nil,
                            options: Options = Options(), progress: KDFProgressHandler? = nil) throws(CoreError) -> VaultDocument {
        SystemPlatform.install()
        let absolute = absolutePath(path)
        // The file is read inside one coordinated read; the KDF and the decryption run after it.
        // The folder is listed there too, once, for stale temporary files and conflict copies (the
        // stale files are removed after the KDF, once the key opened the file, inside a coordinated write).
        let (realPath, bytes, status, names) = try options.fileSystem.coordinatingRead(absolute) { () throws(CoreError) in
            let realPath = try options.fileSystem.resolve(absolute)
            let (bytes, status) = try readStable(realPath, options: options)
            return (realPath, bytes, status, try? options.fileSystem.contentsOfDirectory(directoryOf(realPath)))
        }
        let (vault, cached) = try decode(bytes, key: key, cachedKey: cachedKey, options: options, progress: progress)
        let identity = VaultFileIdentity(path: realPath, status: status, bytes: bytes)
        var document = VaultDocument(path: absolute, identity: identity, vault: vault, key: key, fileKey: key, cachedKey: cached,
                                     options: options, savedVault: vault)
        (document.removedStaleFiles, document.staleFilesLeft, document.conflictCopies)
            = lookBeside(realPath, names: names, removingStaleFiles: true, fileSystem: options.fileSystem)
        return document
    }

    /// What an open finds beside the vault at `realPath`, from one listing of its folder: the
    /// temporary files of killed saves (removed when `removingStaleFiles`, see
    /// ``removeStaleTemporaryFiles(of:fileSystem:)``) and the conflict copies sync engines left
    /// (``ConflictCopy``; none is read). Nothing when the folder cannot be listed.
    static func lookBeside(_ realPath: String, removingStaleFiles: Bool, fileSystem: any VaultFileSystem)
        -> (removed: [String], left: [String], conflicts: [ConflictCopy]) {
        let names = try? fileSystem.coordinatingRead(realPath) { () throws(CoreError) in
            try fileSystem.contentsOfDirectory(directoryOf(realPath))
        }
        return lookBeside(realPath, names: names, removingStaleFiles: removingStaleFiles, fileSystem: fileSystem)
    }

    /// ``lookBeside(_:removingStaleFiles:fileSystem:)`` with the folder's listing already made
    /// (`nil`: it could not be listed).
    static func lookBeside(_ realPath: String, names: [String]?, removingStaleFiles: Bool, fileSystem: any VaultFileSystem)
        -> (removed: [String], left: [String], conflicts: [ConflictCopy]) {
        guard let names else { return ([], [], []) }
        let stale: (removed: [String], left: [String])
            = removingStaleFiles ? removeStaleTemporaryFiles(of: realPath, names: names, fileSystem: fileSystem) : ([], [])
        return (stale.removed, stale.left, ConflictCopy.copies(of: realPath, among: names))
    }

    /// Removes the temporary files that killed saves of the vault at `realPath` left beside it.
    /// Only while no save runs: a saver holds the vault's lock from before it creates its temporary
    /// file until that file is renamed or removed, so when the lock is free at once, every such file
    /// is stale. Nothing is removed when the lock is held or the directory cannot be listed.
    /// - Returns: the paths removed, and the paths found but not removable.
    static func removeStaleTemporaryFiles(of realPath: String, fileSystem: any VaultFileSystem) -> (removed: [String], left: [String]) {
        removeStaleTemporaryFiles(staleTemporaryFiles(of: realPath, fileSystem: fileSystem), of: realPath, fileSystem: fileSystem)
    }

    /// ``removeStaleTemporaryFiles(of:fileSystem:)`` with the folder's listing already made.
    static func removeStaleTemporaryFiles(of realPath: String, names: [String], fileSystem: any VaultFileSystem)
        -> (removed: [String], left: [String]) {
        removeStaleTemporaryFiles(staleTemporaryFiles(of: realPath, among: names), of: realPath, fileSystem: fileSystem)
    }

    /// Removes `stale` (names of stale temporary files beside the vault at `realPath`, from
    /// ``staleTemporaryFiles(of:fileSystem:)``) inside a coordinated write of the vault, while no
    /// save runs (see ``removeStaleTemporaryFiles(of:fileSystem:)``).
    static func removeStaleTemporaryFiles(_ stale: [String], of realPath: String,
                                          fileSystem: any VaultFileSystem) -> (removed: [String], left: [String]) {
        guard !stale.isEmpty else { return ([], []) }
        let directory = directoryOf(realPath)
        // Removing them is a write beside the vault: inside a coordinated write of it.
        let outcome = try? fileSystem.coordinatingWrite(realPath) { () throws(CoreError) in
            removeStale(stale, in: directory, of: realPath, fileSystem: fileSystem)
        }
        return outcome ?? ([], [])
    }

    /// The names of the temporary files that killed saves of the vault at `realPath` left beside
    /// it (none when the folder cannot be listed), sorted.
    static func staleTemporaryFiles(of realPath: String, fileSystem: any VaultFileSystem) -> [String] {
        guard let names = try? fileSystem.contentsOfDirectory(directoryOf(realPath)) else { return [] }
        return staleTemporaryFiles(of: realPath, among: names)
    }

    /// The names among `names` (the vault's folder) of temporary files that saves of the vault at
    /// `realPath` make, sorted.
    static func staleTemporaryFiles(of realPath: String, among names: [String]) -> [String] {
        let prefix = temporaryFilePrefix(for: realPath)
        // `PREFIX<16 hex>.tmp` (a save's), or `.PREFIX<16 hex>.tmp.mypass-<16 hex>.tmp` (the save
        // of a create's staging file, itself named like a save's).
        func isRandomPart(_ part: Substring) -> Bool { part.count == 16 && part.allSatisfy(\.isHexDigit) }
        func isOurs(_ name: String) -> Bool {
            guard name.hasPrefix(prefix), name.hasSuffix(temporaryFileSuffix) else {
                guard name.hasPrefix("." + prefix), name.hasSuffix(temporaryFileSuffix) else { return false }
                let inner = name.dropFirst(prefix.count + 1).dropLast(temporaryFileSuffix.count)
                let separator = temporaryFileSuffix + ".mypass-"
                guard inner.count == 16 + separator.count + 16 else { return false }
                return isRandomPart(inner.prefix(16)) && inner.dropFirst(16).hasPrefix(separator) && isRandomPart(inner.suffix(16))
            }
            return isRandomPart(name.dropFirst(prefix.count).dropLast(temporaryFileSuffix.count))
        }
        return names.filter(isOurs).sorted()
    }

    /// Removes the stale temporary files `stale` (names in `directory`) while the vault's lock is
    /// free (see ``removeStaleTemporaryFiles(of:fileSystem:)``).
    private static func removeStale(_ stale: [String], in directory: String, of realPath: String,
                                    fileSystem: any VaultFileSystem) -> (removed: [String], left: [String]) {
        guard let lock = try? fileSystem.lock(realPath, timeoutSeconds: 0) else { return ([], []) }
        defer { fileSystem.close(lock) }
        var removed: [String] = []
        var left: [String] = []
        for name in stale {
            let path = directory + "/" + name
            // A save that exchanged its file into place holds its lock on the file it moved out,
            // which is now at its temporary path until it has merged it: in use, not stale.
            if let held = try? fileSystem.lock(path, timeoutSeconds: 0) {
                fileSystem.close(held)
            } else if (try? fileSystem.status(path)) != nil {
                continue
            }
            do {
                try fileSystem.remove(path)
                removed.append(path)
            } catch {
                // Listed before the lock was taken: a save may have renamed or removed its
                // temporary file in between. Gone is not left.
                let gone: Bool
                do throws(CoreError) { gone = try fileSystem.status(path) == nil } catch { gone = false }
                if gone { continue }
                left.append(path)
            }
        }
        return (removed, left)
    }

    /// Edits the model; `body` gets it in place. All or nothing: when `body` throws, the model is
    /// as before.
    /// - Throws: what `body` throws.
    @discardableResult
    public mutating func edit<R>(_ body: (inout Vault) throws(CoreError) -> R) throws(CoreError) -> R {
        var copy = vault
        let result = try body(&copy)
        vault = copy
        return result
    }

    /// Refuses a vault that cannot be saved before anything is asked or derived: the file (when it
    /// exists) and its directory must be writable by this user, and a file whose mode has no write
    /// bit at all is read-only even for root (as keepassxc-cli and KeePass treat it).
    /// - Parameters:
    ///   - path: the vault file (symbolic links are followed to the real file).
    ///   - fileSystem: where to look (``SystemFileSystem`` by default).
    /// - Throws: ``CoreError/Code/readOnly`` naming the file or directory; ``CoreError/Code/io``
    ///   when the path cannot be resolved.
    public static func checkWritable(_ path: String, fileSystem: any VaultFileSystem = SystemFileSystem()) throws(CoreError) {
        let absolute = absolutePath(path)
        let realPath: String
        if try fileSystem.status(absolute) != nil {
            realPath = try fileSystem.resolve(absolute)
        } else {
            realPath = try fileSystem.resolve(directoryOf(absolute)) + "/" + lastComponent(absolute)
        }
        let directory = directoryOf(realPath)
        if let status = try fileSystem.status(realPath) {
            guard status.isRegularFile else { throw CoreError(.readOnly, "not a regular file", location: realPath) }
            guard status.permissions & 0o222 != 0, fileSystem.isWritable(realPath) else {
                throw CoreError(.readOnly, "the file is read-only (mode \(String(status.permissions, radix: 8)))", location: realPath)
            }
        }
        let directoryStatus = try fileSystem.status(directory)
        guard let directoryStatus, directoryStatus.permissions & 0o222 != 0, fileSystem.isWritable(directory) else {
            throw CoreError(.readOnly, "the directory holding the vault is read-only; a save writes a temporary file beside the vault and renames it", location: directory)
        }
    }

    // MARK: - Reading

    /// The file's bytes and the status they belong to: read again when the file changed while it
    /// was read (a writer in between), so that identity and content always agree.
    static func readStable(_ realPath: String, options: Options) throws(CoreError) -> ([UInt8], VaultFileStatus) {
        let fileSystem = options.fileSystem
        for _ in 0..<5 {
            guard let before = try fileSystem.status(realPath) else {
                throw CoreError(.io, "no such file", location: realPath)
            }
            let bytes = try fileSystem.readFile(realPath, maxBytes: options.maxFileBytes)
            guard let after = try fileSystem.status(realPath) else { continue }
            if before == after && Int64(bytes.count) == after.size { return (bytes, after) }
        }
        throw CoreError(.io, "the file keeps changing while it is read", location: realPath)
    }

    /// Decodes a file: the KDF (or the cached key), then the payload.
    static func decode(_ bytes: [UInt8], key: CompositeKey, cachedKey: CachedTransformedKey?, options: Options,
                       progress: KDFProgressHandler?) throws(CoreError) -> (Vault, CachedTransformedKey) {
        do throws(KDBXError) {
            let reader = try KDBXReader(file: bytes, limits: options.limits)
            let kdf = reader.header.kdf
            let transformed: SecureBytes
            if let cachedKey, cachedKey.isValid(for: kdf) {
                transformed = cachedKey.transformedKey
            } else {
                transformed = try options.keyDerivation.transformedKey(for: key, version: reader.header.version, kdf: kdf,
                                                                       masterSeed: reader.header.masterSeed,
                                                                       limits: options.limits, progress: progress)
            }
            let keys = try reader.keys(transformedKey: transformed)
            let vault = try reader.readVault(keys: keys)
            return (vault, CachedTransformedKey(transformedKey: transformed, kdf: kdf))
        } catch {
            throw CoreError(codecError: error)
        }
    }

    static func absolutePath(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        return FileManager.default.currentDirectoryPath + "/" + path
    }

    static func directoryOf(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func lastComponent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}

extension CoreError {
    /// The core error for a codec error: wrong key, cancelled, size limits, I/O, or a file error.
    public init(codecError error: KDBXError) {
        switch error.code {
        case .wrongKey: self.init(.wrongKey, underlying: error)
        case .cancelled: self.init(.cancelled, error.reason, underlying: error)
        case .io: self.init(.io, error.reason, underlying: error)
        default: self.init(.codec, error.description, underlying: error)
        }
    }
}
