/// A KDBX file version as stored in the outer header: a u32 whose high word is the major and low
/// word the minor version (KeePass `KdbxFile.cs`, `FileVersion32`).
public struct KDBXVersion: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// The major version (3 or 4 for the versions we read).
    public var major: UInt16
    /// The minor version.
    public var minor: UInt16

    /// A version from its two parts.
    public init(major: UInt16, minor: UInt16) {
        self.major = major
        self.minor = minor
    }

    /// From the stored u32 (`0x00040001` is 4.1).
    public init(rawValue: UInt32) {
        self.init(major: UInt16(truncatingIfNeeded: rawValue >> 16), minor: UInt16(truncatingIfNeeded: rawValue))
    }

    /// The stored u32.
    public var rawValue: UInt32 { UInt32(major) << 16 | UInt32(minor) }

    /// KDBX 3.0 (the same layout as 3.1; read as 3.1).
    public static let v3_0 = KDBXVersion(major: 3, minor: 0)
    /// KDBX 3.1 (KeePass 2.20 to 2.34: AES-KDF, hashed block stream, Meta/HeaderHash).
    public static let v3_1 = KDBXVersion(major: 3, minor: 1)
    /// KDBX 4.0 (KeePass 2.35+: Argon2, ChaCha20, inner header, HMAC block stream).
    public static let v4_0 = KDBXVersion(major: 4, minor: 0)
    /// KDBX 4.1 (KeePass 2.48+: group tags, previous parent group, quality check, icon names and times).
    public static let v4_1 = KDBXVersion(major: 4, minor: 1)

    /// Whether this is KDBX 4 or later (binary times, inner header, HMAC block stream).
    public var isKDBX4: Bool { major >= 4 }

    /// Orders versions by their stored u32 (major, then minor).
    public static func < (lhs: KDBXVersion, rhs: KDBXVersion) -> Bool { lhs.rawValue < rhs.rawValue }

    /// "3.1", "4.0", "4.1" (as the vault manifest writes it).
    public var description: String { "\(major).\(minor)" }
}
