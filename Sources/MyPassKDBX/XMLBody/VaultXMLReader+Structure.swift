import MyPassXML

extension VaultXMLReader {
    /// Decides what the child element `name` of a `kind` container is.
    mutating func classify(_ kind: Kind, _ name: String) -> Action {
        Self.classify(kind, name, sawKeePassFile: sawKeePassFile, rootTaken: root != nil || !groupStack.isEmpty,
                      entryDepth: entryStack.count)
    }

    /// The table behind ``classify(_:_:)``, also used by the credential reader so that both agree
    /// on what is known, a leaf or unknown (which decides where protected values consume the inner
    /// random stream). `rootTaken`: the root group is open or was read; `entryDepth`: open entries
    /// (1 in a current entry, 2 in a history item).
    static func classify(_ kind: Kind, _ name: String, sawKeePassFile: Bool, rootTaken: Bool, entryDepth: Int) -> Action {
        switch kind {
        case .document:
            return name == "KeePassFile" && !sawKeePassFile ? .container(.keePassFile) : .unknown
        case .keePassFile:
            switch name {
            case "Meta": return .container(.meta)
            case "Root": return .container(.root)
            default: return .unknown
            }
        case .meta:
            switch name {
            case "MemoryProtection": return .container(.memoryProtection)
            case "CustomIcons": return .container(.customIcons)
            case "Binaries": return .container(.binaries)
            case "CustomData": return .container(.customData(.meta))
            case "Generator", "HeaderHash", "SettingsChanged", "DatabaseName", "DatabaseNameChanged",
                 "DatabaseDescription", "DatabaseDescriptionChanged", "DefaultUserName", "DefaultUserNameChanged",
                 "MaintenanceHistoryDays", "Color", "MasterKeyChanged", "MasterKeyChangeRec", "MasterKeyChangeForce",
                 "MasterKeyChangeForceOnce", "RecycleBinEnabled", "RecycleBinUUID", "RecycleBinChanged",
                 "EntryTemplatesGroup", "EntryTemplatesGroupChanged", "HistoryMaxItems", "HistoryMaxSize",
                 "LastSelectedGroup", "LastTopVisibleGroup":
                return .leaf
            default: return .unknown
            }
        case .memoryProtection:
            switch name {
            case "ProtectTitle", "ProtectUserName", "ProtectPassword", "ProtectURL", "ProtectNotes": return .leaf
            default: return .unknown
            }
        case .customIcons:
            return name == "Icon" ? .container(.icon) : .unknown
        case .icon:
            switch name {
            case "UUID", "Data", "Name", "LastModificationTime": return .leaf
            default: return .unknown
            }
        case .binaries:
            return name == "Binary" ? .leaf : .unknown
        case .customData(let owner):
            return name == "Item" ? .container(.item(owner)) : .unknown
        case .item:
            switch name {
            case "Key", "Value", "LastModificationTime": return .leaf
            default: return .unknown
            }
        case .root:
            switch name {
            case "Group": return !rootTaken ? .container(.group) : .unknown
            case "DeletedObjects": return .container(.deletedObjects)
            default: return .unknown
            }
        case .group:
            switch name {
            case "Times": return .container(.times)
            case "CustomData": return .container(.customData(.group))
            case "Entry": return .container(.entry)
            case "Group": return .container(.group)
            case "UUID", "Name", "Notes", "IconID", "CustomIconUUID", "IsExpanded", "DefaultAutoTypeSequence",
                 "EnableAutoType", "EnableSearching", "LastTopVisibleEntry", "PreviousParentGroup", "Tags":
                return .leaf
            default: return .unknown
            }
        case .times:
            switch name {
            case "CreationTime", "LastModificationTime", "LastAccessTime", "ExpiryTime", "Expires", "UsageCount",
                 "LocationChanged":
                return .leaf
            default: return .unknown
            }
        case .entry:
            switch name {
            case "Times": return .container(.times)
            case "String": return .container(.field)
            case "Binary": return .container(.attachment)
            case "AutoType": return .container(.autoType)
            case "CustomData": return .container(.customData(.entry))
            case "History": return entryDepth == 1 ? .container(.history) : .unknown
            case "UUID", "IconID", "CustomIconUUID", "ForegroundColor", "BackgroundColor", "OverrideURL",
                 "QualityCheck", "Tags", "PreviousParentGroup":
                return .leaf
            default: return .unknown
            }
        case .field, .attachment:
            return name == "Key" || name == "Value" ? .leaf : .unknown
        case .autoType:
            switch name {
            case "Association": return .container(.association)
            case "Enabled", "DataTransferObfuscation", "DefaultSequence": return .leaf
            default: return .unknown
            }
        case .association:
            return name == "Window" || name == "KeystrokeSequence" ? .leaf : .unknown
        case .history:
            return name == "Entry" ? .container(.entry) : .unknown
        case .deletedObjects:
            return name == "DeletedObject" ? .container(.deletedObject) : .unknown
        case .deletedObject:
            return name == "UUID" || name == "DeletionTime" ? .leaf : .unknown
        }
    }

