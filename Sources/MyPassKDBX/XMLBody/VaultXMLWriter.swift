import MyPassBytes
import MyPassXML

/// Writes the XML body of a KDBX file (`<KeePassFile>`) from the vault model, in KeePass 2.x's
/// element order and formatting (`KdbxFile.Write.cs WriteDocument/WriteMeta/StartGroup/WriteEntry`).
///
/// - Times: KDBX 4 writes base64 of the little-endian Int64 seconds; KDBX 3.x ISO-8601 UTC.
/// - Protected values (`EntryField.isProtected`, protected KDBX 3.x pool binaries, `Protected="True"`
///   values in unknown elements) are masked with the inner random stream in document order.
/// - KDBX 3.x writes `Meta/HeaderHash` (when given) and the binary pool in `Meta/Binaries`
///   (gzip-compressed when the vault's compression is gzip, XORed when protected); KDBX 4 only
///   writes `<Value Ref="n" />` references into the pool the container puts in the inner header.
/// - 4.1-only fields (group tags, `PreviousParentGroup`, `QualityCheck`, custom icon name and time,
///   custom data times) are written only when writing 4.1 or later; `SettingsChanged` only for 4.x.
/// - Nullable booleans are written `null`; characters XML 1.0 forbids are dropped.
package enum VaultXMLWriter {
    /// Writes the XML body.
    /// - Parameters:
    ///   - vault: the vault (its `format.compression` decides KDBX 3.x pool compression).
    ///   - version: the version being written (see `Vault.minimumVersion`).
    ///   - headerHash: KDBX 3.x only: SHA-256 of the outer header bytes (32 bytes), written as
    ///     `Meta/HeaderHash`; ignored for KDBX 4.
    ///   - stream: the inner random stream, consumed in document order.
    ///   - binaryPool: the pool built with `BinaryPool(vault:)` (the same one the container writes to
    ///     the KDBX 4 inner header).
    /// - Returns: the UTF-8 XML document.
    public static func write(_ vault: Vault, version: KDBXVersion, headerHash: [UInt8]? = nil,
                             stream: inout some ProtectedValueStream, binaryPool: BinaryPool) -> [UInt8] {
        var body = BodyWriter(mode: .init(version: version, plain: false, compressPool: vault.format.compression == .gzip),
                              pool: binaryPool, stream: stream)
        body.writeDocument(vault, headerHash: version.isKDBX4 ? nil : headerHash)
        stream = body.stream
        return body.xml.finish()
    }

    /// Writes the XML body as a stream: `drain` receives the document in order, in pieces of
    /// about ``drainByteCount`` bytes (cut at element ends), and each piece is wiped after it
    /// returns, so at no time is the whole document in memory. Parameters as
    /// ``write(_:version:headerHash:stream:binaryPool:)``.
    public static func write(_ vault: Vault, version: KDBXVersion, headerHash: [UInt8]? = nil,
                             stream: inout some ProtectedValueStream, binaryPool: BinaryPool,
                             drain: @escaping (inout [UInt8]) -> Void) {
        var body = BodyWriter(mode: .init(version: version, plain: false, compressPool: vault.format.compression == .gzip),
                              pool: binaryPool, stream: stream)
        body.drain = drain
        body.writeDocument(vault, headerHash: version.isKDBX4 ? nil : headerHash)
        stream = body.stream
        var tail = body.xml.finish()
        drain(&tail)
        wipe(&tail)
    }

    /// The size of the pieces the streaming writer hands over: 64 KiB.
    public static let drainByteCount = 64 * 1024

    /// Writes the XML body, building the binary pool itself (convenient for KDBX 3.x, whose pool
    /// lives in the XML).
    public static func write(_ vault: Vault, version: KDBXVersion, headerHash: [UInt8]? = nil,
                             stream: inout some ProtectedValueStream) -> [UInt8] {
        write(vault, version: version, headerHash: headerHash, stream: &stream, binaryPool: BinaryPool(vault: vault))
    }

    /// KeePass's plain XML export (File > Export > KeePass XML 2.x): ISO-8601 times, protected values
    /// in clear marked `ProtectInMemory="True"`, the binary pool in `Meta/Binaries` (gzip-compressed
    /// when the vault's compression is gzip), no `HeaderHash`. The version written (for the 4.x-only
    /// elements) is the vault's ``Vault/requiredVersion`` raised to at least 4.0, as KeePass does.
    public static func plainXML(_ vault: Vault) -> [UInt8] {
        var none = ClearStream()
        let version = max(vault.requiredVersion, .v4_0)
        var body = BodyWriter(mode: .init(version: version, plain: true, compressPool: vault.format.compression == .gzip),
                              pool: BinaryPool(vault: vault), stream: none)
        body.writeDocument(vault, headerHash: nil)
        none = body.stream
        return body.xml.finish()
    }
}

/// A stream that masks nothing (the plain XML export).
struct ClearStream: ProtectedValueStream {
    mutating func apply(to bytes: inout [UInt8]) {}
}

/// How a document is written.
struct WriteMode {
    var version: KDBXVersion
    /// The plain XML export: clear protected values, ISO times, pool in Meta.
    var plain: Bool
    /// Whether pool binaries in `Meta/Binaries` are gzip-compressed.
    var compressPool: Bool

    var binaryTimes: Bool { version.isKDBX4 && !plain }
    var is41: Bool { version >= .v4_1 }
    var poolInMeta: Bool { plain || !version.isKDBX4 }
}

/// Emits unknown elements next to the known ones they followed when read.
struct UnknownCursor {
    var items: [UnknownElement]
    var emitted: [Bool]
    /// The last known child written and how many of it in a row (see `UnknownElement.precedingOccurrence`).
    var lastChild: String?
    var lastChildRun = 0

