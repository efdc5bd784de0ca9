import MyPassBytes

/// A KeePass time stamp: whole seconds since 0001-01-01T00:00:00Z (proleptic Gregorian, UTC), as
/// .NET `DateTime.Ticks / TicksPerSecond`.
///
/// KDBX 4 stores it as base64 of the little-endian Int64 (`KdbxFile.Write.cs WriteObject(string,
/// DateTime)`); KDBX 3.x and the plain XML export store ISO-8601 UTC (`2026-11-29T22:03:31Z`).
/// Values are kept within .NET's `DateTime` range, 0001-01-01T00:00:00Z ... 9999-12-31T23:59:59Z.
public struct KDBXTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Seconds since 0001-01-01T00:00:00Z.
    public var secondsSinceEpoch: Int64

    /// 0001-01-01T00:00:00Z, the smallest time.
    public static let minimum = KDBXTime(secondsSinceEpoch: 0)
    /// 9999-12-31T23:59:59Z, the largest time (.NET `DateTime.MaxValue` truncated to seconds).
    public static let maximum = KDBXTime(secondsSinceEpoch: 315_537_897_599)
    /// Seconds from 0001-01-01 to the Unix epoch 1970-01-01 (719,162 days).
    public static let unixEpochOffsetSeconds: Int64 = 62_135_596_800

    /// A time from seconds since 0001-01-01T00:00:00Z, clamped to ``minimum`` ... ``maximum``.
    public init(secondsSinceEpoch: Int64) {
        self.secondsSinceEpoch = min(max(secondsSinceEpoch, 0), 315_537_897_599)
    }

    /// A time from seconds since the Unix epoch (1970-01-01T00:00:00Z), clamped.
    public init(unixSeconds: Int64) {
        let (sum, overflow) = unixSeconds.addingReportingOverflow(KDBXTime.unixEpochOffsetSeconds)
        self.init(secondsSinceEpoch: overflow ? (unixSeconds < 0 ? 0 : .max) : sum)
    }

    /// Seconds since the Unix epoch (negative before 1970).
    public var unixSeconds: Int64 { secondsSinceEpoch - KDBXTime.unixEpochOffsetSeconds }

    /// A time from UTC calendar fields; `nil` when a field is out of range (month 1-12, day valid for
    /// the month, hour 0-23, minute 0-59, second 0-59) or the year is outside 1...9999.
    public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1,
              day <= KDBXTime.daysInMonth(year: year, month: month),
              (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
        else { return nil }
        let days = KDBXTime.daysSinceEpoch(year: year, month: month, day: day)
        self.init(secondsSinceEpoch: Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second))
    }

    /// UTC calendar fields of this time.
    public var components: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let days = Int(secondsSinceEpoch / 86_400)
        let rest = Int(secondsSinceEpoch % 86_400)
        let (y, m, d) = KDBXTime.civil(daysSinceEpoch: days)
        return (y, m, d, rest / 3600, rest / 60 % 60, rest % 60)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` (UTC, seconds precision), as KeePass writes KDBX 3.x and the plain XML
    /// export, and as the vault manifest shows times.
    public var iso8601: String {
        let c = components
        func pad(_ v: Int, _ width: Int) -> String {
            let s = String(v)
            return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
        }
        return pad(c.year, 4) + "-" + pad(c.month, 2) + "-" + pad(c.day, 2) + "T" + pad(c.hour, 2) + ":"
            + pad(c.minute, 2) + ":" + pad(c.second, 2) + "Z"
    }

    /// The ISO form.
    public var description: String { iso8601 }

    /// Parses ISO-8601 as KDBX 3.x writers produce it, leniently: `YYYY-MM-DDTHH:MM:SS`, optional
    /// fractional seconds (dropped), then `Z`, a `±HH:MM`/`±HHMM`/`±HH` offset (applied, result in
    /// UTC) or nothing (taken as UTC). A space is accepted for the `T`. `nil` when malformed.
    public init?(iso8601 text: some StringProtocol) {
        let b = Array(text.utf8.drop(while: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }))
        var trimmed = b[...]
        while let last = trimmed.last, last == 0x20 || last == 0x09 || last == 0x0A || last == 0x0D { trimmed.removeLast() }
        var i = trimmed.startIndex
        func number(_ digits: Int) -> Int? {
            guard trimmed.endIndex - i >= digits else { return nil }
            var v = 0
            for k in 0..<digits {
                let c = trimmed[i + k]
                guard c >= 0x30, c <= 0x39 else { return nil }
                v = v * 10 + Int(c - 0x30)
            }
            i += digits
            return v
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < trimmed.endIndex, trimmed[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = number(4), expect(0x2D), let month = number(2), expect(0x2D), let day = number(2) else { return nil }
        var hour = 0, minute = 0, second = 0
        if i < trimmed.endIndex, trimmed[i] == 0x54 || trimmed[i] == 0x74 || trimmed[i] == 0x20 {
            i += 1
            guard let h = number(2), expect(0x3A), let m = number(2) else { return nil }
            hour = h
            minute = m
            if expect(0x3A) {
                guard let s = number(2) else { return nil }
                second = s
                if i < trimmed.endIndex, trimmed[i] == 0x2E || trimmed[i] == 0x2C {
                    i += 1
                    let start = i
                    while i < trimmed.endIndex, trimmed[i] >= 0x30, trimmed[i] <= 0x39 { i += 1 }
                    guard i > start else { return nil }
                }
            }
        }
        var offsetSeconds = 0
        if i < trimmed.endIndex {
            let c = trimmed[i]
            if c == 0x5A || c == 0x7A {
                i += 1
            } else if c == 0x2B || c == 0x2D {
                i += 1
                guard let oh = number(2), oh <= 23 else { return nil }
                var om = 0
                if expect(0x3A) {
                    guard let m = number(2) else { return nil }
                    om = m
                } else if trimmed.endIndex - i == 2, let m = number(2) {
                    om = m
                }
                guard om <= 59 else { return nil }
                offsetSeconds = (oh * 3600 + om * 60) * (c == 0x2D ? -1 : 1)
            } else {
                return nil
            }
        }
        guard i == trimmed.endIndex else { return nil }
        // 24:00:00 and leap second 60 are clamped rather than refused.
        let clampedSecond = min(second, 59)
        if hour == 24, minute == 0, clampedSecond == 0 {
            guard let base = KDBXTime(year: year, month: month, day: day) else { return nil }
            self.init(secondsSinceEpoch: base.secondsSinceEpoch + 86_400 - Int64(offsetSeconds))
            return
        }
        guard let local = KDBXTime(year: year, month: month, day: day, hour: hour, minute: minute, second: clampedSecond)
        else { return nil }
        self.init(secondsSinceEpoch: local.secondsSinceEpoch - Int64(offsetSeconds))
    }

    /// The 8 bytes KDBX 4 stores: the little-endian Int64 seconds.
    public var kdbx4Bytes: [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(8)
        out.appendLittleEndian(secondsSinceEpoch)
        return out
    }

    /// Base64 of ``kdbx4Bytes`` (12 characters), as KDBX 4 writes a time.
    public var kdbx4Base64: String {
        // Written out for the 8-byte case: the writer formats seven times per group and entry.
        let alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
        let value = UInt64(bitPattern: secondsSinceEpoch)
        return String(unsafeUninitializedCapacity: 12) { out in
            alphabet.withUTF8Buffer { table in
                var o = 0
                for group in 0..<3 {
                    var n: UInt32 = 0
                    for k in 0..<3 {
                        let index = group * 3 + k
                        let byte: UInt32 = index < 8 ? UInt32(truncatingIfNeeded: value >> UInt64(8 * index)) & 0xFF : 0
                        n = n << 8 | byte
                    }
                    out[o] = table[Int(n >> 18 & 63)]
                    out[o + 1] = table[Int(n >> 12 & 63)]
                    out[o + 2] = table[Int(n >> 6 & 63)]
                    out[o + 3] = group == 2 ? UInt8(ascii: "=") : table[Int(n & 63)]
                    o += 4
                }
            }
            return 12
        }
    }

    /// A time from the KDBX 4 stored bytes. Like KeePass (`KdbxFile.Read.Streamed.cs ReadTime`), a
    /// value that is not 8 bytes long is zero-padded or truncated to 8 bytes first.
    public init(kdbx4Bytes bytes: some Collection<UInt8>) {
        var value: UInt64 = 0
        for (i, b) in bytes.prefix(8).enumerated() { value |= UInt64(b) << UInt64(8 * i) }
        self.init(secondsSinceEpoch: Int64(bitPattern: value))
    }

    /// A time from the KDBX 4 base64 form (see ``init(kdbx4Bytes:)``); `nil` when not base64.
    public init?(kdbx4Base64 text: some StringProtocol) {
        guard let bytes = try? Base64.decode(text) else { return nil }
        self.init(kdbx4Bytes: bytes)
    }

    /// Earlier times order first.
    public static func < (lhs: KDBXTime, rhs: KDBXTime) -> Bool { lhs.secondsSinceEpoch < rhs.secondsSinceEpoch }

    // MARK: Calendar arithmetic (proleptic Gregorian; H. Hinnant's days-from-civil algorithm)

    static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 0001-01-01 to the given date.
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        // Days since 0000-03-01, shifted to 0001-01-01 (306 days later).
        return era * 146_097 + doe - 306
    }

    /// The date `days` after 0001-01-01.
    static func civil(daysSinceEpoch days: Int) -> (Int, Int, Int) {
        let z = days + 306
        let era = z / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return (y, m, d)
    }
}
