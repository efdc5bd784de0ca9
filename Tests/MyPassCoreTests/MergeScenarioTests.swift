import MyPassBytes
import MyPassCore
import MyPassKDBX
import Testing

/// Merge scenarios named after the cases of KeePassXC's TestMerge, kdbxweb's merge spec and
/// keepass-rs's merge tests, with KeePass 2 Synchronize's rules.
@Suite("Merge scenarios")
struct MergeScenarioTests {
    let t = MergeTimes.t

    private func merge(_ local: Vault, _ remote: Vault) throws -> MergeResult {
        try VaultMerge.merge(local: local, remote: remote)
    }

    private func kinds(_ result: MergeResult) -> [String] {
        result.changes.map { "\($0.kind.rawValue) \($0.object.rawValue) \($0.path.joined(separator: "/"))" }
    }

    @Test func noChanges() throws {
        let base = MergeBase().vault
        let result = try merge(base, base)
        #expect(result.vault == base)
        #expect(result.changes.isEmpty)
        #expect(!result.changedLocal)
    }

    @Test func entryChangedRemotely() throws {
        let local = MergeBase().vault
        var remote = local
        remote.edit("GitHub", at: t(5)) { $0.userName = "octocat" }
        let result = try merge(local, remote)
        let merged = try #require(result.vault.entry(titled: "GitHub"))
        #expect(merged == remote.entry(titled: "GitHub"))
        #expect(merged.userName == "octocat")
        #expect(merged.history.map(\.userName) == ["github"])
        #expect(kinds(result) == ["updated entry Work/GitHub"])
    }

    @Test func entryChangedLocallyOnly() throws {
        var local = MergeBase().vault
        local.edit("GitHub", at: t(5)) { $0.userName = "octocat" }
        let remote = MergeBase().vault
        let result = try merge(local, remote)
        #expect(result.vault == local)
        #expect(result.changes.isEmpty)
    }

    @Test func entryChangedOnBothSidesNewerWins() throws {
        let base = MergeBase().vault
        var local = base, remote = base
        local.edit("GitHub", at: t(5)) { $0.userName = "local" }
        remote.edit("GitHub", at: t(9)) { $0.userName = "remote" }
        let result = try merge(local, remote)
        let merged = try #require(result.vault.entry(titled: "GitHub"))
        #expect(merged.userName == "remote")
        #expect(merged.times.lastModification == t(9))
        #expect(merged.history.map(\.userName) == ["github", "local"])
        #expect(merged.history.map(\.times.lastModification) == [MergeTimes.base, t(5)])

        // The other way round: the local state is newer and stays; the remote one goes to history.
        let reverse = try merge(remote, local)
        let kept = try #require(reverse.vault.entry(titled: "GitHub"))
        #expect(kept.userName == "remote")
        #expect(kept.history.map(\.userName) == ["github", "local"])
    }

    @Test func interleavedHistories() throws {
        let base = MergeBase().vault
        var local = base, remote = base
        local.edit("Jira", at: t(1)) { $0.notes = "L1" }
        remote.edit("Jira", at: t(2)) { $0.notes = "R2" }
        local.edit("Jira", at: t(3)) { $0.notes = "L3" }
        remote.edit("Jira", at: t(4)) { $0.notes = "R4" }
        let result = try merge(local, remote)
        let merged = try #require(result.vault.entry(titled: "Jira"))
        #expect(merged.notes == "R4")
        #expect(merged.history.map(\.notes) == ["", "L1", "R2", "L3"])
        #expect(result.changes.map(\.kind) == [.updated])
    }

    @Test func historyTrimmedToMergedLimits() throws {
        var base = MergeBase().vault
        base.meta.historyMaxItems = 3
        var local = base, remote = base
        for minute in 1...3 { local.edit("Wiki", at: t(Int64(minute))) { $0.notes = "L\(minute)" } }
        for minute in 4...6 { remote.edit("Wiki", at: t(Int64(minute))) { $0.notes = "R\(minute)" } }
        let merged = try #require(try merge(local, remote).vault.entry(titled: "Wiki"))
        #expect(merged.notes == "R6")
        // Union: "", L1, L2, L3, R4, R5 (6 items), trimmed to the 3 newest.
        #expect(merged.history.map(\.notes) == ["L3", "R4", "R5"])
    }

