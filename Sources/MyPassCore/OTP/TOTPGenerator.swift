import MyPassBytes
import MyPassCrypto

/// Computes one-time passwords: HOTP (RFC 4226) and TOTP (RFC 6238), with decimal or Steam output.
public enum TOTPGenerator {
    /// The Steam Guard alphabet (26 characters, no look-alikes).
    public static let steamAlphabet = Array("23456789BCDFGHJKMNPQRTVWXY")

    /// The 31-bit dynamically truncated HMAC value for `counter` (RFC 4226 §5.3, `DT` then the
    /// top bit masked): HMAC-`algorithm`(secret, counter as 8 big-endian bytes).
    public static func truncatedValue(secret: SecureBytes, counter: UInt64, algorithm: OTPAlgorithm) -> UInt32 {
        var message = [UInt8](repeating: 0, count: 8)
        for i in 0..<8 { message[i] = UInt8(truncatingIfNeeded: counter >> UInt64(56 - 8 * i)) }
        var mac: [UInt8]
        switch algorithm {
        case .sha1:
            var h = HMAC<SHA1>(key: secret); h.update(message); mac = h.finalize()
        case .sha256:
            var h = HMAC<SHA256>(key: secret); h.update(message); mac = h.finalize()
        case .sha512:
            var h = HMAC<SHA512>(key: secret); h.update(message); mac = h.finalize()
        }
        defer { wipe(&mac) }
        let offset = Int(mac[mac.count - 1] & 0x0F)
        return (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16)
            | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
    }

    /// The code text for a truncated value: `digits` decimal digits, zero-padded (RFC 4226 §5.3),
    /// or 5 Steam characters (least significant first, as Steam Guard).
    public static func format(_ value: UInt32, encoding: OTPEncoding) -> String {
        switch encoding {
        case .decimal(let digits):
            var modulus: UInt64 = 1
            for _ in 0..<digits { modulus *= 10 }
            let number = String(UInt64(value) % modulus)
            return String(repeating: "0", count: max(0, digits - number.count)) + number
        case .steam:
            var rest = Int(value)
            var out = ""
            for _ in 0..<5 {
                out.append(steamAlphabet[rest % steamAlphabet.count])
                rest /= steamAlphabet.count
            }
            return out
        }
    }

    /// The HOTP value for `counter` (RFC 4226).
    public static func hotp(secret: SecureBytes, counter: UInt64, algorithm: OTPAlgorithm = .sha1,
                            encoding: OTPEncoding = .decimal(digits: 6)) -> String {
        format(truncatedValue(secret: secret, counter: counter, algorithm: algorithm), encoding: encoding)
    }

    /// The code for `parameters` at `unixTime` (seconds since 1970-01-01T00:00:00Z): for TOTP the
    /// value of step `floor(unixTime / period)` and the seconds until the next step (RFC 6238 §4.2,
    /// T0 = 0); for HOTP the value of the stored counter (``MyPassKDBX/Vault/oneTimePassword(forEntry:now:)`` advances it).
    public static func code(for parameters: OTPParameters, unixTime: Int64) -> OTPCode {
        switch parameters.kind {
        case .totp(let period):
            let time = UInt64(max(0, unixTime))
            let step = time / UInt64(period)
            let value = truncatedValue(secret: parameters.secret, counter: step, algorithm: parameters.algorithm)
            let remaining = period - Int(time % UInt64(period))
            return OTPCode(value: format(value, encoding: parameters.encoding), secondsRemaining: remaining,
                           periodSeconds: period)
        case .hotp(let counter):
            let value = truncatedValue(secret: parameters.secret, counter: counter, algorithm: parameters.algorithm)
            return OTPCode(value: format(value, encoding: parameters.encoding), secondsRemaining: nil, periodSeconds: nil)
        }
    }
}
