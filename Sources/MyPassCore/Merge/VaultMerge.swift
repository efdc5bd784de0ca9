import MyPassKDBX

/// Merges two copies of a vault with the rules of KeePass 2's Synchronize (`PwDatabase.MergeIn`
/// with `PwMergeMethod.Synchronize`), as a pure function on the model.
///
/// The rules, in the order they apply:
/// - Objects match by UUID only, at one-second resolution for times (what KDBX stores); a time in
///   KeePass 1.x's "unknown" window (2999-12-27/29, hh:59:59) counts as the past.
/// - Remote objects are visited pre-order. A group or entry present in the remote vault only is
///   added (an entry with its history) under the counterpart of its remote parent (the root when
///   that is missing), next to its remote neighbours.
/// - A group on both sides takes the remote properties when the remote modification time is newer.
/// - An entry on both sides: the newer modification time gives the current state, and the older
///   state goes into the history unless the history already holds it; histories merge by
///   modification time (local wins ties); a history the merge changed is trimmed to the merged
///   vault's limits (`Entry.trimHistory(maxItems:maxSize:)`; KeePass trims every entry, we leave
///   the others as they are so that a merge that brings nothing changes nothing). Same time and
///   same content (tags in any order): the remote times
///   (last access, usage count) are taken, as KeePass does.
/// - Same modification time with different content (group or entry): the local state is kept and a
///   ``MergeChange/Kind/conflict`` is logged; for an entry, the remote state goes into its history so
///   that nothing is lost. (KeePass lets the remote state win silently here.)
/// - Moves: the side with the newer `LocationChanged` gives the parent and `PreviousParentGroup`
///   (never into the object's own subtree); sibling order is then restored block by block as
///   KeePass does; every object takes the newer `LocationChanged`.
/// - Deletions, after moves: the deleted objects of both sides are united (the latest time per
///   UUID). An object is deleted only when it was last modified and last moved before its deletion
///   time, and a group only when nothing is left in it once its children were handled (post-order);
///   otherwise the record is dropped and the object lives. (KeePass looks at the modification time
///   only.)
/// - Meta: name, description, default user name, recycle bin (enabled, group), entry templates
///   group and master key change time each come from the side whose own change time is newer, the
///   colour from the side with the newer `SettingsChanged`; a recycle bin or templates group that no
///   longer exists falls back to the other side's, then to none. Custom data item by item by its
///   KDBX 4.1 modification time (without times: remote items when its settings are newer, or when
///   missing locally). Custom icons: a union by UUID, the newer 4.1 modification time winning, a
///   deleted-object record removing an icon not modified after it (references to it are cleared).
///   Everything else (history limits, memory protection, format) stays local.
/// - Attachments are owned by entries; the writer stores each distinct content once, so content
///   shared by merged entries is deduplicated on save.
///
/// Merging a vault with itself, or merging the result again with the same remote, changes nothing.
public enum VaultMerge {
    /// Merges `remote` into `local`.
    ///
    /// - Parameters:
    ///   - local: the vault whose format, key settings and history limits the result keeps (for
    ///     `mypass merge`, the vault that is saved; on a save whose file changed on disk, the file).
    ///   - remote: the other copy.
    /// - Returns: the merged vault and the change log relative to `local`.
    /// - Throws: ``CoreError/Code/invalidOperation`` when a UUID appears twice in one vault, or is an
    ///   entry in one vault and a group in the other (``CoreError/location`` is the UUID in hex).
    public static func merge(local: Vault, remote: Vault) throws(CoreError) -> MergeResult {
        var merger = try VaultMerger(local: local, remote: remote)
        return merger.run()
    }
}

/// The state of one merge: the local tree being edited, both sides' pools, the log.
struct VaultMerger {
    let local: Vault
    let remote: Vault
    let localPool: MergePool
    let remotePool: MergePool
    var tree: MergeTree
    var deletedObjects: [DeletedObject]
    var meta: Meta
    var conflicts: [MergeChange] = []
    /// Entries whose history the merge changed (only these are trimmed).
    var historyChanged: Set<KDBXUUID> = []

    init(local: Vault, remote: Vault) throws(CoreError) {
        self.local = local
        self.remote = remote
        localPool = try MergePool(root: local.root, side: "local")
        remotePool = try MergePool(root: remote.root, side: "remote")
        for (uuid, item) in remotePool.items {
            if let other = localPool.items[uuid], other.isEntry != item.isEntry {
                throw CoreError(.invalidOperation, "the UUID is an entry in one vault and a group in the other",
                                location: uuid.hexString)
            }
        }
        tree = MergeTree(root: local.root)
        deletedObjects = local.deletedObjects
        meta = local.meta
    }

    mutating func run() -> MergeResult {
        mergeObjects()
        relocateGroups()
        relocateEntries()
        reorder(tree.rootUUID)
        mergeLocationChanged()
        applyDeletions()
        mergeMeta()
        mergeCustomIcons()
        trimHistories()

        var vault = local
        vault.root = tree.group()
        vault.deletedObjects = deletedObjects
        vault.meta = meta
        let changes = MergeLog.changes(from: local, to: vault, conflicts: conflicts)
        return MergeResult(vault: vault, changes: changes)
    }

    private mutating func trimHistories() {
        for uuid in historyChanged {
            tree.entries[uuid]?.trimHistory(maxItems: meta.historyMaxItems, maxSize: meta.historyMaxSize)
        }
    }
}
