import MyPassBytes

/// Reads an entry's OTP settings from whichever fields a client stored them in.
///
/// Precedence follows KeePassXC (`Entry::updateTotp`): `TOTP Settings` (with `TOTP Seed`) first,
/// then `otp`, then — beyond KeePassXC — a lone `TOTP Seed`, KeePass's `TimeOtp-*` and finally
/// `HmacOtp-*`. Unlike KeePassXC, digits and period are honoured as written (KeePassXC clamps the
/// period to 60 s and falls back to defaults on unreadable values); anything unreadable is an error
/// that names the field.
public enum OTPParser {
    /// The OTP parameters stored in an entry's fields, `nil` when it has none.
    ///
    /// - Parameter field: returns the clear value of the field with the given name, or `nil`.
    /// - Throws: ``CoreError/Code/invalidOTP`` with ``CoreError/location`` naming the field.
    public static func parameters(field: (String) -> String?) throws(CoreError) -> OTPParameters? {
        typealias F = OTPFieldNames
        if let settings = field(F.legacySettings) {
            guard let seed = field(F.legacySeed) else {
                throw CoreError(.invalidOTP, "TOTP Settings without a TOTP Seed", location: F.legacySeed)
            }
            return try legacy(seed: seed, settings: settings)
        }
        if let otp = field(F.otp) {
            return try parse(otp, fieldName: F.otp)
        }
        if let seed = field(F.legacySeed) {
            if seed.trimmed.lowercased().hasPrefix("otpauth:") { return try parse(seed, fieldName: F.legacySeed) }
            return try legacy(seed: seed, settings: nil)
        }
        if let secret = try keePassSecret(prefix: "TimeOtp", field: field) {
            let digits = try integer(field(F.timeLength), default: 6, range: 1...10, fieldName: F.timeLength)
            let period = try integer(field(F.timePeriod), default: 30, range: 1...Int(Int32.max), fieldName: F.timePeriod)
            var algorithm = OTPAlgorithm.sha1
            if let name = field(F.timeAlgorithm), !name.trimmed.isEmpty {
                guard let parsed = OTPAlgorithm(name: name.trimmed) else {
                    throw CoreError(.invalidOTP, "unknown algorithm", location: F.timeAlgorithm)
                }
                algorithm = parsed
            }
            return OTPParameters(secret: secret, algorithm: algorithm, encoding: .decimal(digits: digits),
                                 kind: .totp(periodSeconds: period), storage: .keePassTimeOtp)
        }
        if let secret = try keePassSecret(prefix: "HmacOtp", field: field) {
            let counter = try counterValue(field(F.hmacCounter), fieldName: F.hmacCounter)
            return OTPParameters(secret: secret, algorithm: .sha1, encoding: .decimal(digits: 6),
                                 kind: .hotp(counter: counter), storage: .keePassHmacOtp)
        }
        return nil
    }

    /// Parses one OTP field value: an `otpauth://totp|hotp|steam/...` URI, KeeOtp's
    /// `key=...&size=...&step=...` form, or a bare Base32 secret (TOTP, SHA-1, 6 digits, 30 s, as
    /// KeePassXC reads it; RFC 4648 section 6 alphabet, spaces and dashes ignored).
    ///
    /// - Throws: ``CoreError/Code/invalidOTP`` naming `fieldName`.
    public static func parse(_ text: String, fieldName: String = OTPFieldNames.otp) throws(CoreError) -> OTPParameters {
        let value = text.trimmed
        if value.lowercased().hasPrefix("otpauth://") {
            return try otpauth(value, fieldName: fieldName)
        }
        let query = queryItems(value)
        if query["key"] != nil {
            return try keeOtp(query, fieldName: fieldName)
        }
        // KeePassXC (`Totp::parseSettings`) takes anything else as a bare secret with the defaults.
        if !value.isEmpty, let secret = Base32.decode(value), !secret.isEmpty {
            return OTPParameters(secret: SecureBytes(secret), algorithm: .sha1, encoding: .decimal(digits: 6),
                                 kind: .totp(periodSeconds: 30), storage: .bareSecret(field: fieldName))
        }
        throw CoreError(.invalidOTP, "neither an otpauth:// URI, key=... settings nor a Base32 secret", location: fieldName)
    }

