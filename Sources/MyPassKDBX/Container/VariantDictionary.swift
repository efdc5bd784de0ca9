import MyPassBytes

/// KeePass's VariantDictionary: an ordered list of named, typed values, used for the KDBX 4 KDF
/// parameters (header field 11) and public custom data (header field 12).
///
/// Layout (KeePassLib `Collections/VariantDictionary.cs`): u16 LE version `0x0100`, then items,
/// then a single `0x00` byte. Each item: type u8, i32 LE name length, UTF-8 name, i32 LE value
/// length, value. Items keep their stored order; a later item with the same name replaces the
/// earlier one, as KeePass's dictionary does.
public struct VariantDictionary: Equatable, Sendable {
    /// A typed value; the comment gives the stored type code.
    public enum Value: Equatable, Sendable {
        /// Type 0x04, 4 bytes LE.
        case uint32(UInt32)
        /// Type 0x05, 8 bytes LE.
        case uint64(UInt64)
        /// Type 0x08, 1 byte (non-zero is true).
        case bool(Bool)
        /// Type 0x0C, 4 bytes LE.
        case int32(Int32)
        /// Type 0x0D, 8 bytes LE.
        case int64(Int64)
        /// Type 0x18, UTF-8 without terminator.
        case string(String)
        /// Type 0x42, raw bytes.
        case bytes([UInt8])

        /// The type code stored before the item.
        public var typeCode: UInt8 {
            switch self {
            case .uint32: return 0x04
            case .uint64: return 0x05
            case .bool: return 0x08
            case .int32: return 0x0C
            case .int64: return 0x0D
            case .string: return 0x18
            case .bytes: return 0x42
            }
        }
    }

    /// The version this writer emits (`0x0100`); readers accept any version whose major byte is at most 1.
    public static let currentVersion: UInt16 = 0x0100

    /// Items in stored order, each name at most once.
    public private(set) var items: [(name: String, value: Value)]

    /// An empty dictionary.
    public init() { items = [] }

    /// The value stored under `name`, if any.
    public subscript(name: String) -> Value? {
        get { items.first(where: { $0.name == name })?.value }
        set {
            if let index = items.firstIndex(where: { $0.name == name }) {
                if let newValue { items[index].value = newValue } else { items.remove(at: index) }
            } else if let newValue {
                items.append((name, newValue))
            }
        }
    }

    /// Equal when both hold the same items in the same order, with the same types and values.
    public static func == (lhs: VariantDictionary, rhs: VariantDictionary) -> Bool {
        lhs.items.count == rhs.items.count
            && zip(lhs.items, rhs.items).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    /// Parses a serialized dictionary that must fill `bytes` exactly (trailing bytes are rejected).
    /// - Throws: ``KDBXError`` `.unsupported` for a version above 1.x, `.corruptedFile` for a
    ///   truncated item, a negative length, an unknown type code, a wrong fixed-size value length,
    ///   a name that is not UTF-8, or bytes after the terminator.
    public init(parsing bytes: ArraySlice<UInt8>) throws(KDBXError) {
        var reader = ByteReader(bytes)
        func fail(_ reason: String) -> KDBXError {
            KDBXError(.corruptedFile, "VariantDictionary: " + reason, location: "dictionary offset \(reader.offset)")
        }
        /// One read of `reader`: running out of bytes is a truncated dictionary (one error type
        /// per scope, as Embedded Swift needs).
        func read<T>(_ value: @autoclosure () throws(BytesError) -> T) throws(KDBXError) -> T {
            do { return try value() } catch { throw fail("truncated (\(error))") }
        }
        do {
            let version = try read(reader.readUInt16LittleEndian())
            guard version & 0xFF00 <= Self.currentVersion & 0xFF00 else {
                throw KDBXError(.unsupported, "VariantDictionary version 0x" + String(version, radix: 16) + " is newer than 1.x")
            }
            items = []
            while true {
                let type = try read(reader.readUInt8())
                if type == 0 { break }
                let nameLength = try read(reader.readInt32LittleEndian())
                guard nameLength >= 0, Int(nameLength) <= reader.remaining else { throw fail("bad name length") }
                let nameBytes = try read(reader.readBytes(Int(nameLength)))
                guard let name = String(validatingUTF8Bytes: nameBytes) else { throw fail("name is not UTF-8") }
                let valueLength = try read(reader.readInt32LittleEndian())
                guard valueLength >= 0, Int(valueLength) <= reader.remaining else { throw fail("bad value length") }
                let data = try read(reader.readBytes(Int(valueLength)))
                func fixed(_ size: Int) throws(KDBXError) {
                    guard data.count == size else { throw fail("item \(name) has \(data.count) bytes, expected \(size)") }
                }
                let value: Value
                switch type {
                case 0x04: try fixed(4); value = .uint32(loadLittleEndian(data))
                case 0x05: try fixed(8); value = .uint64(loadLittleEndian(data))
                case 0x08: try fixed(1); value = .bool(data.first! != 0)
                case 0x0C: try fixed(4); value = .int32(loadLittleEndian(data))
                case 0x0D: try fixed(8); value = .int64(loadLittleEndian(data))
                case 0x18:
                    guard let text = String(validatingUTF8Bytes: data) else { throw fail("string \(name) is not UTF-8") }
                    value = .string(text)
                case 0x42: value = .bytes(Array(data))
                default: throw fail("unknown type code 0x" + String(type, radix: 16))
                }
                self[name] = value
            }
            guard reader.isAtEnd else { throw fail("bytes after the terminator") }
        }
    }

    /// The serialized form: version, items in order, terminator.
    public func serialized() -> [UInt8] {
        var out = [UInt8]()
        out.appendLittleEndian(Self.currentVersion)
        for (name, value) in items {
            out.append(value.typeCode)
            let nameBytes = Array(name.utf8)
            out.appendLittleEndian(Int32(nameBytes.count))
            out.append(contentsOf: nameBytes)
            var data = [UInt8]()
            switch value {
            case .uint32(let v): data.appendLittleEndian(v)
            case .uint64(let v): data.appendLittleEndian(v)
            case .bool(let v): data.append(v ? 1 : 0)
            case .int32(let v): data.appendLittleEndian(v)
            case .int64(let v): data.appendLittleEndian(v)
            case .string(let v): data.append(contentsOf: v.utf8)
            case .bytes(let v): data.append(contentsOf: v)
            }
            out.appendLittleEndian(Int32(data.count))
            out.append(contentsOf: data)
        }
        out.append(0)
        return out
    }
}
