import MyPassBytes

/// A password as the estimator reads it: its Unicode scalars (what zxcvbn indexes, as Python's
/// `str` and JavaScript's code points do) and their lower-case forms, in arrays the estimator
/// wipes when it is done. Matches refer to it by scalar offsets, never by copied text.
final class PasswordText {
    /// The scalar values, in order.
    private(set) var scalars: [UInt32]
    /// `scalars` lower-cased one by one (a scalar whose lower case is several scalars, as `İ`,
    /// stays as it is, so that offsets line up).
    private(set) var lowered: [UInt32]

    var count: Int { scalars.count }

    /// The scalars of `scalars`, taken over (the caller wipes its own copies, if any).
    init(scalars: [UInt32]) {
        self.scalars = scalars
        lowered = scalars.map(PasswordText.lowercase)
    }

    /// The scalars of UTF-8 `bytes` (an ill-formed sequence decodes as U+FFFD, as a `String` would),
    /// at most `limit` of them.
    convenience init(utf8 bytes: UnsafeRawBufferPointer, limit: Int) {
        var out: [UInt32] = []
        out.reserveCapacity(min(bytes.count, limit))
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        decode: while out.count < limit {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): out.append(scalar.value)
            case .error: out.append(0xFFFD)
            case .emptyInput: break decode
            }
        }
        self.init(scalars: out)
    }

    /// A new text of the scalars `range` of this one (the repeat matcher's base token).
    func slice(_ range: Range<Int>) -> PasswordText {
        PasswordText(scalars: Array(scalars[range]))
    }

    /// The same text with `substitutions` applied (l33t: `4` read as `a`); offsets are unchanged.
    func substituting(_ substitutions: [(from: UInt32, to: UInt32)]) -> PasswordText {
        PasswordText(scalars: scalars.map { scalar in
            substitutions.first { $0.from == scalar }?.to ?? scalar
        })
    }

    /// The text reversed.
    func reversed() -> PasswordText {
        PasswordText(scalars: scalars.reversed())
    }

    /// Zeroes both arrays (they held the password).
    func wipe() {
        MyPassBytes.wipe(&scalars)
        MyPassBytes.wipe(&lowered)
    }

    deinit { wipe() }

    /// The text of `range` as a `String`, for display only (`mypass estimate -a` shows the tokens
    /// of a password its user typed).
    func string(_ range: Range<Int>) -> String {
        var out = String.UnicodeScalarView()
        for value in scalars[range] { out.append(Unicode.Scalar(value) ?? "\u{FFFD}") }
        return String(out)
    }

    // MARK: Character classes (zxcvbn's regular expressions, as Python's `re` reads them on `str`)

    /// The lower case of one scalar, when it is one scalar; else the scalar itself.
    static func lowercase(_ value: UInt32) -> UInt32 {
        if value < 0x80 {
            return value >= 0x41 && value <= 0x5A ? value + 0x20 : value
        }
        guard let scalar = Unicode.Scalar(value), scalar.properties.changesWhenLowercased else { return value }
        let mapping = scalar.properties.lowercaseMapping.unicodeScalars
        return mapping.count == 1 ? mapping.first!.value : value
    }

    /// Whether `value` is `A`-`Z`.
    static func isASCIIUpper(_ value: UInt32) -> Bool { value >= 0x41 && value <= 0x5A }

    /// Whether `value` is `a`-`z`.
    static func isASCIILower(_ value: UInt32) -> Bool { value >= 0x61 && value <= 0x7A }

    /// The value of a decimal digit (`\d` in Python matches every Unicode decimal digit), or nil.
    static func digitValue(_ value: UInt32) -> Int? {
        if value >= 0x30 && value <= 0x39 { return Int(value - 0x30) }
        guard value >= 0x80, let scalar = Unicode.Scalar(value), scalar.properties.numericType == .decimal,
              let number = scalar.properties.numericValue
        else { return nil }
        return Int(number)
    }

    /// Whether `value` is white space (`\s`).
    static func isSpace(_ value: UInt32) -> Bool {
        if value < 0x80 { return value == 0x20 || (value >= 0x09 && value <= 0x0D) || (value >= 0x1C && value <= 0x1F) }
        return Unicode.Scalar(value)?.properties.isWhitespace ?? false
    }

    /// Whether `value` is an upper-case letter (Python's `str.isupper` on one character).
    static func isUpper(_ value: UInt32) -> Bool {
        if value < 0x80 { return isASCIIUpper(value) }
        guard let scalar = Unicode.Scalar(value) else { return false }
        return scalar.properties.isUppercase
    }

    /// Whether `value` is a lower-case letter (Python's `str.islower` on one character).
    static func isLower(_ value: UInt32) -> Bool {
        if value < 0x80 { return isASCIILower(value) }
        return Unicode.Scalar(value)?.properties.isLowercase ?? false
    }
}
