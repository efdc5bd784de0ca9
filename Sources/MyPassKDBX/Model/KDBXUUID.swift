import MyPassBytes

/// A 16-byte KeePass UUID (groups, entries, custom icons, deleted objects), kept as the raw stored
/// bytes in stored order.
///
/// In the XML body it is the base64 of the 16 bytes (`<UUID>APwild8CkEuRr5HHlkwFsw==</UUID>`); in
/// the vault manifest it is 32 lowercase hex digits. The all-zero UUID means "none" in references
/// (`LastTopVisibleEntry`, `RecycleBinUUID`, ...).
public struct KDBXUUID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Bytes 0..<8, big-endian (so that comparison follows byte order).
    public let high: UInt64
    /// Bytes 8..<16, big-endian.
    public let low: UInt64

    /// The all-zero UUID ("no group", "no entry").
    public static let zero = KDBXUUID(high: 0, low: 0)

    /// A UUID from its two big-endian halves.
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// A UUID from exactly 16 bytes in stored order; `nil` for any other length.
    public init?<C: Collection>(bytes: C) where C.Element == UInt8 {
        guard bytes.count == 16 else { return nil }
        var h: UInt64 = 0
        var l: UInt64 = 0
        for (i, b) in bytes.enumerated() {
            if i < 8 { h = h << 8 | UInt64(b) } else { l = l << 8 | UInt64(b) }
        }
        self.init(high: h, low: l)
    }

    /// A UUID from its base64 form (as stored in the XML body); `nil` when the text is not base64
    /// of exactly 16 bytes.
    public init?(base64 text: some StringProtocol) {
        guard let bytes = try? Base64.decode(text) else { return nil }
        self.init(bytes: bytes)
    }

    /// A UUID from 32 hex digits (either case), as the manifest writes it; `nil` otherwise.
    public init?(hex text: String) {
        guard let bytes = [UInt8](hex: text) else { return nil }
        self.init(bytes: bytes)
    }

    /// A fresh random UUID (16 bytes from the OS random source, like KeePass's `PwUuid(true)`,
    /// which also never returns the all-zero value).
    public static func random() -> KDBXUUID {
        while true {
            let bytes = SecureRandom.bytes(count: 16)
            if let uuid = KDBXUUID(bytes: bytes), !uuid.isZero { return uuid }
        }
    }

    /// The 16 bytes in stored order.
    public var bytes: [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(16)
        for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: high >> UInt64(shift))) }
        for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: low >> UInt64(shift))) }
        return out
    }

    /// Whether this is the all-zero UUID.
    public var isZero: Bool { high == 0 && low == 0 }

    /// Base64 of the 16 bytes (24 characters, padded), as the XML body stores it.
    public var base64: String { Base64.encode(bytes) }

    /// 32 lowercase hex digits of the 16 bytes in stored order (the vault manifest form).
    public var hexString: String { bytes.hexString }

    /// The hex form (no secret here).
    public var description: String { hexString }

    /// Byte-wise order of the stored bytes.
    public static func < (lhs: KDBXUUID, rhs: KDBXUUID) -> Bool {
        lhs.high != rhs.high ? lhs.high < rhs.high : lhs.low < rhs.low
    }
}
