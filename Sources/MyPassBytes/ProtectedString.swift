/// Where a ``ProtectedString`` takes the random pad that masks its bytes.
///
/// Every pad must be unpredictable and handed out once. ``SystemPadSource`` draws each pad from
/// the operating system; code that protects many values in a row (reading a vault, importing)
/// passes a source that draws one key and expands it (MyPassCrypto's `ChaCha20PadSource`).
public protocol PadSource {
    /// Overwrites every byte of `buffer` with fresh pad bytes.
    mutating func fill(_ buffer: UnsafeMutableRawBufferPointer)
}

/// Pads straight from the operating system's generator (``SecureRandom``): what a value protected
/// on its own uses.
public struct SystemPadSource: PadSource {
    /// The OS generator.
    public init() {}

    /// Fills `buffer` from ``SecureRandom``.
    public mutating func fill(_ buffer: UnsafeMutableRawBufferPointer) { SecureRandom.fill(buffer) }
}

/// A secret text (a protected field value, a password) kept obfuscated in memory: its UTF-8 bytes
/// XORed with a random pad of the same length drawn for this value, both in one wiping buffer
/// (the masked bytes, then the pad).
///
/// The clear text exists only inside ``withRevealedBytes(_:)`` or as the `String` that
/// ``revealed`` returns on request. Equality compares the clear bytes in constant time.
/// `description` never shows the value.
public struct ProtectedString: Sendable {
    /// `utf8Count` masked bytes followed by their `utf8Count`-byte pad.
    private var storage: SecureBytes

    /// The empty value.
    public init() {
        storage = SecureBytes()
    }

    /// Protects `string`'s UTF-8 bytes, with a pad from the OS. (The `String` passed in is the
    /// caller's to drop.)
    public init(_ string: String) {
        var utf8 = Array(string.utf8)
        self.init(utf8Bytes: utf8)
        wipe(&utf8)
    }

    /// Protects a copy of `bytes` (UTF-8), with a pad from the OS. The caller wipes its own copy.
    public init<C: Collection>(utf8Bytes bytes: C) where C.Element == UInt8 {
        var pads = SystemPadSource()
        self.init(count: bytes.count, pads: &pads) { clear in
            for (i, byte) in bytes.enumerated() { clear[i] = byte }
        }
    }

    /// Takes over an existing secret buffer of UTF-8 bytes, with a pad from the OS.
    public init(secureUTF8 bytes: SecureBytes) {
        var pads = SystemPadSource()
        self.init(secureUTF8: bytes, pads: &pads)
    }

    /// Takes over an existing secret buffer of UTF-8 bytes, with a pad from `pads`.
    public init(secureUTF8 bytes: SecureBytes, pads: inout some PadSource) {
        var value = ProtectedString()
        bytes.withUnsafeBytes { value = ProtectedString(utf8: $0, pads: &pads) }
        self = value
    }

    /// Protects a copy of the UTF-8 bytes in `bytes`, with a pad from `pads`. The caller wipes
    /// its own copy.
    public init(utf8 bytes: UnsafeRawBufferPointer, pads: inout some PadSource) {
        self.init(count: bytes.count, pads: &pads) { clear in
            if let base = bytes.baseAddress, bytes.count > 0 {
                UnsafeMutableRawPointer(clear.baseAddress!).copyMemory(from: base, byteCount: bytes.count)
            }
        }
    }

    /// Draws the pad into the second half of the storage, lets `write` put the clear bytes into
    /// the first half, then masks them in place.
    private init(count: Int, pads: inout some PadSource, _ write: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        guard count > 0 else {
            storage = SecureBytes()
            return
        }
        var buffer = SecureBytes(zeroedCount: 2 * count)
        buffer.withUnsafeMutableBytes { raw in
            pads.fill(UnsafeMutableRawBufferPointer(rebasing: raw[count...]))
            let clear = raw.bindMemory(to: UInt8.self)
            write(UnsafeMutableBufferPointer(rebasing: clear[..<count]))
            for i in 0..<count { clear[i] ^= clear[count &+ i] }
        }
        storage = buffer
    }

    /// Length of the UTF-8 value in bytes.
    public var utf8Count: Int { storage.count / 2 }

    /// Whether the value is empty.
    public var isEmpty: Bool { storage.count == 0 }

    /// Calls `body` with the clear UTF-8 bytes in a scratch buffer that is wiped afterwards.
    public func withRevealedBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        let count = utf8Count
        var clear = [UInt8](repeating: 0, count: count)
        defer { wipe(&clear) }
        storage.withUnsafeBytes { both in
            for i in 0..<count { clear[i] = both[i] ^ both[count &+ i] }
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
