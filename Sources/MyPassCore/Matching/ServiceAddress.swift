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
    public init?(parsing text: String) {
        var rest = Substring(text).drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        while let last = rest.last, last == " " || last == "\t" || last == "\n" || last == "\r" { rest = rest.dropLast() }
        guard !rest.isEmpty else { return nil }
        var scheme: String?
        if let range = rest.firstRange(of: "://") {
            let candidate = rest[rest.startIndex..<range.lowerBound]
            // A scheme is a letter followed by letters, digits, + - . (RFC 3986 §3.1).
            guard let first = candidate.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII,
                  candidate.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic
                      || ("0"..."9").contains($0) || $0 == "+" || $0 == "-" || $0 == ".") })
            else { return nil }
            scheme = candidate.lowercased()
            rest = rest[range.upperBound...]
        } else if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
        }
        // The authority ends at the first path, query or fragment delimiter.
        let authority = rest.prefix(while: { $0 != "/" && $0 != "?" && $0 != "#" && $0 != "\\" })
        var hostPort = authority
        if let at = authority.lastIndex(of: "@") { hostPort = authority[authority.index(after: at)...] }
        var hostText: Substring
        var portText: Substring?
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { return nil }
            hostText = hostPort[hostPort.startIndex...close]
            let after = hostPort[hostPort.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portText = after.dropFirst()
            }
        } else if let colon = hostPort.lastIndex(of: ":") {
            hostText = hostPort[hostPort.startIndex..<colon]
            portText = hostPort[hostPort.index(after: colon)...]
        } else {
            hostText = hostPort
        }
        var port: Int?
        if let portText, !portText.isEmpty {
            guard portText.utf8.count <= 5, portText.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
                  let value = Int(portText), value <= 65535 else { return nil }
            port = value
        }
        guard let host = HostName(String(hostText)) else { return nil }
        self.init(scheme: scheme, host: host, explicitPort: port)
    }
}
