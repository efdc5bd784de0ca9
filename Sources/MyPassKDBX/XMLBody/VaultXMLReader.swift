import MyPassBytes
import MyPassCrypto
import MyPassXML

/// Reads the decrypted, decompressed XML body of a KDBX file (`<KeePassFile>`) into the vault model,
/// push style: feed chunks as they come out of the decompressor, then call ``finish(stream:)``.
///
/// Protected values (`Protected="True"`: entry strings, KDBX 3.x pool binaries, inline binaries, and
/// values inside unknown elements) are unmasked with the inner random stream in exact document order
/// (KeePass `KdbxFile.Read.Streamed.cs`); an empty protected value consumes no stream bytes. The
/// plain XML export's `ProtectInMemory="True"` marks a clear value as protected. Elements the reader
/// does not know are kept as ``UnknownElement``s in place.
///
/// Leniency (as KeePass): an empty boolean takes its default; an empty, `null` or unknown tri-state
/// inherits; times by content (ISO-8601 with fractional seconds or offsets, or KDBX 4 base64 of any
/// length); an empty or missing group/entry UUID gets a fresh random one; a reference to a missing
/// pool binary drops that attachment but keeps the entry; empty `History` elements inside history
/// items are ignored.
package struct VaultXMLReader {
    /// The file version (kept for callers; times are recognised by content).
    public let version: KDBXVersion
    let limits: VaultXMLLimits
    let fallbackTime: KDBXTime
    /// The tokenizer, its errors and the document's counts (shared with ``CredentialXMLReader``).
    var walk: XMLBodyWalk
    /// Pool binaries by reference number (KDBX 4 inner header order, or KDBX 3.x `ID`).
    var pool: [Int: BinaryPoolItem] = [:]
    /// Bytes produced so far by gunzipping `Compressed="True"` binaries: all of them together may
    /// inflate to at most `limits.maxBinaryBytes`, so that many small gzip bombs cannot add up.
    var inflatedBinaryBytes = 0
    /// The pads of this read's protected values: one keystream under one random key, wiped when
    /// the reader goes away.
    let pads = ChaCha20PadSource()

    var frames: [Frame] = [Frame(kind: .document)]
    var leaf: Leaf?
    var capture: XMLNodeBuilder?

    var sawKeePassFile = false
    var meta: Meta
    var headerHash: [UInt8]?
    var root: Group?
    var groupStack: [Group] = []
    var entryStack: [Entry] = []
    var times: Times
    var icon = CustomIcon(uuid: .zero, data: [])
    var item = CustomDataItem(key: "", value: "")
    var fieldKey: String?
    var fieldValue: EntryField?
    var fieldUnknown: [UnknownElement] = []
    var attachmentUnknown: [UnknownElement] = []
    var attachmentName: String?
    var attachmentContent: BinaryPoolItem?
    var association = AutoTypeAssociation(window: "", sequence: "")
    var deletedObject = DeletedObject(uuid: .zero, deletionTime: .minimum)
    var deletedObjects: [DeletedObject] = []
    var documentUnknown: [UnknownElement] = []
    var rootUnknown: [UnknownElement] = []
    /// The first tag separator seen in the file (for `Tags` with fewer than two tags).
    var fileTagSeparator: Character = ";"
    var sawTagSeparator = false

    /// A reader for one XML body.
    /// - Parameters:
    ///   - version: the file's version from the outer header.
    ///   - binaryPool: the KDBX 4 inner header binaries in order (reference `n` is item `n`); empty for
    ///     KDBX 3.x, whose pool is read from `Meta/Binaries`.
    ///   - limits: size and nesting limits.
    ///   - fallbackTime: the time used where a time stamp is missing or unreadable (KeePass uses "now").
    public init(version: KDBXVersion, binaryPool: [BinaryPoolItem] = [], limits: VaultXMLLimits = VaultXMLLimits(),
                fallbackTime: KDBXTime = .minimum) {
        self.version = version
        self.limits = limits
        self.fallbackTime = fallbackTime
        walk = XMLBodyWalk(limits: limits)
        for (index, item) in binaryPool.enumerated() { pool[index] = item }
        meta = Meta(time: fallbackTime)
        meta.generator = ""
        meta.settingsChanged = nil
        times = Times(all: fallbackTime)
    }

    /// Parses the next chunk of the XML body (any size; chunks may split anything).
    /// - Parameter stream: the inner random stream, consumed in document order.
    /// - Throws: ``KDBXError`` `.corruptedFile` for malformed XML or values (location
    ///   "XML line L column C"), `.limitExceeded` when a limit is exceeded.
    public mutating func feed(_ chunk: ArraySlice<UInt8>, stream: inout some ProtectedValueStream) throws(KDBXError) {
        walk.feed(chunk)
        try drain(&stream)
    }

    /// Parses a chunk given as an array (see ``feed(_:stream:)``).
    public mutating func feed(_ chunk: [UInt8], stream: inout some ProtectedValueStream) throws(KDBXError) {
        try feed(chunk[...], stream: &stream)
    }

    /// Ends the input and returns the body.
    /// - Returns: meta, root group, deleted objects, unknown elements, and the KDBX 3.x
    ///   `Meta/HeaderHash` (for the container to compare with the SHA-256 of the header).
    /// - Throws: ``KDBXError`` `.corruptedFile` when the document is incomplete or is not a
    ///   `KeePassFile`.
    public mutating func finish(stream: inout some ProtectedValueStream) throws(KDBXError) -> VaultBody {
        walk.finish()
        try drain(&stream)
        guard sawKeePassFile, frames.count == 1 else {
            throw corrupted("the XML body is not a complete KeePassFile document")
        }
        let rootGroup = root ?? Group(uuid: .random(), name: "", iconID: 49, times: Times(all: fallbackTime))
        return VaultBody(meta: meta, root: rootGroup, deletedObjects: deletedObjects, headerHash: headerHash,
                         unknownElements: documentUnknown, rootUnknownElements: rootUnknown)
    }

    /// Reads a whole XML body at once.
    public static func read(_ xml: [UInt8], version: KDBXVersion, binaryPool: [BinaryPoolItem] = [],
                            stream: inout some ProtectedValueStream,
                            limits: VaultXMLLimits = VaultXMLLimits()) throws(KDBXError) -> VaultBody {
        var reader = VaultXMLReader(version: version, binaryPool: binaryPool, limits: limits)
        try reader.feed(xml[...], stream: &stream)
        return try reader.finish(stream: &stream)
    }

    // MARK: Events
    //
    // Helpers are `mutating` even where they only read: calling a non-mutating method from the
    // mutating event handler made Swift copy the whole reader on every call (seen with perf).

    mutating func drain(_ stream: inout some ProtectedValueStream) throws(KDBXError) {
        while let event = try walk.next() { try handle(event, &stream) }
    }

    mutating func corrupted(_ reason: String) -> KDBXError { walk.corrupted(reason) }

    mutating func limit(_ reason: String) -> KDBXError { walk.limit(reason) }

    mutating func handle(_ event: XMLEvent, _ stream: inout some ProtectedValueStream) throws(KDBXError) {
        if capture != nil {
            if let node = capture!.add(event) {
                capture = nil
                try endCapture(node, &stream)
            }
            return
        }
        if leaf != nil {
            switch event {
            case .startElement:
                leaf!.skipDepth += 1
            case .endElement(let name):
                if leaf!.skipDepth > 0 {
                    leaf!.skipDepth -= 1
                } else {
                    let finished = leaf!
                    leaf = nil
                    try applyLeaf(finished, &stream)
                    frames[frames.count - 1].noteChild(name)
                }
            case .text(let text), .cdata(let text):
                if leaf!.skipDepth == 0 { leaf!.text += text }
            case .comment, .processingInstruction:
                break
            }
            return
        }
        switch event {
        case .startElement(let name, let attributes):
            switch classify(frames[frames.count - 1].kind, name) {
            case .leaf:
                keepUnknownAttributes(attributes, of: name)
                leaf = Leaf(name: name, attributes: attributes)
            case .container(let kind):
                try begin(kind, attributes: attributes)
                frames.append(Frame(kind: kind))
                keepUnknownAttributes(attributes, of: "")
            case .unknown:
                capture = XMLNodeBuilder(startName: name, attributes: attributes)
            }
        case .endElement(let name):
            let frame = frames.removeLast()
            try end(frame)
            frames[frames.count - 1].noteChild(name)
        case .comment(let text):
            if frames.count > 1 { place(UnknownElement(comment: text, precedingElement: nil)) }
        case .text, .cdata, .processingInstruction:
            // White space between elements, or stray content in a container: not part of the model.
            break
        }
    }

    /// Stores a finished unknown subtree in its container, after unmasking its protected values.
    mutating func endCapture(_ captured: XMLElementNode, _ stream: inout some ProtectedValueStream) throws(KDBXError) {
        var node = captured
        try unmaskProtected(&node, &stream)
        Self.dropFormattingWhitespace(&node)
        let owner = frames[frames.count - 1]
        if case .entry = owner.kind, node.name == "History", entryStack.count > 1,
           !node.children.contains(where: { if case .element = $0 { return true } else { return false } }) {
            return  // An empty History inside a history item (KeePassXC writes these).
        }
        place(UnknownElement(node: node, precedingElement: nil))
    }

    /// The attributes KeePass's format defines (on `Value`, `Binary` and pool items); others are kept.
    static let knownAttributes: Set<String> = ["Protected", "ProtectInMemory", "Ref", "Compressed", "ID"]

    /// Keeps the attributes of a known element that the format does not define, with the object
    /// that owns the innermost open element (`element` `""`: that element itself).
    mutating func keepUnknownAttributes(_ attributes: [XMLAttribute], of element: String) {
        guard !attributes.isEmpty else { return }
        let unknown = attributes.filter { !Self.knownAttributes.contains($0.name) }
        guard !unknown.isEmpty, frames.count > 1 else { return }
        let frame = frames[frames.count - 1]
        let occurrence = element.isEmpty ? 1 : (frame.lastChild == element ? frame.lastChildRun + 1 : 1)
        place(UnknownElement(attributes: unknown, of: element, occurrence: occurrence))
    }

    /// Stores an unknown element or comment with the object that owns the innermost open element,
    /// after the known sibling it followed. Children of containers without a model object of
    /// their own (`History`, `CustomData`, `CustomIcons`, `Binaries`, `DeletedObjects`) go to the
    /// object that owns the container, marked with its name.
    mutating func place(_ unknown: UnknownElement) {
        var unknown = unknown
        let owner = frames[frames.count - 1]
        if unknown.attributesFor == nil {
            unknown.precedingElement = owner.lastChild
            unknown.precedingOccurrence = owner.lastChildRun
        }
        switch owner.kind {
        case .document: break  // Outside KeePassFile: only comments and PIs can be there.
        case .keePassFile: documentUnknown.append(unknown)
        case .meta: meta.unknownElements.append(unknown)
        case .memoryProtection: meta.memoryProtection.unknownElements.append(unknown)
        case .root: rootUnknown.append(unknown)
        case .group: groupStack[groupStack.count - 1].unknownElements.append(unknown)
        case .entry: entryStack[entryStack.count - 1].unknownElements.append(unknown)
        case .times: times.unknownElements.append(unknown)
        case .autoType: entryStack[entryStack.count - 1].autoType.unknownElements.append(unknown)
        case .field: fieldUnknown.append(unknown)
        case .attachment: attachmentUnknown.append(unknown)
        case .item: item.unknownElements.append(unknown)
        case .icon: icon.unknownElements.append(unknown)
        case .association: association.unknownElements.append(unknown)
        case .deletedObject: deletedObject.unknownElements.append(unknown)
        case .history:
            unknown.container = "History"
            entryStack[entryStack.count - 1].unknownElements.append(unknown)
        case .customData(let dataOwner):
            unknown.container = "CustomData"
            switch dataOwner {
            case .meta: meta.unknownElements.append(unknown)
            case .group: groupStack[groupStack.count - 1].unknownElements.append(unknown)
            case .entry: entryStack[entryStack.count - 1].unknownElements.append(unknown)
            }
        case .customIcons:
            unknown.container = "CustomIcons"
            meta.unknownElements.append(unknown)
        case .binaries:
            unknown.container = "Binaries"
            meta.unknownElements.append(unknown)
        case .deletedObjects:
            unknown.container = "DeletedObjects"
            rootUnknown.append(unknown)
        }
    }

    /// Unmasks `Protected="True"` values in a captured subtree, pre-order (document order), as
    /// KeePass's `ReadUnknown`/`ProcessNode` does.
    mutating func unmaskProtected(_ node: inout XMLElementNode, _ stream: inout some ProtectedValueStream) throws(KDBXError) {
        if XMLValues.flag(node.attributes, "Protected") {
            let text = XMLValues.characterData(of: node)
            var bytes: [UInt8]
            do { bytes = try Base64.decode(text) } catch { throw corrupted("a protected value is not base64") }
            stream.apply(to: &bytes)
            node.children = bytes.isEmpty ? [] : [.text(String(decoding: bytes, as: UTF8.self))]
            wipe(&bytes)
            return
        }
        for index in node.children.indices {
            if case .element(var child) = node.children[index] {
                try unmaskProtected(&child, &stream)
                node.children[index] = .element(child)
            }
        }
    }

    /// Removes white-space-only text between child elements (the old indentation), so that the
    /// writer's own indentation does not accumulate on every round trip.
    static func dropFormattingWhitespace(_ node: inout XMLElementNode) {
        let hasElements = node.children.contains { if case .element = $0 { return true } else { return false } }
        if hasElements {
            node.children.removeAll { child in
                if case .text(let t) = child { return t.utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D } }
                return false
            }
        }
        for index in node.children.indices {
            if case .element(var child) = node.children[index] {
                dropFormattingWhitespace(&child)
                node.children[index] = .element(child)
            }
        }
    }
}

