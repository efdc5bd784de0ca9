import MyPassBytes

/// The KDBX 4 inner header, at the start of the decrypted, decompressed payload (KeePassLib
/// `KdbxFile.cs KdbxInnerHeaderFieldID`, `KdbxFile.Read.cs ReadInnerHeaderField`): fields of
/// id u8, i32 LE size and data. Ids: 0 End, 1 InnerRandomStreamID (u32), 2 InnerRandomStreamKey,
/// 3 Binary (one flag byte, 0x01 = protected, then the content). Binaries are numbered from 0 in
/// order of appearance; that number is what entries' `<Value Ref="n"/>` refer to.
package struct InnerHeader: Sendable {
    /// Field ids of the inner header.
    public enum FieldID: UInt8, Sendable {
        /// 0: end of the inner header (empty).
        case end = 0
        /// 1: inner random stream algorithm, u32 LE.
        case innerRandomStreamID = 1
        /// 2: inner random stream key.
        case innerRandomStreamKey = 2
        /// 3: one binary: flag byte (0x01 protected) then content.
        case binary = 3
    }

    /// The inner random stream algorithm (field 1).
    public var streamAlgorithm: InnerStreamAlgorithm
    /// The inner random stream key (field 2; KeePass writes 64 bytes for ChaCha20), in wiping
    /// storage: it unmasks every protected value.
    public var streamKey: SecureBytes
    /// The binary pool, in stored order (fields 3).
    public var binaries: [BinaryPoolItem]

    /// An inner header with the given stream and pool.
    public init(streamAlgorithm: InnerStreamAlgorithm, streamKey: SecureBytes, binaries: [BinaryPoolItem]) {
        self.streamAlgorithm = streamAlgorithm
        self.streamKey = streamKey
        self.binaries = binaries
    }

    /// The serialized inner header handed to `emit` field by field (a binary's content as a slice
    /// of its own storage, never copied into one buffer with the rest), End field included.
    public func serialize(_ emit: (ArraySlice<UInt8>) -> Void) {
        func field(_ id: FieldID, _ data: [UInt8]) {
            var head: [UInt8] = [id.rawValue]
            head.appendLittleEndian(Int32(data.count))
            emit(head[...])
            emit(data[...])
        }
        var id = [UInt8]()
        id.appendLittleEndian(streamAlgorithm.rawValue)
        field(.innerRandomStreamID, id)
        var key = streamKey.unsafeArray
        defer { wipe(&key) }
        field(.innerRandomStreamKey, key)
        for item in binaries {
            var head: [UInt8] = [FieldID.binary.rawValue]
            head.appendLittleEndian(Int32(item.data.count + 1))
            head.append(item.isProtected ? 0x01 : 0x00)
            emit(head[...])
            emit(item.data[...])
        }
        field(.end, [])
    }

    /// The serialized inner header, End field (empty) included. It holds the stream key: the
    /// caller wipes it.
    public func serialized() -> [UInt8] {
        var out = [UInt8]()
        func field(_ id: FieldID, _ count: Int, _ body: (inout [UInt8]) -> Void) {
            out.append(id.rawValue)
            out.appendLittleEndian(Int32(count))
            body(&out)
        }
        var id = [UInt8]()
        id.appendLittleEndian(streamAlgorithm.rawValue)
        field(.innerRandomStreamID, 4) { $0.append(contentsOf: id) }
        field(.innerRandomStreamKey, streamKey.count) { out in streamKey.withUnsafeBytes { out.append(contentsOf: $0) } }
        for item in binaries {
            field(.binary, item.data.count + 1) {
                $0.append(item.isProtected ? 0x01 : 0x00)
                $0.append(contentsOf: item.data)
            }
        }
        field(.end, 0) { _ in }
        return out
    }

    /// Parses an inner header fed in chunks; hands back the bytes after the End field.
    ///
    /// What it buffers (the stream key, protected attachments in the clear, the first bytes of
    /// the XML) is in wiping storage (``SecureBytes``).
    public struct Parser {
        private let limits: KDBXLimits
        private var buffer = SecureBytes()
        private var consumed = 0
        private var streamID: UInt32?
        private var streamKey: SecureBytes?
        private var binaries: [BinaryPoolItem] = []
        /// The parsed header once the End field was read.
        public private(set) var header: InnerHeader?

        /// A parser bounded by `limits` (field and binary sizes).
        public init(limits: KDBXLimits) { self.limits = limits }

        /// Takes the next chunk. Returns `nil` while the header is incomplete, then (once) the
        /// bytes that follow the End field (possibly empty): decrypted XML, which the caller wipes.
        /// - Throws: ``KDBXError`` `.corruptedFile` (malformed or missing field), `.unsupported`
        ///   (unknown stream algorithm), `.limitExceeded` (oversized field).
        public mutating func feed(_ chunk: ArraySlice<UInt8>) throws(KDBXError) -> ArraySlice<UInt8>? {
            guard header == nil else { return chunk }
            buffer.append(contentsOf: chunk)
            var position = 0
            defer {
                if header == nil, position > 0 {
                    buffer.removeFirst(position)
                    consumed += position
                }
            }
            while buffer.count - position >= 5 {
                let (id, size) = buffer.withUnsafeBytes { bytes in
                    (bytes[position], loadLittleEndian(bytes[(position + 1)..<(position + 5)], as: Int32.self))
                }
                let location = "inner header field \(id) at payload offset \(consumed + position)"
                guard size >= 0 else { throw KDBXError(.corruptedFile, "negative inner header field size", location: location) }
                let limit = id == FieldID.binary.rawValue ? limits.maxBinaryBytes &+ 1 : limits.maxHeaderFieldBytes
                guard Int(size) <= limit else {
                    throw KDBXError(.limitExceeded, "inner header field of \(size) bytes", location: location)
                }
                guard buffer.count - position - 5 >= Int(size) else { return nil }
                let start = position + 5
                let end = start + Int(size)
                position = end
                switch FieldID(rawValue: id) {
                case .end:
                    guard let streamID, let streamKey else {
                        throw KDBXError(.corruptedFile, "inner header lacks the inner random stream", location: location)
                    }
                    guard let algorithm = InnerStreamAlgorithm(rawValue: streamID) else {
                        throw KDBXError(.unsupported, "unknown inner random stream \(streamID)", location: location)
                    }
                    header = InnerHeader(streamAlgorithm: algorithm, streamKey: streamKey, binaries: binaries)
                    binaries = []
                    let rest = buffer.withUnsafeBytes { Array($0[position...]) }
                    buffer.removeAll()
                    return rest[...]
                case .innerRandomStreamID:
                    guard size == 4 else {
                        throw KDBXError(.corruptedFile, "inner random stream id must be 4 bytes", location: location)
                    }
                    streamID = buffer.withUnsafeBytes { loadLittleEndian($0[start..<end], as: UInt32.self) }
                case .innerRandomStreamKey:
                    streamKey = buffer.withUnsafeBytes { SecureBytes($0[start..<end]) }
                case .binary:
                    guard size >= 1 else {
                        throw KDBXError(.corruptedFile, "inner header binary without its flag byte", location: location)
                    }
                    let item = buffer.withUnsafeBytes { bytes in
                        BinaryPoolItem(data: Array(bytes[(start + 1)..<end]), isProtected: bytes[start] & 0x01 != 0)
                    }
                    binaries.append(item)
                case nil:
                    break  // unknown inner header fields are skipped, as KeePass does
                }
            }
            return nil
        }
    }
}

extension InnerHeader: CustomStringConvertible, CustomDebugStringConvertible {
    /// The algorithm and sizes only: never the stream key (it unmasks every protected value) nor
    /// the binaries' content.
    public var description: String {
        "InnerHeader(\(streamAlgorithm), key: \(streamKey.count) bytes, binaries: \(binaries.count))"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }
}
