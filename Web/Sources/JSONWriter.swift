/// A JSON text written as UTF-8 bytes (RFC 8259), commas placed by the writer: enough for the
/// web module's results. Strings are escaped as §7 requires (quote, backslash, controls).
///
/// The text may hold revealed protected values, so its storage never grows the Array way (which
/// frees the old storage as it is): `reserve(_:)` moves it into a buffer twice as large and zeroes
/// the old one first, and `wipe()` zeroes the last one.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    /// Whether the next value in the current array or object needs a comma before it.
    private var needsComma = false

    /// Makes room for `extra` more bytes without leaving a copy of the text in freed memory.
    private mutating func reserve(_ extra: Int) {
        guard bytes.count + extra > bytes.capacity else { return }
        var larger: [UInt8] = []
        larger.reserveCapacity(max(2 * bytes.capacity, bytes.count + extra, 1024))
        larger.append(contentsOf: bytes)
        bytes.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        bytes = larger
    }

    private mutating func separate() {
        reserve(8)
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
    }

    mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); needsComma = false }
    mutating func endArray() { reserve(1); bytes.append(UInt8(ascii: "]")); needsComma = true }
    mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); needsComma = false }
    mutating func endObject() { reserve(1); bytes.append(UInt8(ascii: "}")); needsComma = true }

    /// An object key; the value written next belongs to it.
    mutating func key(_ name: String) {
        string(name)
        reserve(1)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func string(_ text: String) {
        var copy = text
        copy.withUTF8 { stringBytes(UnsafeRawBufferPointer($0)) }
    }

    /// A string from UTF-8 bytes (a revealed protected value: nothing but this buffer holds it).
    mutating func stringBytes(_ utf8: UnsafeRawBufferPointer) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        let hex = Array("0123456789abcdef".utf8)
        reserve(2 + 6 * utf8.count)
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(byte)
            case 0x0A: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "t"))
            case 0..<0x20:
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 15)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func strings(_ values: [String]) {
        beginArray()
        for value in values { string(value) }
        endArray()
    }

    mutating func number(_ value: Int) {
        separate()
        reserve(24)
        bytes.append(contentsOf: Array(String(value).utf8))
    }

    mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: Array((value ? "true" : "false").utf8))
    }

    mutating func null() {
        separate()
        bytes.append(contentsOf: Array("null".utf8))
    }

    /// Zeroes the text (it may hold revealed values) before it goes.
    mutating func wipe() {
        bytes.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        bytes = []
    }
}
