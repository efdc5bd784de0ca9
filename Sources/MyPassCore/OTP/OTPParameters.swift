import MyPassBytes

/// The HMAC hash function of an OTP (RFC 6238 §1.2 allows SHA-1, SHA-256 and SHA-512).
public enum OTPAlgorithm: String, Sendable, Equatable, CaseIterable {
    case sha1 = "SHA1"
    case sha256 = "SHA256"
    case sha512 = "SHA512"

    /// Reads `SHA1`, `sha-256`, `HMAC-SHA-512`, `Sha256` ...; `nil` for anything else.
    public init?(name: String) {
        var text = name.uppercased().filter { $0 != "-" && $0 != "_" && $0 != " " }
        if text.hasPrefix("HMAC") { text.removeFirst(4) }
        switch text {
        case "SHA1": self = .sha1
        case "SHA256": self = .sha256
        case "SHA512": self = .sha512
        default: return nil
        }
    }
}

/// How the OTP value is shown.
public enum OTPEncoding: Sendable, Equatable {
    /// `digits` decimal digits (RFC 4226 §5.3), zero-padded.
    case decimal(digits: Int)
    /// Steam Guard: 5 characters from `23456789BCDFGHJKMNPQRTVWXY`.
    case steam
}

/// Time-based or counter-based.
public enum OTPKind: Sendable, Equatable {
    /// TOTP (RFC 6238): the counter is `floor(unixTime / periodSeconds)`.
    case totp(periodSeconds: Int)
    /// HOTP (RFC 4226): an explicit counter, advanced and saved after each use.
    case hotp(counter: UInt64)
}

/// Where the entry stores its OTP settings, which decides how a used HOTP counter is written back.
public enum OTPStorage: Sendable, Equatable {
    /// An `otpauth://` URI in the field named (normally `otp`).
    case otpauthURI(field: String)
    /// KeeOtp's `key=...&size=...&step=...` in the field named (normally `otp`).
    case keeOtp(field: String)
    /// A bare Base32 secret in the field named (normally `otp`): TOTP with the defaults (SHA-1,
    /// 6 digits, 30 s), as KeePassXC reads it.
    case bareSecret(field: String)
    /// KeePassXC's legacy `TOTP Seed` with `TOTP Settings` (or the seed alone).
    case keePassXCLegacy
    /// KeePass 2.47+ `TimeOtp-*` fields.
    case keePassTimeOtp
    /// KeePass 2.47+ `HmacOtp-*` fields with `HmacOtp-Counter`.
    case keePassHmacOtp
}

/// Everything needed to compute an entry's one-time password.
public struct OTPParameters: Sendable, Equatable {
    /// The shared secret (HMAC key), in a wiping buffer.
    public var secret: SecureBytes
    /// The HMAC hash function.
    public var algorithm: OTPAlgorithm
    /// Decimal digits or Steam characters.
    public var encoding: OTPEncoding
    /// TOTP with its period, or HOTP with its counter.
    public var kind: OTPKind
    /// Where the settings came from.
    public var storage: OTPStorage

    /// Parameters from their parts.
    public init(secret: SecureBytes, algorithm: OTPAlgorithm = .sha1, encoding: OTPEncoding = .decimal(digits: 6),
                kind: OTPKind = .totp(periodSeconds: 30), storage: OTPStorage) {
        self.secret = secret
        self.algorithm = algorithm
        self.encoding = encoding
        self.kind = kind
        self.storage = storage
    }
}

/// A computed one-time password.
public struct OTPCode: Sendable, Equatable {
    /// The code as shown (`"287082"`, `"FR8RV"`).
    public var value: String
    /// Seconds until a TOTP code changes (1...period); `nil` for HOTP.
    public var secondsRemaining: Int?
    /// The TOTP period in seconds; `nil` for HOTP.
    public var periodSeconds: Int?
}