    /// Prepares the object a container element fills.
    mutating func begin(_ kind: Kind, attributes: [XMLAttribute]) throws(KDBXError) {
        switch kind {
        case .keePassFile:
            sawKeePassFile = true
        case .group:
            try walk.enterGroup(openGroups: groupStack.count)
            groupStack.append(Group(uuid: .zero, name: "", iconID: 48, times: Times(all: fallbackTime)))
        case .entry:
            try walk.enterEntry(historyItemsSoFar: entryStack.count == 1 ? entryStack[0].history.count : nil)
            entryStack.append(Entry(uuid: .zero, times: Times(all: fallbackTime)))
        case .times:
            times = Times(all: fallbackTime)
        case .icon:
            icon = CustomIcon(uuid: .zero, data: [])
        case .item:
            item = CustomDataItem(key: "", value: "")
        case .field:
            fieldKey = nil
            fieldValue = nil
            fieldUnknown = []
        case .attachment:
            attachmentName = nil
            attachmentContent = nil
            attachmentUnknown = []
        case .association:
            association = AutoTypeAssociation(window: "", sequence: "")
        case .deletedObject:
            deletedObject = DeletedObject(uuid: .zero, deletionTime: fallbackTime)
        case .document, .meta, .memoryProtection, .customIcons, .binaries, .customData, .root, .autoType, .history,
             .deletedObjects:
            break
        }
    }

    /// Stores the object a container element filled into its parent.
    mutating func end(_ frame: Frame) throws(KDBXError) {
        switch frame.kind {
        case .group:
            var group = groupStack.removeLast()
            if !frame.sawUUID { group.uuid = .random() }
            if groupStack.isEmpty {
                root = group
            } else {
                groupStack[groupStack.count - 1].groups.append(group)
            }
        case .entry:
            var entry = entryStack.removeLast()
            if !frame.sawUUID { entry.uuid = .random() }
            if entryStack.isEmpty {
                groupStack[groupStack.count - 1].entries.append(entry)
            } else {
                entryStack[entryStack.count - 1].history.append(entry)
            }
        case .times:
            if case .entry = frames[frames.count - 1].kind {
                entryStack[entryStack.count - 1].times = times
            } else {
                groupStack[groupStack.count - 1].times = times
            }
        case .icon:
            if !frame.sawUUID { icon.uuid = .random() }
            meta.customIcons.append(icon)
        case .item(let owner):
            switch owner {
            case .meta: meta.customData.append(item)
            case .group: groupStack[groupStack.count - 1].customData.append(item)
            case .entry: entryStack[entryStack.count - 1].customData.append(item)
            }
        case .field:
            guard let key = fieldKey else { return }  // A String without Key carries nothing.
            var field = fieldValue ?? EntryField(key: key, value: "")
            field.key = key
            field.unknownElements = fieldUnknown
            let e = entryStack.count - 1
            if let index = entryStack[e].fields.firstIndex(where: { $0.key == key }) {
                entryStack[e].fields[index] = field  // KeePass: the last value for a key wins.
            } else {
                guard entryStack[e].fields.count < limits.maxFieldsPerEntry else {
                    throw limit("an entry has more than \(limits.maxFieldsPerEntry) fields")
                }
                entryStack[e].fields.append(field)
            }
        case .attachment:
            // A reference to a missing pool binary drops the attachment, not the entry.
            guard let name = attachmentName, let content = attachmentContent else { return }
            var attachment = Attachment(name: name, data: content.data, isProtected: content.isProtected)
            attachment.unknownElements = attachmentUnknown
            let e = entryStack.count - 1
            if let index = entryStack[e].attachments.firstIndex(where: { $0.name == name }) {
                entryStack[e].attachments[index] = attachment
            } else {
                guard entryStack[e].attachments.count < limits.maxAttachmentsPerEntry else {
                    throw limit("an entry has more than \(limits.maxAttachmentsPerEntry) attachments")
                }
                entryStack[e].attachments.append(attachment)
            }
        case .association:
            entryStack[entryStack.count - 1].autoType.associations.append(association)
        case .deletedObject:
            deletedObjects.append(deletedObject)
        case .document, .keePassFile, .meta, .memoryProtection, .customIcons, .binaries, .customData, .root,
             .autoType, .history, .deletedObjects:
            break
        }
    }
}
