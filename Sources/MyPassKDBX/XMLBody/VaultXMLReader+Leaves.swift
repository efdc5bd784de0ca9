import MyPassBytes
import MyPassCrypto
import MyPassXML

extension VaultXMLReader {
    /// Applies a finished leaf element to the object being read.
    mutating func applyLeaf(_ leaf: Leaf, _ stream: inout some ProtectedValueStream) throws(KDBXError) {
        let text = leaf.text
        let top = frames.count - 1
        switch frames[top].kind {
        case .meta: try applyMeta(leaf.name, text)
        case .memoryProtection: applyMemoryProtection(leaf.name, text)
        case .icon:
            switch leaf.name {
            case "UUID":
                icon.uuid = XMLValues.identity(text)
                frames[top].sawUUID = true
            case "Data": icon.data = try base64(text, what: "custom icon data")
            case "Name": icon.name = text
            case "LastModificationTime": icon.lastModification = XMLValues.time(text) ?? fallbackTime
            default: break
            }
        case .binaries:
            try readPoolBinary(leaf, &stream)
        case .item:
            switch leaf.name {
            case "Key": item.key = text
            case "Value": item.value = text
            case "LastModificationTime": item.lastModification = XMLValues.time(text) ?? fallbackTime
            default: break
            }
        case .group:
            if leaf.name == "UUID" { frames[top].sawUUID = true }
            Self.applyGroup(leaf.name, text, &groupStack[groupStack.count - 1])
            if leaf.name == "Tags" { groupStack[groupStack.count - 1].tagSeparator = noteTagSeparator(text) }
        case .times: applyTimes(leaf.name, text)
        case .entry:
            if leaf.name == "UUID" { frames[top].sawUUID = true }
            Self.applyEntry(leaf.name, text, &entryStack[entryStack.count - 1])
            if leaf.name == "Tags" { entryStack[entryStack.count - 1].tagSeparator = noteTagSeparator(text) }
        case .field:
            if leaf.name == "Key" {
                fieldKey = text
            } else {
                fieldValue = try readFieldValue(leaf, &stream)
            }
        case .attachment:
            if leaf.name == "Key" {
                attachmentName = text
            } else {
                attachmentContent = try readAttachmentValue(leaf, &stream)
            }
        case .autoType:
            let e = entryStack.count - 1
            switch leaf.name {
            case "Enabled": entryStack[e].autoType.isEnabled = XMLValues.bool(text, default: true)
            case "DataTransferObfuscation": entryStack[e].autoType.obfuscation = XMLValues.int(text, default: 0)
            case "DefaultSequence": entryStack[e].autoType.defaultSequence = text
            default: break
            }
        case .association:
            if leaf.name == "Window" { association.window = text } else { association.sequence = text }
        case .deletedObject:
            if leaf.name == "UUID" {
                deletedObject.uuid = XMLValues.uuidOrZero(text)
            } else {
                deletedObject.deletionTime = XMLValues.time(text) ?? fallbackTime
            }
        case .document, .keePassFile, .customIcons, .customData, .root, .history, .deletedObjects:
            break
        }
    }

    mutating func time(_ text: String) -> KDBXTime { XMLValues.time(text) ?? fallbackTime }

    mutating func base64(_ text: String, what: String) throws(KDBXError) -> [UInt8] {
        do { return try Base64.decode(text) } catch { throw corrupted("\(what) is not valid base64") }
    }

