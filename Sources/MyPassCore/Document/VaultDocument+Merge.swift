import MyPassCrypto
import MyPassKDBX

extension VaultDocument {
    /// The merge a save uses by default when the file changed on disk: KeePass's Synchronize
    /// (``VaultMerge/merge(local:remote:)``) with the file's new content as the local side (its
    /// format and settings kept) and our model as the remote side, so every change of both sides is
    /// kept, the newer state of an object winning and the other going into its history.
    public static let keePassSynchronize: MergeHandler = { (ours, onDisk) throws(CoreError) in
        let result = try VaultMerge.merge(local: onDisk, remote: ours)
        return MergeOutcome(vault: result.vault, summary: result.changes.map(\.description))
    }
}

extension VaultDocument {
    /// Merges another copy of this vault into the model with KeePass's Synchronize rules
    /// (``VaultMerge/merge(local:remote:)``, the model as the local side): a conflict copy a sync
    /// engine left (``conflictCopies``), or any other copy. The model changes; nothing is written
    /// until ``save(progress:)`` (merge every copy, then save once), and the copy is not touched.
    ///
    /// - Parameters:
    ///   - path: the copy (read through ``Options/fileSystem``).
    ///   - key: its composite key; `nil`: the document's key (a copy a sync engine made has it).
    ///   - progress: the KDF's progress (the copy's own seed: one KDF run).
    /// - Returns: the merge's change log, relative to the model before.
    /// - Throws: ``CoreError`` `.wrongKey` (the key does not open the copy), `.codec` (damaged or
    ///   not a vault), `.io`, `.limitExceeded`, `.cancelled`; `.invalidOperation` when the copy is
    ///   another vault (its root group has another UUID: a vault that only shares the password is
    ///   never merged) or holds clashing UUIDs. The model is unchanged then.
    @discardableResult
    public mutating func mergeCopy(at path: String, key: CompositeKey? = nil,
                                   progress: KDFProgressHandler? = nil) throws(CoreError) -> MergeResult {
        try merge(copy: try Self.readCopy(at: path, key: key ?? self.key, options: options, progress: progress), from: path)
    }

    /// Reads and decodes another copy of a vault (one KDF run): the first half of
    /// ``mergeCopy(at:key:progress:)``, for a caller that runs the KDF elsewhere (``VaultSession``).
    /// - Throws: as ``mergeCopy(at:key:progress:)`` but for the `.invalidOperation` cases.
    public static func readCopy(at path: String, key: CompositeKey, options: Options,
                                progress: KDFProgressHandler? = nil) throws(CoreError) -> Vault {
        SystemPlatform.install()
        let bytes = try options.fileSystem.readFile(absolutePath(path), maxBytes: options.maxFileBytes)
        return try decode(bytes, key: key, cachedKey: nil, options: options, progress: progress).0
    }

    /// Merges a decoded copy (``readCopy(at:key:options:progress:)``) read from `path` into the
    /// model: the second half of ``mergeCopy(at:key:progress:)``.
    /// - Throws: `.invalidOperation` when it is another vault or holds clashing UUIDs.
    @discardableResult
    public mutating func merge(copy: Vault, from path: String) throws(CoreError) -> MergeResult {
        guard copy.root.uuid == vault.root.uuid else {
            throw CoreError(.invalidOperation, "it is another vault (its root group is not this vault's), so it is not merged",
                            location: path)
        }
        let result = try VaultMerge.merge(local: vault, remote: copy)
        vault = result.vault
        return result
    }

    /// Removes a conflict copy once its content is merged and saved.
    /// - Throws: ``CoreError/Code/invalidOperation`` for a copy whose name an ordinary file could
    ///   have (``ConflictCopy/isUnambiguous`` is `false`: OneDrive's, iCloud's patterns), which is
    ///   never removed; ``CoreError/Code/io`` when the removal fails.
    public func removeConflictCopy(_ copy: ConflictCopy) throws(CoreError) {
        guard copy.isUnambiguous else {
            throw CoreError(.invalidOperation, "its name could be an ordinary file's, so it is not removed", location: copy.path)
        }
        try options.fileSystem.remove(copy.path)
    }
}
