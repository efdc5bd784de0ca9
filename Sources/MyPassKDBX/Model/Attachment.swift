import MyPassBytes

/// A file attached to an entry (`<Binary><Key>name</Key><Value .../></Binary>`), owning its content.
///
/// References into the binary pool are resolved when reading; the writer rebuilds the pool with one
/// copy of each distinct content (see `BinaryPool`), so editing code adds and removes attachments
/// without caring about the pool.
public struct Attachment: Equatable, Sendable {
    /// The attachment's name (`Key`), unique within an entry.
    public var name: String
    /// The content bytes.
    public var data: [UInt8]
    /// The in-memory protection flag (KDBX 4 inner header flag 0x01, KDBX 3 `Protected="True"`).
    public var isProtected: Bool
    /// Unknown child elements and comments of the `<Binary>`, kept in place.
    public var unknownElements: [UnknownElement] = []

    /// An attachment.
    public init(name: String, data: [UInt8], isProtected: Bool = false) {
        self.name = name
        self.data = data
        self.isProtected = isProtected
    }
}

/// One binary of the pool: a KDBX 4 inner header field 3 (flag byte + content), or a KDBX 3.x
/// `Meta/Binaries/Binary` after base64, XOR and gzip decoding.
public struct BinaryPoolItem: Hashable, Sendable {
    /// The content bytes.
    public var data: [UInt8]
    /// The protection flag (KDBX 4 inner header flag bit 0x01; KDBX 3 `Protected="True"`).
    public var isProtected: Bool

    /// A pool item.
    public init(data: [UInt8], isProtected: Bool) {
        self.data = data
        self.isProtected = isProtected
    }
}

extension Attachment: CustomStringConvertible {
    /// The name, size and flag, never the content (a protected attachment is a secret).
    public var description: String {
        "Attachment(\(name.debugDescription), \(data.count) bytes\(isProtected ? ", protected" : ""))"
    }
}

extension BinaryPoolItem: CustomStringConvertible {
    /// The size and flag, never the content.
    public var description: String { "BinaryPoolItem(\(data.count) bytes\(isProtected ? ", protected" : ""))" }
}