    mutating func applyMeta(_ name: String, _ text: String) throws(KDBXError) {
        switch name {
        case "Generator": meta.generator = text
        case "HeaderHash": headerHash = try base64(text, what: "HeaderHash")
        case "SettingsChanged": meta.settingsChanged = time(text)
        case "DatabaseName": meta.databaseName = text
        case "DatabaseNameChanged": meta.databaseNameChanged = time(text)
        case "DatabaseDescription": meta.databaseDescription = text
        case "DatabaseDescriptionChanged": meta.databaseDescriptionChanged = time(text)
        case "DefaultUserName": meta.defaultUserName = text
        case "DefaultUserNameChanged": meta.defaultUserNameChanged = time(text)
        case "MaintenanceHistoryDays": meta.maintenanceHistoryDays = XMLValues.int(text, default: 365)
        case "Color": meta.color = text
        case "MasterKeyChanged": meta.masterKeyChanged = time(text)
        case "MasterKeyChangeRec": meta.masterKeyChangeRec = XMLValues.int64(text, default: -1)
        case "MasterKeyChangeForce": meta.masterKeyChangeForce = XMLValues.int64(text, default: -1)
        case "MasterKeyChangeForceOnce": meta.masterKeyChangeForceOnce = XMLValues.bool(text, default: false)
        case "RecycleBinEnabled": meta.recycleBinEnabled = XMLValues.bool(text, default: true)
        case "RecycleBinUUID": meta.recycleBinUUID = XMLValues.uuidOrZero(text)
        case "RecycleBinChanged": meta.recycleBinChanged = time(text)
        case "EntryTemplatesGroup": meta.entryTemplatesGroup = XMLValues.uuidOrZero(text)
        case "EntryTemplatesGroupChanged": meta.entryTemplatesGroupChanged = time(text)
        case "HistoryMaxItems": meta.historyMaxItems = XMLValues.int(text, default: 10)
        case "HistoryMaxSize": meta.historyMaxSize = XMLValues.int64(text, default: 6 * 1024 * 1024)
        case "LastSelectedGroup": meta.lastSelectedGroup = XMLValues.uuidOrZero(text)
        case "LastTopVisibleGroup": meta.lastTopVisibleGroup = XMLValues.uuidOrZero(text)
        default: break
        }
    }

    mutating func applyMemoryProtection(_ name: String, _ text: String) {
        switch name {
        case "ProtectTitle": meta.memoryProtection.protectTitle = XMLValues.bool(text, default: false)
        case "ProtectUserName": meta.memoryProtection.protectUserName = XMLValues.bool(text, default: false)
        case "ProtectPassword": meta.memoryProtection.protectPassword = XMLValues.bool(text, default: true)
        case "ProtectURL": meta.memoryProtection.protectURL = XMLValues.bool(text, default: false)
        case "ProtectNotes": meta.memoryProtection.protectNotes = XMLValues.bool(text, default: false)
        default: break
        }
    }

    // Static, so that writing into an element of `groupStack`/`entryStack` does not make Swift copy
    // the whole reader to call a method on it (an overlapping access to `self`).
    /// The separator of a `Tags` value, remembering the file's first one for values without any.
    mutating func noteTagSeparator(_ text: String) -> Character {
        guard let separator = Entry.tagSeparator(in: text) else { return fileTagSeparator }
        if !sawTagSeparator {
            sawTagSeparator = true
            fileTagSeparator = separator
        }
        return separator
    }

    static func applyGroup(_ name: String, _ text: String, _ group: inout Group) {
        switch name {
        case "UUID": group.uuid = XMLValues.identity(text)
        case "Name": group.name = text
        case "Notes": group.notes = text
        case "IconID": group.iconID = XMLValues.int(text, default: 48)
        case "CustomIconUUID": group.customIconUUID = XMLValues.uuidReference(text)
        case "IsExpanded": group.isExpanded = XMLValues.bool(text, default: true)
        case "DefaultAutoTypeSequence": group.defaultAutoTypeSequence = text
        case "EnableAutoType": group.enableAutoType = XMLValues.tristate(text)
        case "EnableSearching": group.enableSearching = XMLValues.tristate(text)
        case "LastTopVisibleEntry": group.lastTopVisibleEntry = XMLValues.uuidOrZero(text)
        case "PreviousParentGroup": group.previousParentGroup = XMLValues.uuidReference(text)
        case "Tags":
            group.tags = Entry.parseTags(text)
        default: break
        }
    }

    static func applyEntry(_ name: String, _ text: String, _ entry: inout Entry) {
        switch name {
        case "UUID": entry.uuid = XMLValues.identity(text)
        case "IconID": entry.iconID = XMLValues.int(text, default: 0)
        case "CustomIconUUID": entry.customIconUUID = XMLValues.uuidReference(text)
        case "ForegroundColor": entry.foregroundColor = text
        case "BackgroundColor": entry.backgroundColor = text
        case "OverrideURL": entry.overrideURL = text
        case "QualityCheck": entry.qualityCheck = XMLValues.bool(text, default: true)
        case "Tags":
            entry.tags = Entry.parseTags(text)
        case "PreviousParentGroup": entry.previousParentGroup = XMLValues.uuidReference(text)
        default: break
        }
    }

