import MyPassKDBX

extension Entry {
    /// The entry's OTP settings, `nil` when it has none (see ``OTPParser``).
    ///
    /// - Throws: ``CoreError/Code/invalidOTP`` naming the unreadable field.
    public func otpParameters() throws(CoreError) -> OTPParameters? {
        try OTPParser.parameters(field: { field(named: $0)?.value })
    }

    /// Whether the entry carries OTP settings of any kind (readable or not).
    public var hasOTP: Bool {
        let names = [OTPFieldNames.otp, OTPFieldNames.legacySeed, OTPFieldNames.legacySettings,
                     OTPFieldNames.timeSecret, OTPFieldNames.timeSecretHex, OTPFieldNames.timeSecretBase32,
                     OTPFieldNames.timeSecretBase64, OTPFieldNames.hmacSecret, OTPFieldNames.hmacSecretHex,
                     OTPFieldNames.hmacSecretBase32, OTPFieldNames.hmacSecretBase64]
        return fields.contains { names.contains($0.key) }
    }
}

extension Vault {
    /// The one-time password of entry `uuid` at `now`, or `nil` when it has no OTP settings.
    ///
    /// A TOTP code changes nothing. An HOTP code is the value of the stored counter, and the counter
    /// is then advanced by one and saved where it came from (`HmacOtp-Counter`, or the `counter`
    /// parameter of the `otp` URI or KeeOtp text), with the entry's modification and access times
    /// set to `now` (no history item, as KeePass).
    ///
    /// - Throws: ``CoreError/Code/notFound``; ``CoreError/Code/invalidOTP`` naming the field.
    public mutating func oneTimePassword(forEntry uuid: KDBXUUID, now: KDBXTime) throws(CoreError) -> OTPCode? {
        guard let entry = entry(withUUID: uuid) else {
            throw CoreError(.notFound, "no such entry", location: uuid.hexString)
        }
        guard let parameters = try entry.otpParameters() else { return nil }
        let code = TOTPGenerator.code(for: parameters, unixTime: now.unixSeconds)
        guard case .hotp(let counter) = parameters.kind else { return code }
        let next = counter &+ 1
        root.modifyEntry(withUUID: uuid) { entry in
            switch parameters.storage {
            case .keePassHmacOtp:
                entry.setValue(String(next), for: OTPFieldNames.hmacCounter)
            case .otpauthURI(let field), .keeOtp(let field):
                let text = entry.value(of: field)
                entry.setValue(OTPParser.replacingCounter(in: text, with: next), for: field)
            case .keePassXCLegacy, .keePassTimeOtp, .bareSecret:
                break
            }
            entry.times.lastModification = now
            entry.times.lastAccess = now
        }
        return code
    }
}

extension OTPParser {
    /// `text` (an `otpauth://` URI or KeeOtp `key=...` text) with its `counter` parameter set to
    /// `value`, appended when absent; other parameters are kept as written.
    public static func replacingCounter(in text: String, with value: UInt64) -> String {
        let trimmedText = text.trimmed
        var prefix = ""
        var query = trimmedText[...]
        var fragment = ""
        if trimmedText.lowercased().hasPrefix("otpauth:") {
            if let mark = trimmedText.firstIndex(of: "?") {
                prefix = String(trimmedText[...mark])
                query = trimmedText[trimmedText.index(after: mark)...]
            } else {
                prefix = trimmedText + "?"
                query = ""
            }
        }
        if let hash = query.firstIndex(of: "#") {
            fragment = String(query[hash...])
            query = query[..<hash]
        }
        var items = query.split(separator: "&").map(String.init)
        let replacement = "counter=\(value)"
        if let index = items.firstIndex(where: { $0.lowercased().hasPrefix("counter=") || $0.lowercased() == "counter" }) {
            items[index] = replacement
        } else {
            items.append(replacement)
        }
        return prefix + items.joined(separator: "&") + fragment
    }
}