    // MARK: - Formats

    /// `otpauth://TYPE/LABEL?secret=...&algorithm=...&digits=...&period=...&counter=...&encoder=steam`
    /// (Google Authenticator key URI format).
    private static func otpauth(_ uri: String, fieldName: String) throws(CoreError) -> OTPParameters {
        let afterScheme = uri.dropFirst("otpauth://".count)
        let type = afterScheme.prefix(while: { $0 != "/" && $0 != "?" }).lowercased()
        let query: [String: String]
        if let mark = afterScheme.firstIndex(of: "?") {
            query = queryItems(String(afterScheme[afterScheme.index(after: mark)...].prefix(while: { $0 != "#" })))
        } else {
            query = [:]
        }
        guard let secretText = query["secret"], !secretText.isEmpty else {
            throw CoreError(.invalidOTP, "the otpauth URI has no secret", location: fieldName)
        }
        guard let secret = Base32.decode(secretText) else {
            throw CoreError(.invalidOTP, "the secret is not base32", location: fieldName)
        }
        var algorithm = OTPAlgorithm.sha1
        if let name = query["algorithm"], !name.isEmpty {
            guard let parsed = OTPAlgorithm(name: name) else {
                throw CoreError(.invalidOTP, "unknown algorithm \(name)", location: fieldName)
            }
            algorithm = parsed
        }
        let digits = try integer(query["digits"], default: 6, range: 1...10, fieldName: fieldName, what: "digits")
        var encoding = OTPEncoding.decimal(digits: digits)
        if let encoder = query["encoder"], !encoder.isEmpty {
            guard encoder.lowercased() == "steam" else {
                throw CoreError(.invalidOTP, "unknown encoder \(encoder)", location: fieldName)
            }
            encoding = .steam
        }
        let kind: OTPKind
        switch type {
        case "totp", "steam":
            if type == "steam" { encoding = .steam }
            let period = try integer(query["period"], default: 30, range: 1...Int(Int32.max),
                                     fieldName: fieldName, what: "period")
            kind = .totp(periodSeconds: period)
        case "hotp":
            kind = .hotp(counter: try counterValue(query["counter"], fieldName: fieldName))
        default:
            throw CoreError(.invalidOTP, "unknown OTP type \(type)", location: fieldName)
        }
        return OTPParameters(secret: SecureBytes(secret), algorithm: algorithm, encoding: encoding, kind: kind,
                             storage: .otpauthURI(field: fieldName))
    }

    /// KeeOtp: `key=BASE32&size=6&step=30&otpHashMode=Sha256&type=Totp|Hotp&counter=N`.
    private static func keeOtp(_ query: [String: String], fieldName: String) throws(CoreError) -> OTPParameters {
        guard let key = query["key"], let secret = Base32.decode(key) else {
            throw CoreError(.invalidOTP, "the key is not base32", location: fieldName)
        }
        let digits = try integer(query["size"], default: 6, range: 1...10, fieldName: fieldName, what: "size")
        var algorithm = OTPAlgorithm.sha1
        if let name = query["otphashmode"], !name.isEmpty {
            guard let parsed = OTPAlgorithm(name: name) else {
                throw CoreError(.invalidOTP, "unknown otpHashMode \(name)", location: fieldName)
            }
            algorithm = parsed
        }
        let kind: OTPKind
        switch query["type"]?.lowercased() ?? "totp" {
        case "totp":
            kind = .totp(periodSeconds: try integer(query["step"], default: 30, range: 1...Int(Int32.max),
                                                    fieldName: fieldName, what: "step"))
        case "hotp":
            kind = .hotp(counter: try counterValue(query["counter"], fieldName: fieldName))
        default:
            throw CoreError(.invalidOTP, "unknown type", location: fieldName)
        }
        return OTPParameters(secret: SecureBytes(secret), algorithm: algorithm, encoding: .decimal(digits: digits),
                             kind: kind, storage: .keeOtp(field: fieldName))
    }

