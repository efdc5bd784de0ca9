import MyPassBytes
import MyPassXML

/// Reads a decrypted, decompressed XML body (`<KeePassFile>`) into a ``CredentialSkim``, push
/// style like ``VaultXMLReader``, keeping only the group tree and, for current entries, the
/// selected string fields and the few leaves AutoFill shows.
///
/// It classifies every element with the full reader's own table (``VaultXMLReader/classify(_:_:sawKeePassFile:rootTaken:entryDepth:)``),
/// so both agree on which protected values consume the inner random stream, and in which order:
/// `String/Value`, 3.x `Meta/Binaries/Binary`, inline `Binary/Value` (not a `Ref`), and in
/// unknown subtrees the first `Protected="True"` element on each path, pre-order. Skipped
/// protected values advance the stream by their decoded length without being decoded; skipped
/// base64 (binaries, custom icons) is checked with the same grammar and counted, never kept.
///
/// Not done, unlike the full reader: `Compressed="True"` 3.x binaries are not inflated (their
/// gzip is not checked); attachment counts per entry are not limited (nothing is kept).
package struct CredentialXMLReader {
    typealias Kind = VaultXMLReader.Kind

    private struct Frame {
        var kind: Kind
        var sawUUID = false
    }

    /// What a leaf's text is for.
    private enum LeafMode {
        /// Collected and applied.
        case text
        /// A protected value whose content is not kept: counted, then the stream advances.
        case consume
        /// Base64 that is checked and counted, not kept.
        case check
        /// Not needed.
        case ignore
    }

    private struct Leaf {
        var name: String
        var attributes: [XMLAttribute]
        var mode: LeafMode
        var text = ""
        var counter = Base64Counter()
        var skipDepth = 0
    }

    /// An unknown subtree being skipped.
    private struct Unknown {
        var depth = 1
        /// Depth of the protected element whose direct text is being counted.
        var protectedDepth: Int?
        var counter = Base64Counter()
    }

    private let limits: VaultXMLLimits
    private let selection: CredentialSkim.FieldSelection
    /// The tokenizer, its errors and the document's counts (shared with ``VaultXMLReader``).
    private var walk: XMLBodyWalk
    private var frames: [Frame] = [Frame(kind: .document)]
    private var leaf: Leaf?
    private var unknown: Unknown?
    private var sawKeePassFile = false
    private var rootTaken = false
    /// Open groups: their index in `skim.groups` and a scratch model value for their leaves.
    private var groupStack: [(index: Int, scratch: Group)] = []
    private var entryDepth = 0
    private var entry = Entry(uuid: .zero)
    private var entryFields: [CredentialSkim.Field] = []
    private var entryKeys: [Set<String>] = []
    private var historyItems = 0
    private var fieldKey: String?
    private var fieldValue: (isSecret: Bool, range: CredentialArena.Range)?
    private var skim = CredentialSkim()
    /// `Meta/HeaderHash` (KDBX 3.x), for the container to compare.
    package private(set) var headerHash: [UInt8]?

    /// The most memory the kept tables may take at their peak, in bytes (`nil`: no bound).
    private let maxKeptBytes: Int?

    /// A reader keeping the fields `selection` names, bounded by `limits` and, when given, by
    /// `maxKeptBytes` (see ``CredentialSkim/peakBytes(addingRecords:fields:tags:arenaBytes:)``).
    package init(selection: CredentialSkim.FieldSelection, limits: VaultXMLLimits = VaultXMLLimits(), maxKeptBytes: Int? = nil) {
        self.limits = limits
        self.maxKeptBytes = maxKeptBytes
        self.selection = selection
        walk = XMLBodyWalk(limits: limits)
    }

    /// Parses the next chunk (any size; chunks may split anything).
    /// - Parameter stream: the inner random stream, consumed in document order.
    /// - Throws: ``KDBXError`` `.corruptedFile` (malformed XML, a protected value or binary that is
    ///   not base64), `.limitExceeded`.
    package mutating func feed(_ chunk: ArraySlice<UInt8>, stream: inout some ProtectedValueStream) throws(KDBXError) {
        walk.feed(chunk)
        try drain(&stream)
    }

    /// Ends the input and returns what was kept, records in the full model's order.
    /// - Throws: ``KDBXError`` `.corruptedFile` when the document is incomplete or not a `KeePassFile`.
    package mutating func finish(stream: inout some ProtectedValueStream) throws(KDBXError) -> CredentialSkim {
        walk.finish()
        try drain(&stream)
        guard sawKeePassFile, frames.count == 1 else {
            throw corrupted("the XML body is not a complete KeePassFile document")
        }
        if skim.groups.isEmpty {
            skim.groups.append(CredentialSkim.Group(uuid: .random(), name: "", parent: nil, enableSearching: nil))
        }
        // The model lists a group's entries before its subgroups' (pre-order); the document may
        // interleave them. Groups are numbered in pre-order, so a stable sort by group restores it.
        var order = Array(skim.records.indices)
        order.sort { (a, b) in
            let ga = skim.records[a].group, gb = skim.records[b].group
            return ga != gb ? ga < gb : a < b
        }
        if order != Array(skim.records.indices) { skim.records = order.map { skim.records[$0] } }
        return skim
    }

    private mutating func drain(_ stream: inout some ProtectedValueStream) throws(KDBXError) {
        while let event = try walk.next() { try handle(event, &stream) }
    }

    private mutating func corrupted(_ reason: String) -> KDBXError { walk.corrupted(reason) }

    // MARK: Events

    private mutating func handle(_ event: XMLEvent, _ stream: inout some ProtectedValueStream) throws(KDBXError) {
        if unknown != nil {
            try handleUnknown(event, &stream)
            return
        }
        if leaf != nil {
            switch event {
            case .startElement:
                leaf!.skipDepth += 1
            case .endElement:
                if leaf!.skipDepth > 0 {
                    leaf!.skipDepth -= 1
                } else {
                    let finished = leaf!
                    leaf = nil
                    try applyLeaf(finished, &stream)
                }
            case .text(let text), .cdata(let text):
                guard leaf!.skipDepth == 0 else { break }
                switch leaf!.mode {
                case .text: leaf!.text += text
                case .consume, .check: leaf!.counter.feed(text)
                case .ignore: break
                }
            case .comment, .processingInstruction:
                break
            }
            return
        }
        switch event {
        case .startElement(let name, let attributes):
            let kind = frames[frames.count - 1].kind
            switch VaultXMLReader.classify(kind, name, sawKeePassFile: sawKeePassFile, rootTaken: rootTaken,
                                           entryDepth: entryDepth) {
            case .leaf:
                leaf = Leaf(name: name, attributes: attributes, mode: leafMode(kind, name, attributes))
            case .container(let child):
                try begin(child)
                frames.append(Frame(kind: child))
            case .unknown:
                skim.skipped.unknownElements += 1
                unknown = Unknown()
                if XMLValues.flag(attributes, "Protected") { unknown!.protectedDepth = 1 }
            }
        case .endElement:
            let frame = frames.removeLast()
            try end(frame)
        case .text, .cdata, .comment, .processingInstruction:
            break
        }
    }

    /// An unknown subtree: only its protected values matter, for the stream (pre-order, the
    /// protected element's own text, nothing below it), as the full reader's `unmaskProtected`.
    private mutating func handleUnknown(_ event: XMLEvent, _ stream: inout some ProtectedValueStream) throws(KDBXError) {
        switch event {
        case .startElement(_, let attributes):
            unknown!.depth += 1
            if unknown!.protectedDepth == nil, XMLValues.flag(attributes, "Protected") {
                unknown!.protectedDepth = unknown!.depth
                unknown!.counter = Base64Counter()
            }
        case .endElement:
            if unknown!.protectedDepth == unknown!.depth {
                guard let count = unknown!.counter.byteCount else { throw corrupted("a protected value is not base64") }
                stream.advance(by: count)
                unknown!.protectedDepth = nil
            }
            unknown!.depth -= 1
            if unknown!.depth == 0 { unknown = nil }
        case .text(let text), .cdata(let text):
            if unknown!.protectedDepth == unknown!.depth { unknown!.counter.feed(text) }
        case .comment, .processingInstruction:
            break
        }
    }

    private mutating func leafMode(_ kind: Kind, _ name: String, _ attributes: [XMLAttribute]) -> LeafMode {
        let isProtected = XMLValues.flag(attributes, "Protected")
        switch kind {
        case .meta:
            return name == "RecycleBinUUID" || name == "HeaderHash" ? .text : .ignore
        case .binaries:
            return isProtected ? .consume : .check
        case .icon:
            return name == "Data" ? .check : .ignore
        case .group:
            return name == "UUID" || name == "Name" || name == "EnableSearching" ? .text : .ignore
        case .entry:
            guard entryDepth == 1 else { return .ignore }
            switch name {
            case "UUID", "IconID", "CustomIconUUID", "OverrideURL", "Tags": return .text
            default: return .ignore
            }
        case .field:
            if name == "Key" { return .text }
            let kept = entryDepth == 1 && (fieldKey.map(selection.keeps) ?? true)
            if kept { return .text }
            return isProtected ? .consume : .ignore
        case .attachment:
            guard name == "Value", XMLValues.attribute(attributes, "Ref") == nil else { return .ignore }
            return isProtected ? .consume : .check
        default:
            return .ignore
        }
    }

    private mutating func applyLeaf(_ leaf: Leaf, _ stream: inout some ProtectedValueStream) throws(KDBXError) {
        let top = frames.count - 1
        switch leaf.mode {
        case .ignore:
            return
        case .consume, .check:
            guard let count = leaf.counter.byteCount else {
                throw corrupted(leaf.mode == .consume ? "a protected value is not base64" : "a binary is not valid base64")
            }
            if leaf.mode == .consume { stream.advance(by: count) }
            switch frames[top].kind {
            case .icon: skim.skipped.customIconCharacters += count
            case .binaries, .attachment: skim.skipped.xmlBinaryBytes += count
            default: break
            }
            if frames[top].kind == .field, leaf.name == "Value" { fieldValue = (false, .empty) }
            return
        case .text:
            break
        }
        let text = leaf.text
        switch frames[top].kind {
        case .meta:
            if leaf.name == "RecycleBinUUID" {
                skim.recycleBinUUID = XMLValues.uuidOrZero(text)
            } else {
                do { headerHash = try Base64.decode(text) } catch { throw corrupted("HeaderHash is not valid base64") }
            }
        case .group:
            if leaf.name == "UUID" { frames[top].sawUUID = true }
            VaultXMLReader.applyGroup(leaf.name, text, &groupStack[groupStack.count - 1].scratch)
        case .entry:
            if leaf.name == "UUID" { frames[top].sawUUID = true }
            VaultXMLReader.applyEntry(leaf.name, text, &entry)
        case .field:
            if leaf.name == "Key" {
                fieldKey = text
            } else if XMLValues.flag(leaf.attributes, "Protected") {
                var bytes: [UInt8]
                do { bytes = try Base64.decode(text) } catch { throw corrupted("a protected value is not base64") }
                stream.apply(to: &bytes)
                defer { wipe(&bytes) }
                fieldValue = (true, try skim.arena.appendSecret(&bytes))
            } else if XMLValues.flag(leaf.attributes, "ProtectInMemory") {
                fieldValue = (true, try skim.arena.appendSecret(text))
            } else {
                fieldValue = (false, try skim.arena.appendText(text))
            }
        default:
            break
        }
    }

    // MARK: Containers

    private mutating func begin(_ kind: Kind) throws(KDBXError) {
        switch kind {
        case .keePassFile:
            sawKeePassFile = true
        case .group:
            try walk.enterGroup(openGroups: groupStack.count)
            rootTaken = true
            skim.groups.append(CredentialSkim.Group(uuid: .zero, name: "", parent: groupStack.last?.index, enableSearching: nil))
            groupStack.append((skim.groups.count - 1, Group(uuid: .zero, name: "", iconID: 48, times: Times(all: .minimum))))
        case .entry:
            try walk.enterEntry(historyItemsSoFar: entryDepth == 1 ? historyItems : nil)
            if entryDepth == 1 {
                historyItems += 1
                skim.skipped.historyItems += 1
            } else {
                entry = Entry(uuid: .zero)
                entryFields.removeAll(keepingCapacity: true)
                historyItems = 0
            }
            entryDepth += 1
            entryKeys.append([])
        case .field:
            fieldKey = nil
            fieldValue = nil
        default:
            break
        }
    }

    private mutating func end(_ frame: Frame) throws(KDBXError) {
        switch frame.kind {
        case .group:
            let (index, scratch) = groupStack.removeLast()
            skim.groups[index].uuid = frame.sawUUID ? scratch.uuid : .random()
            skim.groups[index].name = scratch.name
            skim.groups[index].enableSearching = scratch.enableSearching
        case .entry:
            entryDepth -= 1
            entryKeys.removeLast()
            guard entryDepth == 0, let group = groupStack.last?.index else { return }
            try checkKeptBytes(addingRecords: 1, fields: entryFields.count, tags: entry.tags.count,
                               arenaBytes: entry.overrideURL.utf8.count + entry.tags.reduce(0) { $0 + $1.utf8.count })
            let tagStart = UInt32(skim.tags.count)
            for tag in entry.tags { skim.tags.append(try skim.arena.appendText(tag)) }
            let fieldStart = UInt32(skim.fields.count)
            skim.fields.append(contentsOf: entryFields)
            skim.records.append(CredentialSkim.Record(
                uuid: frame.sawUUID ? entry.uuid : .random(), group: Int32(group), iconID: Int32(truncatingIfNeeded: entry.iconID),
                customIconUUID: entry.customIconUUID, overrideURL: try skim.arena.appendText(entry.overrideURL),
                tags: tagStart..<UInt32(skim.tags.count), fields: fieldStart..<UInt32(skim.fields.count)))
            entryFields.removeAll(keepingCapacity: true)
        case .field:
            guard let key = fieldKey else { return }  // A String without Key carries nothing.
            let e = entryKeys.count - 1
            if !entryKeys[e].contains(key) {
                guard entryKeys[e].count < limits.maxFieldsPerEntry else {
                    throw walk.limit("an entry has more than \(limits.maxFieldsPerEntry) fields")
                }
                entryKeys[e].insert(key)
            }
            guard entryDepth == 1, selection.keeps(key) else {
                skim.skipped.fields += 1
                return
            }
            try checkKeptBytes(addingRecords: 0, fields: 0, tags: 0, arenaBytes: 0)
            let value = fieldValue ?? (false, .empty)
            let field = CredentialSkim.Field(key: skim.intern(key), isSecret: value.isSecret, value: value.range)
            if let index = entryFields.firstIndex(where: { $0.key == field.key }) {
                entryFields[index] = field  // KeePass: the last value for a key wins.
            } else {
                entryFields.append(field)
            }
        default:
            break
        }
    }
}

extension CredentialXMLReader {
    /// Refuses, before it happens, growth of the kept tables past ``maxKeptBytes``.
    /// - Throws: ``KDBXError/Code/limitExceeded`` with ``CredentialSkim/keptBytesLimitReason``.
    private mutating func checkKeptBytes(addingRecords records: Int, fields: Int, tags: Int, arenaBytes: Int) throws(KDBXError) {
        guard let maxKeptBytes else { return }
        let peak = skim.peakBytes(addingRecords: records, fields: fields, tags: tags, arenaBytes: arenaBytes)
        guard peak <= maxKeptBytes else {
            throw walk.limit(CredentialSkim.keptBytesLimitReason + " (\(skim.records.count) entries kept, \(peak) bytes at the next one; the bound is \(maxKeptBytes) bytes)")
        }
    }

    /// Counts an inner header binary that was skipped (for ``CredentialSkim/Skipped``).
    mutating func noteInnerHeaderBinary(byteCount: Int) {
        skim.skipped.innerHeaderBinaryBytes += byteCount
    }

    /// Counts decompressed content bytes.
    mutating func noteContent(byteCount: Int) {
        skim.contentBytes += byteCount
    }
}
