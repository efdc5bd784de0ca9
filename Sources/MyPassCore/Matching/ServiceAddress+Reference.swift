extension ServiceAddress {
    /// A scalar a URI scheme may hold after its first letter: ASCII letters, digits, + - .
    private static func isSchemeScalar(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.isASCII else { return false }
        if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) { return true }
        return scalar == "+" || scalar == "-" || scalar == "."
    }

    /// The readable reference parser that ``init(parsing:)`` replaced (Character scanning of a
    /// `Substring`): same results for every input, `nil`s included. ``init(parsing:)`` still
    /// takes this path for text with a non-ASCII byte, where Characters (grapheme clusters) and
    /// bytes part ways (`/` followed by U+0301 is one Character, not a delimiter).
    package static func referenceParse(_ text: String) -> ServiceAddress? {
        var rest = Substring(text).drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        while let last = rest.last, last == " " || last == "\t" || last == "\n" || last == "\r" { rest = rest.dropLast() }
        guard !rest.isEmpty else { return nil }
        var scheme: String?
        if let separator = rest.indices.first(where: { rest[$0...].hasPrefix("://") }) {
            let candidate = rest[rest.startIndex..<separator]
            // A scheme is a letter followed by letters, digits, + - . (RFC 3986 §3.1).
            guard let first = candidate.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII,
                  candidate.unicodeScalars.allSatisfy(isSchemeScalar)
            else { return nil }
            scheme = candidate.lowercased()
            rest = rest[rest.index(separator, offsetBy: 3)...]
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
        guard let host = HostName(referenceParsing: String(hostText)) else { return nil }
        return ServiceAddress(scheme: scheme, host: host, explicitPort: port)
    }
}