    init(_ items: [UnknownElement]) {
        self.items = items
        // Attribute carriers write nothing themselves.
        emitted = items.map { $0.attributesFor != nil }
    }

    /// The kept unknown attributes of the known child `name` about to be written.
    func attributes(of name: String) -> [XMLAttribute] {
        let occurrence = lastChild == name ? lastChildRun + 1 : 1
        var out: [XMLAttribute] = []
        for item in items where item.attributesFor == name && item.precedingOccurrence == occurrence {
            out.append(contentsOf: item.node.attributes)
        }
        return out
    }
}

struct BodyWriter<Stream: ProtectedValueStream> {
    var xml = XMLWriter()
    let mode: WriteMode
    let pool: BinaryPool
    var stream: Stream
    var cursors: [UnknownCursor] = []
    /// Receives the output in pieces when streaming (see `VaultXMLWriter.write(...drain:)`).
    var drain: ((inout [UInt8]) -> Void)?

    init(mode: WriteMode, pool: BinaryPool, stream: Stream) {
        self.mode = mode
        self.pool = pool
        self.stream = stream
    }

    // MARK: Primitives

    /// Opens a container whose unknown children are `unknowns`.
    mutating func open(_ name: String, attributes: [XMLAttribute] = [], unknowns: [UnknownElement] = []) {
        var all = attributes
        for item in unknowns where item.attributesFor == "" { all.append(contentsOf: item.node.attributes) }
        xml.startElement(name, attributes: all)
        cursors.append(UnknownCursor(unknowns))
        emitUnknowns(after: nil)
    }

    /// Closes the innermost container (writing its unplaced unknown children first).
    mutating func close(_ name: String) {
        var cursor = cursors.removeLast()
        if !cursor.items.isEmpty {
            for index in cursor.items.indices where !cursor.emitted[index] {
                cursor.emitted[index] = true
                writeUnknown(cursor.items[index])
            }
        }
        xml.endElement()
        emitUnknowns(after: name)
        if let drain, xml.bufferedByteCount >= VaultXMLWriter.drainByteCount {
            var piece = xml.takeOutput()
            drain(&piece)
            wipe(&piece)
        }
    }

    /// The kept unknown attributes of the leaf `name` about to be written in the innermost container.
    func keptAttributes(of name: String) -> [XMLAttribute] {
        guard let last = cursors.indices.last, !cursors[last].items.isEmpty else { return [] }
        return cursors[last].attributes(of: name)
    }

    mutating func emitUnknowns(after name: String?) {
        guard let last = cursors.indices.last, !cursors[last].items.isEmpty else { return }
        if let name {
            if cursors[last].lastChild == name {
                cursors[last].lastChildRun += 1
            } else {
                cursors[last].lastChild = name
                cursors[last].lastChildRun = 1
            }
        }
        let run = cursors[last].lastChildRun
        for index in cursors[last].items.indices where !cursors[last].emitted[index] {
            let item = cursors[last].items[index]
            guard item.precedingElement == name, name == nil || item.precedingOccurrence == run else { continue }
            cursors[last].emitted[index] = true
            writeUnknown(item)
        }
    }

    mutating func leaf(_ name: String, _ text: String, attributes: [XMLAttribute] = []) {
        let kept = keptAttributes(of: name)
        xml.writeElement(name, text: text, attributes: kept.isEmpty ? attributes : attributes + kept)
        emitUnknowns(after: name)
    }

    mutating func empty(_ name: String, attributes: [XMLAttribute] = []) {
        let kept = keptAttributes(of: name)
        xml.startElement(name, attributes: kept.isEmpty ? attributes : attributes + kept)
        xml.endElement()
        emitUnknowns(after: name)
    }

    mutating func leaf(_ name: String, _ value: Bool) { leaf(name, XMLValues.boolText(value)) }
    mutating func leaf(_ name: String, _ value: Int) { leaf(name, String(value)) }
    mutating func leaf(_ name: String, _ value: Int64) { leaf(name, String(value)) }
    mutating func leaf(_ name: String, _ value: UInt64) { leaf(name, String(value)) }
    mutating func leaf(_ name: String, _ uuid: KDBXUUID) { leaf(name, uuid.base64) }
    mutating func leaf(_ name: String, _ time: KDBXTime) {
        leaf(name, mode.binaryTimes ? time.kdbx4Base64 : time.iso8601)
    }

    /// Writes a captured unknown element, masking its protected values in document order, or a
    /// kept comment.
    mutating func writeUnknown(_ unknown: UnknownElement) {
        if let comment = unknown.comment {
            xml.writeComment(comment)
            return
        }
        var masked = unknown.node
        mask(&masked)
        xml.writeNode(masked)
    }

    mutating func mask(_ node: inout XMLElementNode) {
        if XMLValues.flag(node.attributes, "Protected") {
            let text = XMLValues.characterData(of: node)
            var bytes = Array(text.utf8)
            if mode.plain {
                node.children = bytes.isEmpty ? [] : [.text(text)]
                node.attributes.removeAll { $0.name == "Protected" }
                node.attributes.append(XMLAttribute("ProtectInMemory", "True"))
            } else {
                stream.apply(to: &bytes)
                node.children = bytes.isEmpty ? [] : [.text(Base64.encode(bytes))]
            }
            wipe(&bytes)
            return
        }
        for index in node.children.indices {
            if case .element(var child) = node.children[index] {
                mask(&child)
                node.children[index] = .element(child)
            }
        }
    }
}
