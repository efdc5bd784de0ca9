import MyPassBytes

/// A JSON text written as UTF-8 bytes (RFC 8259), commas placed by the writer: enough for the
/// web module's results. Strings are escaped as §7 requires (quote, backslash, controls).
///
/// The text may hold revealed protected values, so it lives in a buffer of its own, not an Array
/// (whose growth and copy-on-write can leave copies in freed memory): growing moves it into a
/// buffer twice as large and zeroes the old one first; `take()` hands the buffer over (the result
/// buffer, which is zeroed when cleared) and `wipe()` zeroes and frees it.
struct JSONWriter {
    private var storage = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
    private var count = 0
    /// Whether the next value in the current array or object needs a comma before it.
    private var needsComma = false

    /// Makes room for `extra` more bytes without leaving a copy of the text in freed memory.
    private mutating func reserve(_ extra: Int) {
        guard count + extra > storage.count else { return }
        let larger = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(2 * storage.count, count + extra, 1024))
        if let old = storage.baseAddress {
            larger.baseAddress!.update(from: old, count: count)
            secureZero(old, count: storage.count)
            storage.deallocate()
        }
        storage = larger
    }

    private mutating func append(_ byte: UInt8) {
        reserve(1)
        storage[count] = byte
        count += 1
    }

    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { for byte in $0 { append(byte) } }
    }

    private mutating func separate() {
        if needsComma { append(UInt8(ascii: ",")) }
        needsComma = true
    }

    /// The text's buffer, handed over (the writer is empty afterwards).
    mutating func take() -> UnsafeMutableBufferPointer<UInt8> {
        let text = UnsafeMutableBufferPointer(rebasing: storage[0..<count])
        storage = UnsafeMutableBufferPointer(start: nil, count: 0)
        count = 0
        return text
    }

    /// Zeroes and frees the text (when it was not taken).
    mutating func wipe() {
        guard let base = storage.baseAddress else { return }
        secureZero(base, count: storage.count)
        storage.deallocate()
        storage = UnsafeMutableBufferPointer(start: nil, count: 0)
        count = 0
    }

    mutating func beginArray() { separate(); append(UInt8(ascii: "[")); needsComma = false }
    mutating func endArray() { append(UInt8(ascii: "]")); needsComma = true }
    mutating func beginObject() { separate(); append(UInt8(ascii: "{")); needsComma = false }
    mutating func endObject() { append(UInt8(ascii: "}")); needsComma = true }

    /// An object key; the value written next belongs to it.
    mutating func key(_ name: String) {
        string(name)
        append(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func string(_ text: String) {
        var copy = text
        copy.withUTF8 { stringBytes(UnsafeRawBufferPointer($0)) }
    }

    /// A string from UTF-8 bytes (a revealed protected value: nothing but this buffer holds it).
    mutating func stringBytes(_ utf8: UnsafeRawBufferPointer) {
        separate()
        reserve(2 + 6 * utf8.count)
        append(UInt8(ascii: "\""))
        let hex: StaticString = "0123456789abcdef"
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                append(UInt8(ascii: "\\"))
                append(byte)
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0..<0x20:
                append("\\u00")
                append(hex.utf8Start[Int(byte >> 4)])
                append(hex.utf8Start[Int(byte & 15)])
            default: append(byte)
            }
        }
        append(UInt8(ascii: "\""))
    }

    mutating func strings(_ values: [String]) {
        beginArray()
        for value in values { string(value) }
        endArray()
    }

    mutating func number(_ value: Int) {
        separate()
        for byte in String(value).utf8 { append(byte) }
    }

    mutating func bool(_ value: Bool) {
        separate()
        if value { append("true") } else { append("false") }
    }

    mutating func null() {
        separate()
        append("null")
    }
}
