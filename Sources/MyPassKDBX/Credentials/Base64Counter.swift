import MyPassBytes

/// Counts the bytes a base64 value decodes to, fed in pieces, without decoding it: the same
/// grammar as `Base64.decode` (XML white space ignored, at most two `=` and nothing but white
/// space after them, no dangling sextet), so that a value skipped here is refused where the full
/// reader refuses it, and advances the inner random stream by exactly as many bytes.
struct Base64Counter {
    private var sextets = 0
    private var padding = 0
    private(set) var isValid = true

    /// Takes the next piece of the value's text.
    mutating func feed(_ text: String) {
        guard isValid else { return }
        for c in text.utf8 {
            switch c {
            case 0x20, 0x09, 0x0A, 0x0D:
                continue
            case UInt8(ascii: "="):
                padding += 1
                if padding > 2 { isValid = false; return }
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"):
                if padding > 0 { isValid = false; return }
                sextets += 1
            default:
                isValid = false
                return
            }
        }
    }

    /// The decoded length in bytes, or `nil` when the text is not base64.
    var byteCount: Int? {
        guard isValid, sextets % 4 != 1 else { return nil }
        return sextets * 6 / 8
    }
}

extension ProtectedValueStream {
    /// Advances the stream by `count` keystream bytes (a skipped protected value), through a
    /// scratch buffer of at most 64 KiB that is wiped afterwards.
    mutating func advance(by count: Int) {
        guard count > 0 else { return }
        var scratch = [UInt8](repeating: 0, count: min(count, 64 * 1024))
        defer { wipe(&scratch) }
        var left = count
        while left > 0 {
            if left < scratch.count { scratch.removeLast(scratch.count - left) }
            apply(to: &scratch)
            left -= scratch.count
        }
    }
}
