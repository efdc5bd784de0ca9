/// One DER element (ITU-T X.690 §8.1): an identifier octet, a definite length and the contents,
/// as a slice of the input (nothing is copied).
package struct DERElement: Sendable {
    /// The identifier octet: class (bits 8-7), constructed flag (bit 6) and a tag number below 31.
    public let tag: UInt8
    /// The contents octets.
    public let content: ArraySlice<UInt8>
    /// The whole encoding (identifier, length and contents), for callers that keep raw bytes.
    public let encoded: ArraySlice<UInt8>
    /// Offset of the identifier octet from the start of the input the reader was given.
    public let offset: Int

    /// Whether the constructed bit (0x20) is set (SEQUENCE, SET, explicit context tags).
    public var isConstructed: Bool { tag & 0x20 != 0 }
}

/// Identifier octets of the universal and context-specific tags MyPass reads and writes
/// (X.680 §8.4, X.690 §8.1.2).
package enum DERTag {
    /// INTEGER (X.690 §8.3).
    public static let integer: UInt8 = 0x02
    /// BIT STRING (X.690 §8.6), primitive form only in DER.
    public static let bitString: UInt8 = 0x03
    /// OCTET STRING (X.690 §8.7), primitive form only in DER.
    public static let octetString: UInt8 = 0x04
    /// NULL (X.690 §8.8).
    public static let null: UInt8 = 0x05
    /// OBJECT IDENTIFIER (X.690 §8.19).
    public static let objectIdentifier: UInt8 = 0x06
    /// SEQUENCE and SEQUENCE OF, constructed (X.690 §8.9).
    public static let sequence: UInt8 = 0x30
    /// A constructed context-specific tag `[number]` (explicit tagging, X.690 §8.14).
    public static func contextConstructed(_ number: UInt8) -> UInt8 { 0xA0 | (number & 0x1F) }
    /// A primitive context-specific tag `[number]` (implicit tagging of a primitive type).
    public static func contextPrimitive(_ number: UInt8) -> UInt8 { 0x80 | (number & 0x1F) }
}