    /// KeePassXC legacy: base32 seed and `period;digits` or `period;S`.
    private static func legacy(seed: String, settings: String?) throws(CoreError) -> OTPParameters {
        guard let secret = Base32.decode(seed) else {
            throw CoreError(.invalidOTP, "the seed is not base32", location: OTPFieldNames.legacySeed)
        }
        var period = 30
        var encoding = OTPEncoding.decimal(digits: 6)
        if let settings {
            let parts = settings.trimmed.split(separator: ";", omittingEmptySubsequences: false).map { String($0).trimmed }
            guard parts.count >= 2 else {
                throw CoreError(.invalidOTP, "expected period;digits", location: OTPFieldNames.legacySettings)
            }
            period = try integer(parts[0], default: 30, range: 1...Int(Int32.max),
                                 fieldName: OTPFieldNames.legacySettings, what: "period")
            if parts[1] == "S" {
                encoding = .steam
            } else {
                encoding = .decimal(digits: try integer(parts[1], default: 6, range: 1...10,
                                                        fieldName: OTPFieldNames.legacySettings, what: "digits"))
            }
        }
        return OTPParameters(secret: SecureBytes(secret), encoding: encoding, kind: .totp(periodSeconds: period),
                             storage: .keePassXCLegacy)
    }

    /// KeePass's secret fields `<prefix>-Secret` (UTF-8), `-Secret-Hex`, `-Secret-Base32`,
    /// `-Secret-Base64`, the first present one; `nil` when none is.
    private static func keePassSecret(prefix: String, field: (String) -> String?) throws(CoreError) -> SecureBytes? {
        if let text = field(prefix + "-Secret") {
            guard !text.isEmpty else { throw CoreError(.invalidOTP, "empty secret", location: prefix + "-Secret") }
            return SecureBytes(Array(text.utf8))
        }
        if let text = field(prefix + "-Secret-Hex") {
            guard let bytes = [UInt8](hex: String(text.filter { !$0.isWhitespace })), !bytes.isEmpty else {
                throw CoreError(.invalidOTP, "the secret is not hexadecimal", location: prefix + "-Secret-Hex")
            }
            return SecureBytes(bytes)
        }
        if let text = field(prefix + "-Secret-Base32") {
            guard let bytes = Base32.decode(text) else {
                throw CoreError(.invalidOTP, "the secret is not base32", location: prefix + "-Secret-Base32")
            }
            return SecureBytes(bytes)
        }
        if let text = field(prefix + "-Secret-Base64") {
            guard let bytes = try? Base64.decode(text), !bytes.isEmpty else {
                throw CoreError(.invalidOTP, "the secret is not base64", location: prefix + "-Secret-Base64")
            }
            return SecureBytes(bytes)
        }
        return nil
    }

    // MARK: - Values

    private static func integer(_ text: String?, default value: Int, range: ClosedRange<Int>, fieldName: String,
                                what: String? = nil) throws(CoreError) -> Int {
        guard let text = text?.trimmed, !text.isEmpty else { return value }
        guard text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let number = Int(text), range.contains(number) else {
            let name = what.map { "\($0) " } ?? ""
            throw CoreError(.invalidOTP, "\(name)must be a number in \(range.lowerBound)...\(range.upperBound)",
                            location: fieldName)
        }
        return number
    }

    private static func counterValue(_ text: String?, fieldName: String) throws(CoreError) -> UInt64 {
        guard let text = text?.trimmed, !text.isEmpty else { return 0 }
        guard let number = UInt64(text) else {
            throw CoreError(.invalidOTP, "counter must be a non-negative number", location: fieldName)
        }
        return number
    }

    /// `a=1&b=2` -> lower-cased names to percent-decoded values (the first of repeated names wins).
    static func queryItems(_ query: String) -> [String: String] {
        var items: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = percentDecoded(parts[0]).lowercased()
            let value = parts.count > 1 ? percentDecoded(parts[1]) : ""
            if items[name] == nil { items[name] = value }
        }
        return items
    }

    /// `%XX` escapes decoded as UTF-8; malformed escapes are kept as written.
    static func percentDecoded(_ text: Substring) -> String {
        var out: [UInt8] = []
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count,
               let high = hexValue(bytes[i + 1]), let low = hexValue(bytes[i + 2]) {
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension String {
    /// The text without leading and trailing white space.
    var trimmed: String {
        var s = self[...]
        while let first = s.first, first.isWhitespace { s.removeFirst() }
        while let last = s.last, last.isWhitespace { s.removeLast() }
        return String(s)
    }
}