extension VaultXMLReader {
    /// What an open element is, for dispatching its children.
    enum Kind: Equatable {
        case document, keePassFile, meta, memoryProtection, customIcons, icon, binaries
        case customData(Owner), item(Owner)
        case root, group, times, entry, field, attachment, autoType, association, history
        case deletedObjects, deletedObject
    }

    /// Whose custom data is being read.
    enum Owner: Equatable { case meta, group, entry }

    /// An open container element.
    struct Frame {
        var kind: Kind
        /// The last known child element that ended, for placing unknown elements.
        var lastChild: String?
        /// How many known `lastChild` siblings ended in a row (1 for the first).
        var lastChildRun = 0
        /// Whether a `UUID` child was read (groups and entries get a fresh one otherwise).
        var sawUUID = false

        init(kind: Kind) { self.kind = kind }

        /// Records that the known child element `name` ended.
        mutating func noteChild(_ name: String) {
            if name == lastChild {
                lastChildRun += 1
            } else {
                lastChild = name
                lastChildRun = 1
            }
        }
    }

    /// An open leaf element whose text is being collected.
    struct Leaf {
        var name: String
        var attributes: [XMLAttribute]
        var text = ""
        /// Depth of unexpected child elements inside the leaf (their content is ignored).
        var skipDepth = 0

        init(name: String, attributes: [XMLAttribute]) {
            self.name = name
            self.attributes = attributes
        }
    }

    enum Action { case leaf, container(Kind), unknown }
}
