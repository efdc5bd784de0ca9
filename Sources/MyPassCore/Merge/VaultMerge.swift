import MyPassKDBX

/// Merges two copies of a vault with the rules of KeePass 2's Synchronize (`PwDatabase.MergeIn`
/// with `PwMergeMethod.Synchronize`), as a pure function on the model.
///
/// The rules, in the order they apply (KeePassLib 2.61 `PwDatabase.MergeIn`, `PwGroup.AssignProperties`,
/// `PwEntry.AssignProperties`, `MergeEntryHistory`, `MaintainBackups`):
/// - Objects match by UUID only, at one-second resolution for times (what KDBX stores); a time in
///   KeePass 1.x's "unknown" window (2999-12-27/29, hh:59:59) counts as the past.
/// - Remote objects are visited pre-order. A group or entry present in the remote vault only is
///   added (an entry with its history) under the counterpart of its remote parent (the root when
///   that is missing), next to its remote neighbours.
/// - A group on both sides takes the remote properties unless the remote modification time is
///   older: on a tie the remote state wins.
/// - An entry on both sides: unless the remote modification time is older, the remote state becomes
///   the current one (on a tie too). When the times differ and the states differ, the older state
///   goes into the history unless the newer side's history already holds it. Histories then merge by
///   modification time (the local item wins an equal time; when both histories have the same times
///   in the same order the local one stays). Finally every entry's history is trimmed to the merged
///   vault's limits (`Entry.trimHistory(maxItems:maxSize:)`), as KeePass's `MaintainBackups` does.
/// - Our one addition, keeping what a tie loses: on a tie whose two states really differ (the same
///   data check as KeePass's, with one client's bookkeeping aside: KeePassXC's `_LAST_MODIFIED`
///   custom data item), the local state goes into the entry's history (KeePass drops it) and a
///   ``MergeChange/Kind/conflict`` is logged (a group's tie is logged the same way); and of two
///   different history items of the same second, which KeePass's union by time reduces to one, both
///   are kept.
/// - Moves: the side with the newer `LocationChanged` gives the parent (never into the object's own
///   subtree); sibling order is then restored block by block as KeePass does; every object takes
///   the newer `LocationChanged` with that side's `PreviousParentGroup`.
/// - Deletions, after moves: the deleted objects of both sides are united (the latest time per
///   UUID). An object is deleted when it was last modified before its deletion time (a move after
///   it does not save it), a group only when nothing is left in it once its children were handled
///   (post-order); otherwise the record is dropped and the object lives.
/// - Meta: name, description, default user name, recycle bin (enabled, group) and entry templates
///   group each come from the side whose own change time is newer, the colour from the side with
///   the newer `SettingsChanged`; a recycle bin or templates group that no longer exists falls back
///   to the other side's, then to none. Custom data item by item by its KDBX 4.1 modification time
///   (without times: remote items when its settings are newer, or when missing locally); the KDBX 4
///   public custom data of the header by name, the side with the newer settings winning. Custom
///   icons: a union by UUID, the newer 4.1 modification time winning, a deleted-object record
///   removing an icon not modified after it; references to icons the merged vault lacks are cleared.
///   Everything else (master key change time, history limits, memory protection, format) stays local.
/// - Version: a local vault below KDBX 4.1 takes no custom data or icon times from the other copy
///   (they are merge bookkeeping), so the merged vault keeps the local version unless its content
///   needs more (`Vault.minimumVersion`).
/// - Attachments are owned by entries; the writer stores each distinct content once, so content
///   shared by merged entries is deduplicated on save.
///
/// Merging a vault with itself, or merging the result again with the same remote, changes nothing
/// (histories over the vault's limits aside, which the first merge trims).
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
    /// The KDBX 4 public custom data of the merged vault (serialized VariantDictionary).
    var publicCustomData: [UInt8]
    var conflicts: [MergeChange] = []

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
        publicCustomData = local.format.publicCustomData
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
        dropTimesTheLocalVersionCannotHold()
        trimHistories()

        var vault = local
        vault.root = tree.group()
        vault.deletedObjects = deletedObjects
        vault.meta = meta
        vault.format.publicCustomData = publicCustomData
        let changes = MergeLog.changes(from: local, to: vault, conflicts: conflicts)
        return MergeResult(vault: vault, changes: changes)
    }

    /// KeePass's `MaintainBackups` at the end of `MergeIn`: every entry's history, to the merged
    /// vault's limits.
    private mutating func trimHistories() {
        for uuid in Array(tree.entries.keys) {
            tree.entries[uuid]!.trimHistory(maxItems: meta.historyMaxItems, maxSize: meta.historyMaxSize)
        }
    }
}
