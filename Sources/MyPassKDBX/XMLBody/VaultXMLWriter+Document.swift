import MyPassBytes
import MyPassXML

extension BodyWriter {
    mutating func writeDocument(_ vault: Vault, headerHash: [UInt8]?) {
        xml.writeDeclaration()
        open("KeePassFile", unknowns: vault.unknownElements)
        writeMeta(vault.meta, headerHash: headerHash)
        open("Root", unknowns: vault.rootUnknownElements.inContainer(nil))
        writeGroup(vault.root)
        open("DeletedObjects", unknowns: vault.rootUnknownElements.inContainer("DeletedObjects"))
        for deleted in vault.deletedObjects {
            open("DeletedObject", unknowns: deleted.unknownElements)
            leaf("UUID", deleted.uuid)
            leaf("DeletionTime", deleted.deletionTime)
            close("DeletedObject")
        }
        close("DeletedObjects")
        close("Root")
        close("KeePassFile")
    }

    mutating func writeMeta(_ meta: Meta, headerHash: [UInt8]?) {
        open("Meta", unknowns: meta.unknownElements.inContainer(nil))
        // A KDBX file names the program that wrote it, as KeePass ("KeePass") and KeePassXC
        // ("KeePassXC") do; the plain export keeps the name as read.
        leaf("Generator", mode.plain ? meta.generator : Meta.writerName)
        if let headerHash, !mode.version.isKDBX4 { leaf("HeaderHash", Base64.encode(headerHash)) }
        if mode.version.isKDBX4 { leaf("SettingsChanged", meta.settingsChanged ?? meta.databaseNameChanged) }
        leaf("DatabaseName", meta.databaseName)
        leaf("DatabaseNameChanged", meta.databaseNameChanged)
        leaf("DatabaseDescription", meta.databaseDescription)
        leaf("DatabaseDescriptionChanged", meta.databaseDescriptionChanged)
        leaf("DefaultUserName", meta.defaultUserName)
        leaf("DefaultUserNameChanged", meta.defaultUserNameChanged)
        leaf("MaintenanceHistoryDays", meta.maintenanceHistoryDays)
        leaf("Color", meta.color)
        leaf("MasterKeyChanged", meta.masterKeyChanged)
        leaf("MasterKeyChangeRec", meta.masterKeyChangeRec)
        leaf("MasterKeyChangeForce", meta.masterKeyChangeForce)
        if meta.masterKeyChangeForceOnce { leaf("MasterKeyChangeForceOnce", true) }

        let protection = meta.memoryProtection
        open("MemoryProtection", unknowns: protection.unknownElements)
        leaf("ProtectTitle", protection.protectTitle)
        leaf("ProtectUserName", protection.protectUserName)
        leaf("ProtectPassword", protection.protectPassword)
        leaf("ProtectURL", protection.protectURL)
        leaf("ProtectNotes", protection.protectNotes)
        close("MemoryProtection")

        open("CustomIcons", unknowns: meta.unknownElements.inContainer("CustomIcons"))
        for icon in meta.customIcons {
            open("Icon", unknowns: icon.unknownElements)
            leaf("UUID", icon.uuid)
            leaf("Data", Base64.encode(icon.data))
            if mode.is41 {
                if !icon.name.isEmpty { leaf("Name", icon.name) }
                if let time = icon.lastModification { leaf("LastModificationTime", time) }
            }
            close("Icon")
        }
        close("CustomIcons")

        leaf("RecycleBinEnabled", meta.recycleBinEnabled)
        leaf("RecycleBinUUID", meta.recycleBinUUID)
        leaf("RecycleBinChanged", meta.recycleBinChanged)
        leaf("EntryTemplatesGroup", meta.entryTemplatesGroup)
        leaf("EntryTemplatesGroupChanged", meta.entryTemplatesGroupChanged)
        leaf("HistoryMaxItems", meta.historyMaxItems)
        leaf("HistoryMaxSize", meta.historyMaxSize)
        leaf("LastSelectedGroup", meta.lastSelectedGroup)
        leaf("LastTopVisibleGroup", meta.lastTopVisibleGroup)
        if mode.poolInMeta { writeBinaryPool(unknowns: meta.unknownElements.inContainer("Binaries")) }
        writeCustomData(meta.customData, always: true, unknowns: meta.unknownElements.inContainer("CustomData"))
        close("Meta")
    }

    /// `Meta/Binaries` (KDBX 3.x and the plain export): protected items XORed with the stream (never
    /// compressed), others gzip-compressed when the vault is (`KdbxFile.Write.cs WriteBinPool`).
    mutating func writeBinaryPool(unknowns: [UnknownElement] = []) {
        open("Binaries", unknowns: unknowns)
        for (index, item) in pool.items.enumerated() {
            var attributes = [XMLAttribute("ID", String(index))]
            var bytes = item.data
            if item.isProtected && !mode.plain {
                attributes.append(XMLAttribute("Protected", "True"))
                stream.apply(to: &bytes)
            } else if mode.compressPool {
                attributes.append(XMLAttribute("Compressed", "True"))
                if !bytes.isEmpty { bytes = GzipBridge.compress(bytes) }
            }
            if bytes.isEmpty {
                empty("Binary", attributes: attributes)
            } else {
                leaf("Binary", Base64.encode(bytes), attributes: attributes)
            }
        }
        close("Binaries")
    }

