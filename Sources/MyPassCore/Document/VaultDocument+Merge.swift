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
