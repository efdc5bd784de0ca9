/// A secret text (a protected field value, a password) kept obfuscated in memory: its UTF-8 bytes
/// XORed with a random pad of the same length drawn for this value, both in wiping storage.
///
/// The clear text exists only inside ``withRevealedBytes(_:)`` or as the `String` that
/// ``revealed`` returns on request. Equality compares the clear bytes in constant time.
/// `description` never shows the value.
public struct ProtectedString: Sendable {
    private var masked: SecureBytes
    private var pad: SecureBytes

    /// The empty value.
    public init() {
        masked = SecureBytes()
        pad = SecureBytes()
    }

    /// Protects `string`'s UTF-8 bytes. (The `String` passed in is the caller's to drop.)
    public init(_ string: String) {
        var utf8 = Array(string.utf8)
        self.init(utf8Bytes: utf8)
        wipe(&utf8)
    }

    /// Protects a copy of `bytes` (UTF-8). The caller wipes its own copy.
    public init<C: Collection>(utf8Bytes bytes: C) where C.Element == UInt8 {
        let count = bytes.count
        var padBytes = SecureRandom.bytes(count: count)
        var maskedBytes = [UInt8](repeating: 0, count: count)
        for (i, byte) in bytes.enumerated() { maskedBytes[i] = byte ^ padBytes[i] }
        pad = SecureBytes(padBytes)
        masked = SecureBytes(maskedBytes)
        wipe(&padBytes)
        wipe(&maskedBytes)
    }

    /// Takes over an existing secret buffer of UTF-8 bytes.
    public init(secureUTF8 bytes: SecureBytes) {
        let count = bytes.count
        var maskedBuffer = SecureBytes(zeroedCount: count)
        // Drawn straight into its wiping storage: a temporary array would be freed unwiped.
        var padBuffer = SecureBytes(zeroedCount: count)
        padBuffer.withUnsafeMutableBytes { SecureRandom.fill($0) }
        padBuffer.withUnsafeMutableBytes { p in
            maskedBuffer.withUnsafeMutableBytes { m in
                bytes.withUnsafeBytes { b in
                    for i in 0..<count { m[i] = b[i] ^ p[i] }
                }
            }
        }
        masked = maskedBuffer
        pad = padBuffer
    }

    /// Length of the UTF-8 value in bytes.
    public var utf8Count: Int { masked.count }

    /// Whether the value is empty.
    public var isEmpty: Bool { masked.count == 0 }

    /// Calls `body` with the clear UTF-8 bytes in a scratch buffer that is wiped afterwards.
    public func withRevealedBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        var clear = [UInt8](repeating: 0, count: masked.count)
        defer { wipe(&clear) }
        masked.withUnsafeBytes { m in
            pad.withUnsafeBytes { p in
                for i in 0..<m.count { clear[i] = m[i] ^ p[i] }
            }
        }
        return try clear.withUnsafeBufferPointer { (bytes) throws(E) -> R in try body(UnsafeRawBufferPointer(bytes)) }
    }

    /// The clear UTF-8 bytes in a wiping buffer.
    public var revealedBytes: SecureBytes { withRevealedBytes { SecureBytes($0) } }

    /// The clear text. Call only where the value is really shown or used.
    public var revealed: String { withRevealedBytes { String(decoding: $0, as: UTF8.self) } }
}

extension ProtectedString: Equatable {
    /// Constant-time comparison of the clear bytes.
    public static func == (lhs: ProtectedString, rhs: ProtectedString) -> Bool {
        lhs.withRevealedBytes { a in rhs.withRevealedBytes { b in constantTimeEquals(a, b) } }
    }
}

extension ProtectedString: CustomStringConvertible, CustomDebugStringConvertible {
    /// Never reveals the value.
    public var description: String { "ProtectedString(\(utf8Count) bytes)" }
    /// Same as ``description``: never reveals the value.
    public var debugDescription: String { description }
}

extension ProtectedString: ExpressibleByStringLiteral {
    /// A protected string from a literal (tests and defaults; a literal is not a secret).
    public init(stringLiteral value: String) { self.init(value) }
}
