import MyPassBytes

/// One string field of an entry (`<String><Key>..</Key><Value Protected="True">..</Value></String>`).
///
/// A protected field keeps its value in a ``ProtectedString`` (masked in memory, constant-time
/// equality); an unprotected one in a plain `String`. ``isProtected`` is the flag as read, and
/// decides whether the writer masks the value with the inner random stream.
public struct EntryField: Equatable, Sendable {
    /// The field name (`Title`, `UserName`, `Password`, `URL`, `Notes`, or a custom name).
    public var key: String
    /// Unknown child elements and comments of the `<String>`, kept in place.
    public var unknownElements: [UnknownElement] = []
    private var storage: Storage

    private enum Storage: Equatable, Sendable {
        case plain(String)
        case protected(ProtectedString)
    }

    /// A field with a clear value; protected ones are stored masked.
    public init(key: String, value: String, isProtected: Bool = false) {
        self.key = key
        storage = isProtected ? .protected(ProtectedString(value)) : .plain(value)
    }

    /// A protected field taking over an already protected value.
    public init(key: String, protectedValue: ProtectedString) {
        self.key = key
        storage = .protected(protectedValue)
    }

    /// Whether the value is protected (written with `Protected="True"`, masked by the inner stream).
    /// Setting it converts the storage.
    public var isProtected: Bool {
        get { if case .protected = storage { return true } else { return false } }
        set {
            guard newValue != isProtected else { return }
            switch storage {
            case .plain(let text): storage = .protected(ProtectedString(text))
            case .protected(let secret): storage = .plain(secret.revealed)
            }
        }
    }

    /// The value as clear text (reveals a protected value; use where it is really shown or used).
    /// Setting it keeps the protection flag.
    public var value: String {
        get {
            switch storage {
            case .plain(let text): return text
            case .protected(let secret): return secret.revealed
            }
        }
        set {
            storage = isProtected ? .protected(ProtectedString(newValue)) : .plain(newValue)
        }
    }

    /// The value as a ``ProtectedString`` (a masked copy for plain fields). Setting it keeps the
    /// protection flag.
    public var protectedValue: ProtectedString {
        get {
            switch storage {
            case .plain(let text): return ProtectedString(text)
            case .protected(let secret): return secret
            }
        }
        set {
            storage = isProtected ? .protected(newValue) : .plain(newValue.revealed)
        }
    }

    /// Length of the value in UTF-8 bytes, without revealing it.
    public var utf8Count: Int {
        switch storage {
        case .plain(let text): return text.utf8.count
        case .protected(let secret): return secret.utf8Count
        }
    }

    /// Length of the value in UTF-16 code units (what .NET's `String.Length` counts), without
    /// revealing it as text.
    public var utf16Count: Int {
        switch storage {
        case .plain(let text): return text.utf16.count
        case .protected:
            return withUTF8Bytes { bytes in
                // One unit per UTF-8 lead byte, two for a 4-byte sequence (a surrogate pair).
                var units = 0
                for byte in bytes where byte & 0xC0 != 0x80 { units += byte >= 0xF0 ? 2 : 1 }
                return units
            }
        }
    }

    /// Whether `other` holds the same value, byte for byte in UTF-8 (protection flags aside), as
    /// `protectedValue == other.protectedValue` says, without masking a copy of a plain value.
    /// Constant time in the bytes when either value is protected; two plain values (not secret)
    /// compare directly.
    public func hasSameValue(as other: EntryField) -> Bool {
        if case .plain(let a) = storage, case .plain(let b) = other.storage { return a.utf8.elementsEqual(b.utf8) }
        return withUTF8Bytes { a in other.withUTF8Bytes { b in constantTimeEquals(a, b) } }
    }

    /// Calls `body` with the value's UTF-8 bytes (a wiped scratch copy for protected values).
    public func withUTF8Bytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        switch storage {
        case .plain(let text):
            var copy = text
            // `String.withUTF8` rethrows untyped errors: carry the typed one out in a `Result`.
            let result = copy.withUTF8 { bytes in Result { () throws(E) -> R in try body(UnsafeRawBufferPointer(bytes)) } }
            return try result.get()
        case .protected(let secret):
            return try secret.withRevealedBytes(body)
        }
    }
}

extension EntryField: CustomStringConvertible {
    /// The key and, for unprotected fields only, the value.
    public var description: String {
        isProtected ? "\(key): <protected, \(utf8Count) bytes>" : "\(key): \(value)"
    }
}
