/// The parts of a URL (or a bare domain, or `host:port`) that credential matching compares: the
/// scheme if any, the host in ASCII form, and the port.
///
/// Parsing is deliberately small and strict: anything that does not give a clean host yields
/// `nil`, and such an entry URL never matches anything.
public struct ServiceAddress: Hashable, Sendable {
    /// The lower-case scheme (`https`), or `nil` for `example.com:1234`.
    public let scheme: String?
    /// The normalised host.
    public let host: HostName
    /// The port written in the text, or `nil` when none was written.
    public let explicitPort: Int?

    /// The port in effect: the written one, else the scheme's default (http/ws 80, https/wss 443,
    /// ftp 21), else `nil`.
    public var effectivePort: Int? {
        if let explicitPort { return explicitPort }
        switch scheme {
        case "http", "ws": return 80
        case "https", "wss": return 443
        case "ftp": return 21
        default: return nil
        }
    }

    /// Whether the port in effect is only implied: none written, or the written one is the
    /// scheme's default (`https://example.com:443`).
    public var hasDefaultPort: Bool {
        guard let explicitPort else { return true }
        let implied = ServiceAddress(scheme: scheme, host: host, explicitPort: nil).effectivePort
        return implied == explicitPort
    }

    /// Creates an address from its parts.
    public init(scheme: String?, host: HostName, explicitPort: Int?) {
        self.scheme = scheme
        self.host = host
        self.explicitPort = explicitPort
    }

    /// Parses `https://user@Example.com:8443/path?q#f`, `//example.com`, `example.com:1234/x`,
    /// `[::1]:8080` or a bare domain; `nil` when there is no usable host or the port is not a
    /// number in 0...65535.
    ///
    /// All-ASCII text is read as bytes (no `Substring`, one string for the host, none when it
    /// fits a small string); text with a non-ASCII byte takes the Character path
    /// (`referenceParse(_:)`), where grapheme clusters decide what a delimiter is.
    public init?(parsing text: String) {
        var copy = text
        let parsed: ServiceAddress? = copy.withUTF8 { bytes in
            HostName.isASCII(bytes) ? ServiceAddress.parseASCII(bytes) : ServiceAddress.referenceParse(text)
        }
        guard let parsed else { return nil }
        self = parsed
    }

    /// The ASCII fast path of ``init(parsing:)``; `bytes` are all below 0x80.
    private static func parseASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> ServiceAddress? {
        let cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == lf || byte == cr }
        // Trim white space Characters; CR LF is one Character, equal to none of them, so it stays.
        var low = 0, high = bytes.count
        while low < high && isSpace(bytes[low]) {
            if bytes[low] == cr && low + 1 < high && bytes[low + 1] == lf { break }
            low += 1
        }
        while high > low && isSpace(bytes[high - 1]) {
            if bytes[high - 1] == lf && high - 2 >= low && bytes[high - 2] == cr { break }
            high -= 1
        }
        guard low < high else { return nil }
        let colon = UInt8(ascii: ":"), slash = UInt8(ascii: "/")
        var scheme: String?
        var separator = low
        while separator + 2 < high
                && !(bytes[separator] == colon && bytes[separator + 1] == slash && bytes[separator + 2] == slash) {
            separator += 1
        }
        if separator + 2 < high {
            // A scheme is a letter followed by letters, digits, + - . (RFC 3986 §3.1).
            func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- UInt8(ascii: "a") < 26 }
            guard separator > low, isLetter(bytes[low]) else { return nil }
            for index in low..<separator {
                let byte = bytes[index]
                guard isLetter(byte) || byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: "+")
                        || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") else { return nil }
            }
            let length = separator - low
            scheme = String(unsafeUninitializedCapacity: length) { out in
                for offset in 0..<length {
                    let byte = bytes[low + offset]
                    out[offset] = byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
                }
                return length
            }
            low = separator + 3
        } else if high - low >= 2 && bytes[low] == slash && bytes[low + 1] == slash {
            low += 2
        }
        // The authority ends at the first path, query or fragment delimiter.
        var authorityEnd = low
        while authorityEnd < high {
            let byte = bytes[authorityEnd]
            if byte == slash || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") || byte == UInt8(ascii: "\\") { break }
            authorityEnd += 1
        }
        var hostStart = low
        var index = authorityEnd
        while index > low {
            index -= 1
            if bytes[index] == UInt8(ascii: "@") { hostStart = index + 1; break }
        }
        var hostEnd = authorityEnd, portStart = authorityEnd
        if hostStart < authorityEnd && bytes[hostStart] == UInt8(ascii: "[") {
            var close = hostStart
            while close < authorityEnd && bytes[close] != UInt8(ascii: "]") { close += 1 }
            guard close < authorityEnd else { return nil }
            hostEnd = close + 1
            if hostEnd < authorityEnd {
                guard bytes[hostEnd] == colon else { return nil }
                portStart = hostEnd + 1
            }
        } else {
            index = authorityEnd
            while index > hostStart {
                index -= 1
                if bytes[index] == colon { hostEnd = index; portStart = index + 1; break }
            }
        }
        var port: Int?
        if portStart < authorityEnd {
            guard authorityEnd - portStart <= 5 else { return nil }
            var value = 0
            for index in portStart..<authorityEnd {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value &* 10 &+ Int(digit)
            }
            guard value <= 65535 else { return nil }
            port = value
        }
        guard let host = HostName.parseASCII(bytes, from: hostStart, to: hostEnd) else { return nil }
        return ServiceAddress(scheme: scheme, host: host, explicitPort: port)
    }
}
