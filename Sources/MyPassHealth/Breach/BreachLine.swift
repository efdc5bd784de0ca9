/// A SHA-1 hash as a 160-bit number, ordered as its upper-case hex text is (byte order), so that
/// lines of a Pwned Passwords file compare as the file is sorted.
struct HashKey: Comparable, Sendable {
    var high: UInt64
    var middle: UInt64
    var low: UInt32

    /// The 20-byte digest at `digest` (big-endian, as SHA-1 prints).
    init(digest: UnsafeRawBufferPointer) {
        precondition(digest.count == 20, "a SHA-1 digest is 20 bytes")
        var high: UInt64 = 0, middle: UInt64 = 0, low: UInt32 = 0
        for i in 0..<8 { high = high << 8 | UInt64(digest[i]) }
        for i in 8..<16 { middle = middle << 8 | UInt64(digest[i]) }
        for i in 16..<20 { low = low << 8 | UInt32(digest[i]) }
        self.high = high
        self.middle = middle
        self.low = low
    }

    init(high: UInt64, middle: UInt64, low: UInt32) {
        self.high = high
        self.middle = middle
        self.low = low
    }

    static func < (a: HashKey, b: HashKey) -> Bool {
        if a.high != b.high { return a.high < b.high }
        if a.middle != b.middle { return a.middle < b.middle }
        return a.low < b.low
    }

    /// The first five hex digits (the k-anonymity range prefix), 20 bits.
    var rangePrefix: Int { Int(high >> 44) }
}

/// One `HASH:COUNT` line of a Pwned Passwords file, parsed in place.
enum BreachLine {
    /// The longest line accepted, in bytes (a real one is at most 40 + 1 + 10 digits + CR LF).
    static let maximumLength = 128

    /// The parts of a well-formed line.
    struct Parsed {
        var key: HashKey
        var count: Int64
    }

    /// Parses `line` (without its line feed; a final carriage return is allowed): `hexDigits` hex
    /// digits (40 for a full SHA-1, 35 for a range file's suffix, placed after `prefix`'s 20 bits),
    /// a colon, and a decimal count. Upper and lower case hex are both accepted.
    /// - Returns: the hash and count, or the reason the line is malformed (never quoting it).
    static func parse(_ line: UnsafeRawBufferPointer, hexDigits: Int, prefix: Int = 0) -> Result<Parsed, LineProblem> {
        var end = line.count
        if end > 0, line[end - 1] == 0x0D { end -= 1 }
        guard end > 0 else { return .failure(.empty) }
        var high: UInt64 = 0, middle: UInt64 = 0, low: UInt32 = 0
        // A suffix continues the prefix's 20 bits.
        var nibbles = 0
        func push(_ nibble: UInt8) {
            high = high << 4 | middle >> 60
            middle = middle << 4 | UInt64(low >> 28)
            low = low << 4 | UInt32(nibble)
            nibbles += 1
        }
        if hexDigits == 35 {
            for shift in stride(from: 16, through: 0, by: -4) { push(UInt8((prefix >> shift) & 0xF)) }
        }
        var index = 0
        while index < end, let nibble = hexValue(line[index]) {
            guard index < hexDigits else { return .failure(.badHash(digits: index + 1)) }
            push(nibble)
            index += 1
        }
        guard index == hexDigits else {
            if index == 32, hexDigits == 40 { return .failure(.ntlm) }
            return .failure(.badHash(digits: index))
        }
        guard index < end, line[index] == UInt8(ascii: ":") else { return .failure(.noColon) }
        index += 1
        guard index < end else { return .failure(.badCount) }
        var count: Int64 = 0
        while index < end {
            let byte = line[index]
            guard byte >= 0x30, byte <= 0x39 else { return .failure(.badCount) }
            let (times, overflow1) = count.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int64(byte - 0x30))
            guard !overflow1, !overflow2 else { return .failure(.badCount) }
            count = sum
            index += 1
        }
        return .success(Parsed(key: HashKey(high: high, middle: middle, low: low), count: count))
    }

    /// Why a line is not `HASH:COUNT`, in words that never quote it.
    enum LineProblem: Error {
        case empty, ntlm, noColon, badCount
        case badHash(digits: Int)

        func reason(hexDigits: Int) -> String {
            let shape = hexDigits == 40 ? "HASH:COUNT (40 hex digits of SHA-1, a colon, a count)"
                : "SUFFIX:COUNT (35 hex digits, a colon, a count)"
            switch self {
            case .empty: return "an empty line where \(shape) was expected"
            case .ntlm: return "32 hex digits: this is the NTLM list; the SHA-1 list is needed"
            case .noColon: return "no colon after the hash: expected \(shape)"
            case .badCount: return "the count is not a decimal number: expected \(shape)"
            case .badHash(let digits): return "the hash is not \(hexDigits) hex digits (\(digits) read): expected \(shape)"
            }
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }
}
