extension ServiceAddress {
    /// The default port of a scheme (http/ws 80, https/wss 443, ftp 21), or `nil` for schemes
    /// without one. Schemes are compared in lower case, as ``init(parsing:)`` stores them.
    public static func defaultPort(forScheme scheme: String) -> Int? {
        // `lowercased()` only when needed: schemes from ``init(parsing:)`` are lower case already.
        let needsLowering = scheme.utf8.contains { $0 &- UInt8(ascii: "A") < 26 || $0 >= 0x80 }
        switch needsLowering ? scheme.lowercased() : scheme {
        case "http", "ws": return 80
        case "https", "wss": return 443
        case "ftp": return 21
        default: return nil
        }
    }

    /// The port written, unless it is the scheme's default (`https://example.com:443` has none:
    /// it is `https://example.com`). A written port without a scheme is always kept.
    public var nonDefaultPort: Int? {
        guard let explicitPort else { return nil }
        guard let scheme, Self.defaultPort(forScheme: scheme) == explicitPort else { return explicitPort }
        return nil
    }

    /// The port a service is on, taking a service identifier without a scheme as https (the
    /// system hands over bare domains for web pages): the written port, else the default of the
    /// scheme (https when there is none).
    public var servicePort: Int? {
        explicitPort ?? Self.defaultPort(forScheme: scheme ?? "https")
    }

    /// Whether a service is on its scheme's default port, a service without a scheme being taken
    /// as https: no port written, or the default one written (`example.com:443`, `HTTP://x:80`).
    public var isServiceOnDefaultPort: Bool {
        guard let explicitPort else { return true }
        return Self.defaultPort(forScheme: scheme ?? "https") == explicitPort
    }

    /// The port rule of credential matching, with default ports spelled out or not alike on both
    /// sides: an entry port that is not its scheme's default must be the service's port; an entry
    /// without a port (or with its scheme's default) matches a service on its default port, or
    /// one on the very port the entry spells out.
    func portsAgree(withService service: ServiceAddress) -> Bool {
        if let port = nonDefaultPort { return service.servicePort == port }
        if service.isServiceOnDefaultPort { return true }
        if let written = explicitPort { return service.servicePort == written }
        return false
    }
}