    /// `CustomData`; group and entry custom data are written only when not empty (items or
    /// unknown children).
    mutating func writeCustomData(_ items: [CustomDataItem], always: Bool, unknowns: [UnknownElement]) {
        guard always || !items.isEmpty || !unknowns.isEmpty else { return }
        open("CustomData", unknowns: unknowns)
        for item in items {
            open("Item", unknowns: item.unknownElements)
            leaf("Key", item.key)
            leaf("Value", item.value)
            if mode.is41, let time = item.lastModification { leaf("LastModificationTime", time) }
            close("Item")
        }
        close("CustomData")
    }

    mutating func writeTimes(_ times: Times) {
        open("Times", unknowns: times.unknownElements)
        leaf("CreationTime", times.creation)
        leaf("LastModificationTime", times.lastModification)
        leaf("LastAccessTime", times.lastAccess)
        leaf("ExpiryTime", times.expiry)
        leaf("Expires", times.expires)
        leaf("UsageCount", times.usageCount)
        leaf("LocationChanged", times.locationChanged)
        close("Times")
    }

    /// A group, its entries, then its subgroups (KeePass `PreOrderTraverseTree` order).
    mutating func writeGroup(_ group: Group) {
        open("Group", unknowns: group.unknownElements.inContainer(nil))
        leaf("UUID", group.uuid)
        leaf("Name", group.name)
        leaf("Notes", group.notes)
        leaf("IconID", group.iconID)
        if let icon = group.customIconUUID, !icon.isZero { leaf("CustomIconUUID", icon) }
        writeTimes(group.times)
        leaf("IsExpanded", group.isExpanded)
        leaf("DefaultAutoTypeSequence", group.defaultAutoTypeSequence)
        leaf("EnableAutoType", XMLValues.tristateText(group.enableAutoType))
        leaf("EnableSearching", XMLValues.tristateText(group.enableSearching))
        leaf("LastTopVisibleEntry", group.lastTopVisibleEntry)
        if mode.is41 {
            if let previous = group.previousParentGroup, !previous.isZero { leaf("PreviousParentGroup", previous) }
            if !group.tags.isEmpty { leaf("Tags", Entry.joinTags(group.tags, separator: group.tagSeparator)) }
        }
        writeCustomData(group.customData, always: false, unknowns: group.unknownElements.inContainer("CustomData"))
        for entry in group.entries { writeEntry(entry, isHistory: false) }
        for child in group.groups { writeGroup(child) }
        close("Group")
    }

    mutating func writeEntry(_ entry: Entry, isHistory: Bool) {
        open("Entry", unknowns: entry.unknownElements.inContainer(nil))
        leaf("UUID", entry.uuid)
        leaf("IconID", entry.iconID)
        if let icon = entry.customIconUUID, !icon.isZero { leaf("CustomIconUUID", icon) }
        leaf("ForegroundColor", entry.foregroundColor)
        leaf("BackgroundColor", entry.backgroundColor)
        leaf("OverrideURL", entry.overrideURL)
        if mode.is41 && !entry.qualityCheck { leaf("QualityCheck", false) }
        leaf("Tags", Entry.joinTags(entry.tags, separator: entry.tagSeparator))
        if mode.is41, let previous = entry.previousParentGroup, !previous.isZero {
            leaf("PreviousParentGroup", previous)
        }
        writeTimes(entry.times)
        for field in entry.fields { writeField(field) }
        for attachment in entry.attachments { writeAttachment(attachment) }
        writeAutoType(entry.autoType)
        writeCustomData(entry.customData, always: false, unknowns: entry.unknownElements.inContainer("CustomData"))
        if !isHistory {
            open("History", unknowns: entry.unknownElements.inContainer("History"))
            for item in entry.history { writeEntry(item, isHistory: true) }
            close("History")
        }
        close("Entry")
    }

    mutating func writeField(_ field: EntryField) {
        open("String", unknowns: field.unknownElements)
        leaf("Key", field.key)
        if field.isProtected {
            if mode.plain {
                leaf("Value", field.value, attributes: [XMLAttribute("ProtectInMemory", "True")])
            } else {
                var bytes = field.withUTF8Bytes { Array($0) }
                stream.apply(to: &bytes)
                let attributes = [XMLAttribute("Protected", "True")]
                if bytes.isEmpty {
                    empty("Value", attributes: attributes)
                } else {
                    leaf("Value", Base64.encode(bytes), attributes: attributes)
                }
                wipe(&bytes)
            }
        } else {
            leaf("Value", field.value)
        }
        close("String")
    }

    mutating func writeAttachment(_ attachment: Attachment) {
        open("Binary", unknowns: attachment.unknownElements)
        leaf("Key", attachment.name)
        if let reference = pool.reference(for: attachment) {
            empty("Value", attributes: [XMLAttribute("Ref", String(reference))])
        } else {
            // Not in the pool (a pool built for another vault): written inline, as KeePass reads it.
            var bytes = attachment.data
            var attributes: [XMLAttribute] = []
            if attachment.isProtected && !mode.plain {
                attributes.append(XMLAttribute("Protected", "True"))
                stream.apply(to: &bytes)
            }
            leaf("Value", Base64.encode(bytes), attributes: attributes)
        }
        close("Binary")
    }

    mutating func writeAutoType(_ autoType: AutoType) {
        open("AutoType", unknowns: autoType.unknownElements)
        leaf("Enabled", autoType.isEnabled)
        leaf("DataTransferObfuscation", autoType.obfuscation)
        if !autoType.defaultSequence.isEmpty { leaf("DefaultSequence", autoType.defaultSequence) }
        for association in autoType.associations {
            open("Association", unknowns: association.unknownElements)
            leaf("Window", association.window)
            leaf("KeystrokeSequence", association.sequence)
            close("Association")
        }
        close("AutoType")
    }
}
