/// The entry field names under which clients store OTP settings.
public enum OTPFieldNames {
    /// `otp`: an `otpauth://` URI (KeePassXC 2.6+, KeePassDX, KeeWeb, ...) or KeeOtp's `key=...` form.
    public static let otp = "otp"
    /// KeePassXC legacy: the base32 secret.
    public static let legacySeed = "TOTP Seed"
    /// KeePassXC legacy: `period;digits` or `period;S` (Steam).
    public static let legacySettings = "TOTP Settings"
    /// KeePass 2.47+ TOTP secret fields, in the order KeePass looks at them.
    public static let timeSecret = "TimeOtp-Secret"
    public static let timeSecretHex = "TimeOtp-Secret-Hex"
    public static let timeSecretBase32 = "TimeOtp-Secret-Base32"
    public static let timeSecretBase64 = "TimeOtp-Secret-Base64"
    public static let timeLength = "TimeOtp-Length"
    public static let timePeriod = "TimeOtp-Period"
    public static let timeAlgorithm = "TimeOtp-Algorithm"
    /// KeePass 2.47+ HOTP secret fields and counter.
    public static let hmacSecret = "HmacOtp-Secret"
    public static let hmacSecretHex = "HmacOtp-Secret-Hex"
    public static let hmacSecretBase32 = "HmacOtp-Secret-Base32"
    public static let hmacSecretBase64 = "HmacOtp-Secret-Base64"
    public static let hmacCounter = "HmacOtp-Counter"
}