    mutating func applyTimes(_ name: String, _ text: String) {
        switch name {
        case "CreationTime": times.creation = time(text)
        case "LastModificationTime": times.lastModification = time(text)
        case "LastAccessTime": times.lastAccess = time(text)
        case "ExpiryTime": times.expiry = time(text)
        case "Expires": times.expires = XMLValues.bool(text, default: false)
        case "UsageCount": times.usageCount = XMLValues.uint64(text, default: 0)
        case "LocationChanged": times.locationChanged = time(text)
        default: break
        }
    }

    /// A `String/Value`: `Protected="True"` is base64 of the value XORed with the inner stream;
    /// `ProtectInMemory="True"` (plain XML export) is a clear value that is protected.
    mutating func readFieldValue(_ leaf: Leaf, _ stream: inout some ProtectedValueStream) throws(KDBXError) -> EntryField {
        if XMLValues.flag(leaf.attributes, "Protected") {
            var bytes = try base64(leaf.text, what: "a protected value")
            stream.apply(to: &bytes)
            defer { wipe(&bytes) }
            return EntryField(key: "", protectedValue: protectedString(bytes))
        }
        return EntryField(key: "", value: leaf.text, isProtected: XMLValues.flag(leaf.attributes, "ProtectInMemory"))
    }

    /// A protected string from clear UTF-8 bytes, masked with the next pad of this read's
    /// keystream (``pads``).
    func protectedString(_ bytes: [UInt8]) -> ProtectedString {
        var source = pads
        return bytes.withUnsafeBytes { ProtectedString(utf8: $0, pads: &source) }
    }

    /// A `Binary/Value`: a `Ref` into the pool (inner text ignored, as KeePass), or inline base64,
    /// XORed when `Protected="True"`, else gunzipped when `Compressed="True"` (within what is left
    /// of the document's inflation budget, `limits.maxBinaryBytes`). `nil` when the
    /// reference is missing from the pool.
    mutating func readAttachmentValue(_ leaf: Leaf, _ stream: inout some ProtectedValueStream) throws(KDBXError) -> BinaryPoolItem? {
        if let ref = XMLValues.attribute(leaf.attributes, "Ref") {
            guard let index = Int(XMLValues.trimmed(ref)) else { return nil }
            return pool[index]
        }
        return try decodeBinary(leaf, &stream)
    }

    /// Decodes an inline or pool binary value.
    mutating func decodeBinary(_ leaf: Leaf, _ stream: inout some ProtectedValueStream) throws(KDBXError) -> BinaryPoolItem {
        var bytes = try base64(leaf.text, what: "binary data")
        // Protected or not, no binary is larger than the limit.
        guard bytes.count <= limits.maxBinaryBytes else {
            wipe(&bytes)
            throw limit("a binary is larger than the limit")
        }
        if XMLValues.flag(leaf.attributes, "Protected") {
            stream.apply(to: &bytes)
            return BinaryPoolItem(data: bytes, isProtected: true)
        }
        if XMLValues.flag(leaf.attributes, "Compressed"), !bytes.isEmpty {
            let budget = limits.maxBinaryBytes - inflatedBinaryBytes
            bytes = try GzipBridge.decompress(bytes, maxOutputBytes: budget, location: walk.location)
            inflatedBinaryBytes += bytes.count
        }
        return BinaryPoolItem(data: bytes, isProtected: false)
    }

    /// A KDBX 3.x `Meta/Binaries/Binary ID="n"`.
    mutating func readPoolBinary(_ leaf: Leaf, _ stream: inout some ProtectedValueStream) throws(KDBXError) {
        let item = try decodeBinary(leaf, &stream)
        guard let idText = XMLValues.attribute(leaf.attributes, "ID"), let id = Int(XMLValues.trimmed(idText)) else {
            return  // No usable ID: nothing can refer to it (its stream bytes were consumed above).
        }
        pool[id] = item
    }

}
