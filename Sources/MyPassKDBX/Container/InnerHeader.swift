import MyPassBytes

/// The KDBX 4 inner header, at the start of the decrypted, decompressed payload (KeePassLib
/// `KdbxFile.cs KdbxInnerHeaderFieldID`, `KdbxFile.Read.cs ReadInnerHeaderField`): fields of
/// id u8, i32 LE size and data. Ids: 0 End, 1 InnerRandomStreamID (u32), 2 InnerRandomStreamKey,
/// 3 Binary (one flag byte, 0x01 = protected, then the content). Binaries are numbered from 0 in
/// order of appearance; that number is what entries' `<Value Ref="n"/>` refer to.
public struct InnerHeader: Sendable {
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
    /// The inner random stream key (field 2; KeePass writes 64 bytes for ChaCha20).
    public var streamKey: [UInt8]
    /// The binary pool, in stored order (fields 3).
    public var binaries: [BinaryPoolItem]

    /// An inner header with the given stream and pool.
    public init(streamAlgorithm: InnerStreamAlgorithm, streamKey: [UInt8], binaries: [BinaryPoolItem]) {
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
        var key = streamKey
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

    /// The serialized inner header, End field (empty) included.
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
        field(.innerRandomStreamKey, streamKey.count) { $0.append(contentsOf: streamKey) }
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
    public struct Parser {
        private let limits: KDBXLimits
        private var buffer: [UInt8] = []
        private var consumed = 0
        private var streamID: UInt32?
        private var streamKey: [UInt8]?
        private var binaries: [BinaryPoolItem] = []
        /// The parsed header once the End field was read.
        public private(set) var header: InnerHeader?

        /// A parser bounded by `limits` (field and binary sizes).
        public init(limits: KDBXLimits) { self.limits = limits }

        /// Takes the next chunk. Returns `nil` while the header is incomplete, then (once) the
        /// bytes that follow the End field (possibly empty).
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
                let id = buffer[position]
                let size = loadLittleEndian(buffer[(position + 1)..<(position + 5)], as: Int32.self)
                let location = "inner header field \(id) at payload offset \(consumed + position)"
                guard size >= 0 else { throw KDBXError(.corruptedFile, "negative inner header field size", location: location) }
                let limit = id == FieldID.binary.rawValue ? limits.maxBinaryBytes &+ 1 : limits.maxHeaderFieldBytes
                guard Int(size) <= limit else {
                    throw KDBXError(.limitExceeded, "inner header field of \(size) bytes", location: location)
                }
                guard buffer.count - position - 5 >= Int(size) else { return nil }
                let data = buffer[(position + 5)..<(position + 5 + Int(size))]
                position += 5 + Int(size)
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
                    let rest = Array(buffer[position...])
                    buffer = []
                    return rest[...]
                case .innerRandomStreamID:
                    guard data.count == 4 else {
                        throw KDBXError(.corruptedFile, "inner random stream id must be 4 bytes", location: location)
                    }
                    streamID = loadLittleEndian(data, as: UInt32.self)
                case .innerRandomStreamKey:
                    streamKey = Array(data)
                case .binary:
                    guard let flags = data.first else {
                        throw KDBXError(.corruptedFile, "inner header binary without its flag byte", location: location)
                    }
                    binaries.append(BinaryPoolItem(data: Array(data.dropFirst()), isProtected: flags & 0x01 != 0))
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