    @Test func entriesAndGroupsAddedDeep() throws {
        let base = MergeBase().vault
        var local = base, remote = base
        let deep = try remote.addGroup(named: "Deep", in: remote.groupUUID("Email"), now: t(1))
        let deeper = try remote.addGroup(named: "Deeper", in: deep, now: t(2))
        var secret = Entry()
        secret.title = "Buried"
        try remote.addEntry(secret, to: deeper, now: t(3))
        remote.edit("Buried", at: t(4)) { $0.notes = "v2" }
        var mine = Entry()
        mine.title = "Mine"
        try local.addEntry(mine, to: local.groupUUID("Work"), now: t(2))
        let result = try merge(local, remote)
        #expect(result.vault.path(ofGroup: result.vault.groupUUID("Deeper")) == ["Work", "Email", "Deep", "Deeper"])
        let buried = try #require(result.vault.entry(titled: "Buried"))
        #expect(buried.notes == "v2")
        #expect(buried.history.count == 1)
        #expect(result.vault.titles(inGroup: "Work") == ["GitHub", "Jira", "Wiki", "Mine"])
        #expect(kinds(result) == ["added group Work/Email/Deep", "added group Work/Email/Deep/Deeper",
                                  "added entry Work/Email/Deep/Deeper/Buried"])
    }

    @Test func addedEntryGoesNextToItsNeighbours() throws {
        let base = MergeBase().vault
        var remote = base
        var entry = Entry(uuid: MergeBase.uuid(900), times: Times(all: t(1)))
        entry.title = "Between"
        // Remote order: GitHub, Between, Jira, Wiki.
        remote.root.modifyGroup(withUUID: remote.groupUUID("Work")) { $0.entries.insert(entry, at: 1) }
        var local = base
        local.root.modifyGroup(withUUID: local.groupUUID("Work")) { $0.entries.removeFirst() }  // no GitHub
        let result = try merge(local, remote)
        #expect(result.vault.titles(inGroup: "Work") == ["GitHub", "Between", "Jira", "Wiki"])
    }

    @Test func deletedRemotelyBeforeLocalChangeLives() throws {
        let base = MergeBase().vault
        var local = base, remote = base
        let uuid = base.entryUUID("Shop")
        try remote.deleteEntry(uuid, now: t(2))
        local.edit("Shop", at: t(3)) { $0.notes = "still here" }
        let result = try merge(local, remote)
        #expect(result.vault.entry(withUUID: uuid)?.notes == "still here")
        #expect(!result.vault.deletedObjects.contains { $0.uuid == uuid })
        #expect(result.changes.isEmpty)
    }

    @Test func deletedRemotelyAfterLocalChangeGoes() throws {
        let base = MergeBase().vault
        var local = base, remote = base
        let uuid = base.entryUUID("Shop")
        local.edit("Shop", at: t(2)) { $0.notes = "changed" }
        try remote.deleteEntry(uuid, now: t(3))
        let result = try merge(local, remote)
        #expect(result.vault.entry(withUUID: uuid) == nil)
        #expect(result.vault.deletedObjects == [DeletedObject(uuid: uuid, deletionTime: t(3))])
        #expect(kinds(result) == ["deleted entry Personal/Shop"])
        // And deleted locally, changed remotely before: stays deleted.
        let reverse = try merge(remote, local)
        #expect(reverse.vault.entry(withUUID: uuid) == nil)
        #expect(reverse.changes.isEmpty)
    }

    /// KeePass's `ApplyDeletions` looks at the modification time only: a move after the deletion
    /// (which changes `LocationChanged`, not the data) does not save the object.
    @Test func movedAfterDeletionGoes() throws {
        let base = MergeBase().vault
        var local = base, remote = base
        let uuid = base.entryUUID("Bank")
        try remote.deleteEntry(uuid, now: t(2))
        try local.moveEntry(uuid, to: local.groupUUID("Work"), now: t(3))
        let result = try merge(local, remote)
        #expect(result.vault.entry(withUUID: uuid) == nil)
        #expect(result.vault.deletedObjects.map(\.uuid) == [uuid])
        #expect(kinds(result) == ["deleted entry Work/Bank"])
    }

    @Test func deletedGroupThatReceivedAnEntryLives() throws {
        let base = MergeBase().vault
        var local = base, remote = base
        let personal = base.groupUUID("Personal")
        var fresh = Entry()
        fresh.title = "Fresh"
        try local.addEntry(fresh, to: personal, now: t(1))
        try remote.deleteGroup(personal, now: t(2))
        #expect(remote.deletedObjects.count == 3)
        let result = try merge(local, remote)
        #expect(result.vault.titles(inGroup: "Personal") == ["Fresh"])
        // Bank and Shop go; the group's own record is dropped because it is not empty.
        #expect(result.vault.deletedObjects.map(\.uuid) == [base.entryUUID("Bank"), base.entryUUID("Shop")])
        #expect(kinds(result) == ["deleted entry Personal/Bank", "deleted entry Personal/Shop"])
    }

    @Test func deletedGroupWithSubgroupsGoesWhole() throws {
        let base = MergeBase().vault
        var remote = base
        try remote.deleteGroup(base.groupUUID("Work"), now: t(2))
        let result = try merge(base, remote)
        #expect(result.vault.root.groups.map(\.name) == ["Personal", "Recycle Bin"])
        #expect(result.vault.deletedObjects.count == 6)
        #expect(result.changes.filter { $0.kind == .deleted }.count == 6)
    }

    @Test func moveOnOneSide() throws {
        let base = MergeBase().vault
        var remote = base
        let uuid = base.entryUUID("GitHub")
        try remote.moveEntry(uuid, to: remote.groupUUID("Personal"), now: t(1))
        let result = try merge(base, remote)
        #expect(result.vault.parentName(ofEntry: "GitHub") == "Personal")
        let moved = try #require(result.vault.entry(withUUID: uuid))
        #expect(moved.times.locationChanged == t(1))
        #expect(moved.previousParentGroup == base.groupUUID("Work"))
        #expect(kinds(result) == ["moved entry Personal/GitHub"])
        // The local side keeps its place when it moved later.
        var local = base
        try local.moveEntry(uuid, to: local.groupUUID("Email"), now: t(2))
        let later = try merge(local, remote)
        #expect(later.vault.parentName(ofEntry: "GitHub") == "Email")
        #expect(later.changes.isEmpty)
    }

    @Test func moveOnBothSidesNewerWins() throws {
        let base = MergeBase().vault
        var local = base, remote = base
        let uuid = base.entryUUID("Jira")
        try local.moveEntry(uuid, to: local.groupUUID("Personal"), now: t(1))
        try remote.moveEntry(uuid, to: remote.groupUUID("Email"), now: t(2))
        let result = try merge(local, remote)
        #expect(result.vault.parentName(ofEntry: "Jira") == "Email")
        #expect(result.vault.entry(withUUID: uuid)?.previousParentGroup == base.groupUUID("Work"))
    }

    @Test func moveOnOneSideEditOnTheOther() throws {
        let base = MergeBase().vault
        var local = base, remote = base
        let uuid = base.entryUUID("Wiki")
        local.edit("Wiki", at: t(3)) { $0.url = "https://wiki.example.org/" }
        try remote.moveEntry(uuid, to: remote.groupUUID("Personal"), now: t(1))
        let result = try merge(local, remote)
        let merged = try #require(result.vault.entry(withUUID: uuid))
        #expect(result.vault.parentName(ofEntry: "Wiki") == "Personal")
        #expect(merged.url == "https://wiki.example.org/")
        #expect(merged.times.locationChanged == t(1))
        #expect(kinds(result) == ["moved entry Personal/Wiki"])
    }

    @Test func groupMovesAndNeverIntoItsOwnSubtree() throws {
        let base = MergeBase().vault
        var local = base, remote = base
        let work = base.groupUUID("Work"), personal = base.groupUUID("Personal")
        try local.moveGroup(work, to: personal, now: t(1))
        try remote.moveGroup(personal, to: remote.groupUUID("Email"), now: t(2))
        let result = try merge(local, remote)
        // Personal would go into Email, which is inside Personal here: it stays.
        #expect(result.vault.path(ofGroup: base.groupUUID("Email")) == ["Personal", "Work", "Email"])
        #expect(result.vault.allGroups.count == base.allGroups.count)
        // Without the local move, the remote move applies.
        let plain = try merge(base, remote)
        #expect(plain.vault.path(ofGroup: personal) == ["Work", "Email", "Personal"])
    }

    @Test func groupPropertyChanges() throws {
        let base = MergeBase().vault
        var local = base, remote = base
        let work = base.groupUUID("Work"), personal = base.groupUUID("Personal")
        try remote.editGroup(work, now: t(2)) { $0.name = "Job"; $0.notes = "remote" }
        try local.editGroup(work, now: t(1)) { $0.iconID = 7 }
        try remote.editGroup(personal, now: t(1)) { $0.name = "Home" }
        try local.editGroup(personal, now: t(3)) { $0.notes = "local" }
        let result = try merge(local, remote)
        let job = try #require(result.vault.group(withUUID: work))
        #expect(job.name == "Job")
        #expect(job.notes == "remote")
        #expect(job.iconID == 48)
        let home = try #require(result.vault.group(withUUID: personal))
        #expect(home.name == "Personal")
        #expect(home.notes == "local")
        #expect(kinds(result) == ["updated group Job"])
    }

    /// A tie: KeePass takes the remote state (`AssignProperties` returns only when the source is
    /// older); we keep the local state in the history, since the two really differ.
    @Test func sameTimeDifferentContentTakesRemoteAndKeepsLocalInHistory() throws {
        let base = MergeBase().vault
        var local = base, remote = base
        local.edit("B", at: t(4)) { $0.notes = "local" }
        remote.edit("B", at: t(4)) { $0.notes = "remote" }
        let result = try merge(local, remote)
        let merged = try #require(result.vault.entry(titled: "B"))
        #expect(merged.notes == "remote")
        #expect(merged.history.map(\.notes) == ["", "local"])
        #expect(result.changes.map(\.kind) == [.updated, .conflict])
        #expect(result.changes.last?.path == ["B"])
        #expect(result.changedLocal)
        // Again with the result: no new history item, nothing to log.
        let again = try merge(result.vault, remote)
        #expect(again.vault == result.vault)
        #expect(again.changes.isEmpty)
    }

    @Test func sameTimeGroupTakesRemote() throws {
        let base = MergeBase().vault
        var local = base, remote = base
        try local.editGroup(base.groupUUID("Personal"), now: t(4)) { $0.notes = "local" }
        try remote.editGroup(base.groupUUID("Personal"), now: t(4)) { $0.notes = "remote" }
        let result = try merge(local, remote)
        #expect(result.vault.group(withUUID: base.groupUUID("Personal"))?.notes == "remote")
        #expect(kinds(result) == ["updated group Personal", "conflict group Personal"])
    }

    /// What KeePassXC keeps or writes its own way is not data: its `_LAST_MODIFIED` custom data item,
    /// the order of an entry's fields, the protection flag of attachments, the standard icon number
    /// beside a custom icon. A tie that differs only there takes the remote state silently, with no
    /// history item.
    @Test func bookkeepingAndFieldOrderAreNoConflict() throws {
        var base = MergeBase().vault
        let github = base.entryUUID("GitHub"), work = base.groupUUID("Work")
        base.edit("GitHub", at: t(1)) {
            $0.customData = [CustomDataItem(key: "KPXC_BROWSER", value: "x")]
            $0.attachments = [Attachment(name: "a.txt", data: Array("content".utf8), isProtected: true)]
            $0.customIconUUID = MergeBase.uuid(800)
            $0.iconID = 12
        }
        base.meta.customIcons = [CustomIcon(uuid: MergeBase.uuid(800), data: [1, 2, 3])]
        try base.editGroup(work, now: t(1)) {
            $0.customData = [CustomDataItem(key: "group.key", value: "g")]
            $0.customIconUUID = MergeBase.uuid(800)
            $0.iconID = 48
        }
        var local = base, remote = base
        local.root.modifyEntry(withUUID: github) {
            $0.customData.append(CustomDataItem(key: "_LAST_MODIFIED", value: "Mon Dec 1 10:00:00 2026 GMT"))
            $0.fields.reverse()
        }
        // KeePassXC's ways: its own time stamp, attachments unprotected, icon 0 beside a custom icon.
        remote.root.modifyEntry(withUUID: github) {
            $0.customData.insert(CustomDataItem(key: "_LAST_MODIFIED", value: "Fri Dec 4 14:36:05 2026 GMT"), at: 0)
            $0.attachments[0].isProtected = false
            $0.iconID = 0
        }
        local.root.modifyGroup(withUUID: work) {
            $0.customData.append(CustomDataItem(key: "_LAST_MODIFIED", value: "Mon Dec 1 10:00:00 2026 GMT"))
        }
        remote.root.modifyGroup(withUUID: work) {
            $0.customData.append(CustomDataItem(key: "_LAST_MODIFIED", value: "Fri Dec 4 14:36:05 2026 GMT"))
            $0.iconID = 0
        }
        let result = try merge(local, remote)
        #expect(result.changes.isEmpty)
        #expect(!result.changedLocal)
        let merged = try #require(result.vault.entry(withUUID: github))
        #expect(merged.history.count == base.entry(withUUID: github)!.history.count)
        // The remote state is taken, as KeePass takes it (its bookkeeping and field order included).
        #expect(merged == remote.entry(withUUID: github))
        #expect(result.vault.group(withUUID: work)?.customData == remote.group(withUUID: work)?.customData)
    }

    @Test func sameTimeSameContentTakesRemoteAccessTimes() throws {
        let base = MergeBase().vault
        var remote = base
        try remote.touchEntry(base.entryUUID("A"), now: t(7))
        let result = try merge(base, remote)
        let merged = try #require(result.vault.entry(titled: "A"))
        #expect(merged.times.lastAccess == t(7))
        #expect(merged.times.usageCount == 1)
        #expect(merged.history.isEmpty)
    }

    @Test func metaSettingsComeFromTheNewerSide() throws {
        let base = MergeBase().vault
        var local = base, remote = base
        remote.meta.databaseName = "Remote name"
        remote.meta.databaseNameChanged = t(2)
        local.meta.databaseDescription = "Local description"
        local.meta.databaseDescriptionChanged = t(3)
        remote.meta.databaseDescription = "Older remote description"
        remote.meta.databaseDescriptionChanged = t(1)
        remote.meta.defaultUserName = "sam"
        remote.meta.defaultUserNameChanged = t(1)
        remote.meta.color = "#FF0000"
        remote.meta.settingsChanged = t(1)
        remote.meta.masterKeyChanged = t(9)
        remote.meta.historyMaxItems = 2
        let result = try merge(local, remote)
        let meta = result.vault.meta
        #expect(meta.databaseName == "Remote name")
        #expect(meta.databaseNameChanged == t(2))
        #expect(meta.databaseDescription == "Local description")
        #expect(meta.defaultUserName == "sam")
        #expect(meta.color == "#FF0000")
        // The merged file keeps the local key, so its change time stays local too (KeePass's
        // `MergeInDbProperties` does not touch it).
        #expect(meta.masterKeyChanged == MergeTimes.base)
        #expect(meta.historyMaxItems == 10)
        #expect(result.changes.map(\.note) == ["databaseName", "defaultUserName", "color"])
    }

    @Test func customDataItemByItem() throws {
        let base = MergeBase().vault
        var local = base, remote = base
        local.meta.customData = [
            CustomDataItem(key: "both.newer.remote", value: "L", lastModification: t(1)),
            CustomDataItem(key: "both.newer.local", value: "L", lastModification: t(5)),
            CustomDataItem(key: "local.only", value: "L", lastModification: t(1)),
            CustomDataItem(key: "untimed", value: "L"),
        ]
        remote.meta.customData = [
            CustomDataItem(key: "both.newer.remote", value: "R", lastModification: t(2)),
            CustomDataItem(key: "both.newer.local", value: "R", lastModification: t(4)),
            CustomDataItem(key: "remote.only", value: "R", lastModification: t(1)),
            CustomDataItem(key: "untimed", value: "R"),
        ]
        let meta = try merge(local, remote).vault.meta
        #expect(meta.customData.map { "\($0.key)=\($0.value)" } == [
            "both.newer.remote=R", "both.newer.local=L", "local.only=L", "untimed=L", "remote.only=R",
        ])
        // Untimed items follow the newer settings.
        remote.meta.settingsChanged = t(1)
        #expect(try merge(local, remote).vault.meta.customData[customDataKey: "untimed"] == "R")
    }

    @Test func customIconsAddedChangedDeleted() throws {
        let base = MergeBase().vault
        var local = base, remote = base
        let kept = MergeBase.uuid(501), changed = MergeBase.uuid(502), gone = MergeBase.uuid(503)
        let fresh = MergeBase.uuid(504), revived = MergeBase.uuid(505)
        local.meta.customIcons = [
            CustomIcon(uuid: kept, data: [1], lastModification: t(1)),
            CustomIcon(uuid: changed, data: [2], lastModification: t(1)),
            CustomIcon(uuid: gone, data: [3], lastModification: t(1)),
            CustomIcon(uuid: revived, data: [5], lastModification: t(6)),
        ]
        local.edit("A", at: t(1)) { $0.customIconUUID = gone }
        remote.meta.customIcons = [
            CustomIcon(uuid: kept, data: [9], lastModification: t(1)),
            CustomIcon(uuid: changed, data: [20], name: "new", lastModification: t(2)),
            CustomIcon(uuid: fresh, data: [4], lastModification: t(1)),
        ]
        remote.deletedObjects = [DeletedObject(uuid: gone, deletionTime: t(3)),
                                 DeletedObject(uuid: revived, deletionTime: t(3))]
        let result = try merge(local, remote)
        let icons = result.vault.meta.customIcons
        #expect(icons.map(\.uuid) == [kept, changed, revived, fresh])
        #expect(icons.map(\.data) == [[1], [20], [5], [4]])
        #expect(result.vault.entry(titled: "A")?.customIconUUID == nil)
        #expect(result.vault.deletedObjects == [DeletedObject(uuid: gone, deletionTime: t(3))])
        #expect(result.changes.map { "\($0.kind.rawValue) \($0.object.rawValue)" } == [
            "updated entry", "updated customIcon", "added customIcon", "deleted customIcon",
        ])
    }

    /// KeePass's `MaintainBackups` at the end of `MergeIn` trims every entry's history to the merged
    /// vault's limits, not only those the merge touched.
    @Test func everyHistoryTrimmed() throws {
        var base = MergeBase().vault
        for minute in 1...4 { base.edit("Jira", at: t(Int64(minute))) { $0.notes = "v\(minute)" } }
        base.meta.historyMaxItems = 2
        let result = try merge(base, base)
        #expect(result.vault.entry(titled: "Jira")?.history.map(\.notes) == ["v2", "v3"])
        #expect(kinds(result) == ["updated entry Work/Jira"])
    }

    /// The header's public custom data (a VariantDictionary) merges by name as in KeePass 2.48+: the
    /// side with the newer settings wins a name both have; names of one side only are kept.
    @Test func publicCustomDataByName() throws {
        func dictionary(_ items: [(String, String)]) -> [UInt8] {
            var out = VariantDictionary()
            for (name, value) in items { out[name] = .string(value) }
            return out.serialized()
        }
        let base = MergeBase().vault
        var local = base, remote = base
        local.format.publicCustomData = dictionary([("both", "L"), ("local", "L")])
        remote.format.publicCustomData = dictionary([("both", "R"), ("remote", "R")])
        let older = try VariantDictionary(parsing: try merge(local, remote).vault.format.publicCustomData[...])
        #expect(older.items.map(\.name) == ["both", "local", "remote"])
        #expect(older["both"] == .string("L"))
        remote.meta.settingsChanged = t(1)
        let newer = try VariantDictionary(parsing: try merge(local, remote).vault.format.publicCustomData[...])
        #expect(newer["both"] == .string("R"))
        #expect(newer["local"] == .string("L"))
        #expect(try merge(local, local).vault.format.publicCustomData == local.format.publicCustomData)
    }

    /// KeePass's `FixCustomIconRefs`: a group, entry or history item whose custom icon the merged
    /// vault does not hold loses the reference.
    @Test func danglingIconReferencesCleared() throws {
        var base = MergeBase().vault
        let missing = MergeBase.uuid(777)
        base.edit("Wiki", at: t(1)) { $0.customIconUUID = missing }
        base.edit("Wiki", at: t(2)) { $0.notes = "later" }
        try base.editGroup(base.groupUUID("Email"), now: t(1)) { $0.customIconUUID = missing }
        let merged = try merge(base, base).vault
        #expect(merged.entry(titled: "Wiki")?.customIconUUID == nil)
        #expect(merged.entry(titled: "Wiki")?.history.map(\.customIconUUID) == [nil, nil])
        #expect(merged.group(withUUID: base.groupUUID("Email"))?.customIconUUID == nil)
    }

    /// A vault below KDBX 4.1 keeps its version: custom data and icon times that the other copy
    /// carries (KeePassXC stamps them on load and writes them in 4.1) are not taken, the values are.
    @Test func timesTheLocalVersionCannotHoldAreNotTaken() throws {
        for version in [KDBXVersion.v3_1, .v4_0] {
            var local = MergeBase().vault
            local.format.version = version
            local.meta.customData = [CustomDataItem(key: "plugin.setting", value: "old")]
            local.meta.customIcons = [CustomIcon(uuid: MergeBase.uuid(600), data: [1])]
            var remote = local
            remote.format.version = .v4_1
            remote.meta.customData = [CustomDataItem(key: "plugin.setting", value: "new", lastModification: t(3)),
                                      CustomDataItem(key: "other", value: "x", lastModification: t(3))]
            remote.meta.customIcons = [CustomIcon(uuid: MergeBase.uuid(600), data: [2], lastModification: t(3))]
            let merged = try merge(local, remote).vault
            #expect(merged.meta.customData.map { "\($0.key)=\($0.value)" } == ["plugin.setting=new", "other=x"])
            #expect(merged.meta.customData.allSatisfy { $0.lastModification == nil })
            #expect(merged.meta.customIcons.map(\.data) == [[2]])
            #expect(merged.meta.customIcons.allSatisfy { $0.lastModification == nil })
            #expect(merged.minimumVersion == version)
            // A 4.1 vault takes them.
            local.format.version = .v4_1
            #expect(try merge(local, remote).vault.meta.customData.allSatisfy { $0.lastModification == t(3) })
        }
    }

    /// Two different states saved in the same second, one in each history: KeePass's union by time
    /// keeps one of them; we keep both (the local one first), and merging again changes nothing.
    @Test func sameSecondHistoryItemsBothKept() throws {
        let base = MergeBase().vault
        var local = base, remote = base
        local.edit("Bank", at: t(2)) { $0.notes = "local" }
        remote.edit("Bank", at: t(2)) { $0.notes = "remote" }
        local.edit("Bank", at: t(3)) { $0.userName = "local later" }
        remote.edit("Bank", at: t(4)) { $0.userName = "remote later" }
        let result = try merge(local, remote)
        let bank = try #require(result.vault.entry(titled: "Bank"))
        #expect(bank.userName == "remote later")
        #expect(bank.history.map(\.notes) == ["", "local", "remote", "local"])
        #expect(bank.history.map(\.userName) == ["bank", "bank", "bank", "local later"])
        let again = try merge(result.vault, remote)
        #expect(again.vault == result.vault)
        #expect(again.changes.isEmpty)
    }

    @Test func attachmentsSharedByContent() throws {
        let base = MergeBase().vault
        var local = base, remote = base
        let content = Array("shared content".utf8)
        local.edit("Bank", at: t(1)) { try! $0.addAttachment(named: "statement.pdf", data: content) }
        remote.edit("Shop", at: t(2)) { try! $0.addAttachment(named: "receipt.pdf", data: content) }
        let merged = try merge(local, remote).vault
        #expect(merged.entry(titled: "Bank")?.attachments.map(\.name) == ["statement.pdf"])
        #expect(merged.entry(titled: "Shop")?.attachments.map(\.name) == ["receipt.pdf"])
        #expect(BinaryPool(vault: merged).items.count == 1)
    }

    @Test func recycleBinSettingPointingAtADeletedGroup() throws {
        let base = MergeBase().vault
        let bin = base.groupUUID("Recycle Bin"), personal = base.groupUUID("Personal")
        // The remote side made Personal its recycle bin (newer setting); the local side deleted
        // Personal for good afterwards: the setting falls back to the local bin.
        var local = base, remote = base
        remote.meta.recycleBinUUID = personal
        remote.meta.recycleBinEnabled = true
        remote.meta.recycleBinChanged = t(1)
        try local.deleteGroup(personal, now: t(2))
        let result = try merge(local, remote)
        #expect(result.vault.group(withUUID: personal) == nil)
        #expect(result.vault.meta.recycleBinUUID == bin)
        #expect(result.vault.meta.recycleBinEnabled)
        // The remote side deleted the bin itself: no recycle bin is left.
        var emptied = base
        try emptied.deleteGroup(bin, now: t(2))
        let none = try merge(base, emptied)
        #expect(none.vault.group(withUUID: bin) == nil)
        #expect(none.vault.meta.recycleBinUUID == .zero)
        #expect(none.changes.map(\.note).last == "recycleBinUUID")
    }

    @Test func mergingTwiceChangesNothing() throws {
        let base = MergeBase().vault
        var local = base, remote = base
        local.edit("GitHub", at: t(1)) { $0.notes = "L" }
        remote.edit("GitHub", at: t(2)) { $0.notes = "R" }
        remote.edit("Mail", at: t(3)) { $0.userName = "new" }
        try remote.moveEntry(base.entryUUID("A"), to: remote.groupUUID("Personal"), now: t(4))
        try remote.deleteEntry(base.entryUUID("Shop"), now: t(5))
        _ = try remote.addGroup(named: "New", in: remote.groupUUID("Work"), now: t(6))
        try local.deleteGroup(base.groupUUID("Recycle Bin"), now: t(7))
        remote.meta.databaseName = "Renamed"
        remote.meta.databaseNameChanged = t(8)
        let first = try merge(local, remote)
        #expect(first.changedLocal)
        let second = try merge(first.vault, remote)
        #expect(second.vault == first.vault)
        #expect(second.changes.isEmpty)
        let itself = try merge(first.vault, first.vault)
        #expect(itself.vault == first.vault)
        #expect(itself.changes.isEmpty)
    }

    @Test func unrelatedVaultsKeepBothTrees() throws {
        let local = MergeBase().vault
        var remote = Vault.new(name: "Other", now: t(1))
        var entry = Entry()
        entry.title = "Foreign"
        try remote.addEntry(entry, to: remote.root.uuid, now: t(1))
        let result = try merge(local, remote)
        // KeePass: the remote root becomes a group of its own; its children go to the local root.
        #expect(result.vault.root.entries.map(\.title) == ["A", "B", "Foreign"])
        #expect(result.vault.root.groups.last?.name == "Other")
    }

    @Test func duplicateAndClashingUUIDsAreErrors() throws {
        let base = MergeBase().vault
        var twice = base
        let copy = try #require(base.entry(titled: "A"))
        twice.root.modifyGroup(withUUID: base.groupUUID("Work")) { $0.entries.append(copy) }
        #expect(throws: CoreError(.invalidOperation)) { try VaultMerge.merge(local: twice, remote: base) }
        #expect(throws: CoreError(.invalidOperation)) { try VaultMerge.merge(local: base, remote: twice) }
        var clash = base
        var group = Group(uuid: copy.uuid, name: "Clash")
        group.times = Times(all: t(1))
        clash.root.entries.removeFirst()
        clash.root.groups.append(group)
        do {
            _ = try VaultMerge.merge(local: base, remote: clash)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidOperation)
            #expect(error.location == copy.uuid.hexString)
        }
    }
}
